// Bounded queues and protective defaults, end to end: the real bot against the local Discord and
// the sandbox Voice API. A flood into a read channel keeps a bounded backlog and spends nothing on what it drops; a
// member past their bound is refused privately while others get in; a full server queue refuses; /usage shows the
// defaults an operator gets without setting anything.
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { openSqliteStore } from '../../src/app/store.ts';
import type { InteractionHandle } from '@saybot/local-discord';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { postChat } from '../support/chat.ts';
import { heldSay } from '../support/held-say.ts';

const GUILD = '200000000000000042';
const TEXT = '210000000000000042';
const VOICE = '220000000000000042';
const ALICE = { id: '300000000000000041', username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000043', username: 'carol' }; // in voice
const DAVE = { id: '300000000000000044', username: 'dave' }; // in voice

function guilds(): FakeGuildSpec[] {
  return [
    // An English server (the local Discord's default locale).
    oneRoomGuild(GUILD, 'Flood', { text: TEXT, voice: VOICE, voiceName: 'general' }, [
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
      { ...DAVE, voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ];
}

const openHarness = useHarnessPerTest();

async function start(options: HarnessOptions = {}): Promise<Harness> {
  const harness = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, ...options });
  return harness;
}

const ephemeral = (handle: InteractionHandle) =>
  ((handle.responses.at(-1)?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const ttsTexts = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'tts').map((r) => r.text ?? '');
const month = () => new Date().toISOString().slice(0, 7);

/** Resolves once the guild's player has nothing playing or queued, twice in a row 300 ms apart (the reader hands the next over as one starts). */
async function drained(h: Harness, timeout: number): Promise<void> {
  let idleSince: number | undefined;
  await vi.waitFor(
    () => {
      const busy = h.bot.players.find(GUILD)?.busy ?? false;
      if (busy) idleSince = undefined;
      else idleSince ??= Date.now();
      if (idleSince === undefined || Date.now() - idleSince < 300) throw new Error('still reading');
    },
    { timeout, interval: 50 },
  );
}

describe('bounded queues', () => {
  it('200 messages in 5 s into a read channel: the backlog and the spend stay bounded, the oldest unread are dropped with one notice', async () => {
    const MAX_PENDING = 10;
    const h = await start({ env: { QUEUE_MAX_CLIPS: String(MAX_PENDING) } });
    const started = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'start' });
    expect(started.content).toContain(`Reading <#${TEXT}> aloud in <#${VOICE}>`);
    const store = openSqliteStore(h.databasePath);
    try {
      const billedBefore = h.sandbox.charactersBilled();
      let maxQueued = 0;
      const floodStart = Date.now();
      for (let i = 1; i <= 200; i++) {
        const delivered = await postChat(h, { guildId: GUILD, channelId: TEXT }, ALICE, `flood ${i}`);
        expect(delivered).toBe(true);
        // The guild's voice queue holds at most the next message (handed over while one plays), whatever the flood.
        maxQueued = Math.max(maxQueued, h.bot.players.find(GUILD)?.queueLength ?? 0);
        // Paced: one message every 25 ms, 200 in 5 s (at least: a delivery may take longer on a busy host).
        const due = floodStart + i * 25;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      }
      const floodSeconds = (Date.now() - floodStart) / 1000;
      const requestedAtLastSend = ttsTexts(h).length;
      expect(maxQueued).toBeLessThanOrEqual(1);
      await drained(h, 30_000);
      const requested = ttsTexts(h);

      // Backlog: what was still to be read when the flood ended is within the bound.
      expect(requested.length - requestedAtLastSend).toBeLessThanOrEqual(MAX_PENDING);
      // Spend: only messages about to be played were ever requested. Each clip lasts at least 0.5 s (the sandbox's
      // shortest), so no more than floodSeconds / 0.5 can have played during the flood; the bound adds the rest.
      expect(requested.length).toBeLessThanOrEqual(Math.ceil(floodSeconds / 0.5) + MAX_PENDING + 2);
      expect(requested.length).toBeLessThan(200);
      // The newest are kept, the oldest unread dropped; in order; none requested twice.
      expect(requested.at(-1)).toBe('flood 200');
      const numbers = requested.map((text) => Number(/flood (\d+)$/.exec(text)?.[1]));
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(new Set(numbers).size).toBe(numbers.length);
      // Every character billed is one of those requested, and recorded once.
      const billed = h.sandbox.charactersBilled() - billedBefore;
      expect(billed).toBe(requested.reduce((sum, text) => sum + countCharacters(text), 0));
      expect((await store.spends.monthTotals(month(), GUILD)).spent).toBe(billed);
      // One notice about the dropped ones, pinging nobody.
      const behind = h.discord
        .channelMessages(TEXT)
        .filter((m) => m.message['content'] === t('en-US', 'autoread.behind'));
      expect(behind).toHaveLength(1);
      expect((behind[0]?.raw as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({ parse: [] });
      console.info(
        `[queue-bounds] 200 messages in ${floodSeconds.toFixed(1)} s: ${requested.length} read, ${200 - requested.length} dropped, ` +
          `${requested.length - requestedAtLastSend} still pending at the last send, ${billed} characters billed, max voice queue ${maxQueued}`,
      );
    } finally {
      await store.close();
    }
  }, 90_000);

  it('a member past the per-member bound is refused privately before anything is sent; another member still gets in', async () => {
    const h = await start({ env: { QUEUE_MAX_PER_MEMBER: '2' } });
    const line = (n: number) => `Alice, ${n}.`;
    // Alice's first line stays ahead however long the rest takes to arrive: held (by an event, not its length).
    const first = await heldSay(h, GUILD, ALICE.id, line(1));
    try {
      const { content } = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'say',
        options: { text: line(2) },
      });
      expect(content).toMatch(/^(Speaking in|Queued)/);
      const refused = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'say',
        options: { text: line(3) },
      });
      expect(refused.content).not.toMatch(/^(Speaking in|Queued)/);
      expect(refused.content).toBe(t('en-US', 'queue.refused.member', { limit: 2 }));
      expect(ephemeral(refused.handle)).toBe(true);
      expect(h.discord.channelMessages().some((m) => String(m.message['content']).includes('requests waiting'))).toBe(
        false,
      );
      const other = await runCommand(h, {
        guildId: GUILD,
        userId: CAROL.id,
        name: 'say',
        options: { text: 'Carol still gets in.' },
      });
      expect(other.content).toMatch(/^Queued/);
    } finally {
      h.sandbox.resumePaused();
    }
    expect((await first.waitFor((r) => r.content !== undefined, 60_000)).content).toMatch(/^(Speaking in|Queued)/);
    await drained(h, 30_000);
    expect(ttsTexts(h)).toEqual([line(1), line(2), 'Carol still gets in.']);
  }, 60_000);

  it('a full server queue refuses the next request privately, naming the bound; a file still can be had', async () => {
    const h = await start({ env: { QUEUE_MAX_CLIPS: '2' } });
    // Alice's line stays ahead, held (by an event, not its length), until the file has been had.
    const first = await heldSay(h, GUILD, ALICE.id, 'Alice fills the queue.');
    try {
      const { content } = await runCommand(h, {
        guildId: GUILD,
        userId: CAROL.id,
        name: 'say',
        options: { text: 'Carol fills the queue.' },
      });
      expect(content).toMatch(/^(Speaking in|Queued)/);
      const refused = await runCommand(h, {
        guildId: GUILD,
        userId: DAVE.id,
        name: 'say',
        options: { text: 'Dave is one too many.' },
      });
      expect(refused.content).not.toMatch(/^(Speaking in|Queued)/);
      expect(refused.content).toBe(t('en-US', 'queue.refused.guildClips', { limit: 2, queued: 2 }));
      expect(ephemeral(refused.handle)).toBe(true);
      const file = await runCommand(h, {
        guildId: GUILD,
        userId: DAVE.id,
        name: 'say',
        options: { text: 'Dave asks for a file.', output: 'file' },
      });
      await file.handle.waitFor((r) => r.files.length > 0, 15_000);
    } finally {
      h.sandbox.resumePaused();
    }
    expect((await first.waitFor((r) => r.content !== undefined, 60_000)).content).toMatch(/^(Speaking in|Queued)/);
    await drained(h, 30_000);
    expect(ttsTexts(h)).not.toContain('Dave is one too many.');
  }, 60_000);

  it('/usage shows the defaults an operator gets without setting any budget', async () => {
    // Unset, as in a fresh .env: the budgets come from the plan (Creator), the queue bounds from SayBot.
    const h = await start({
      env: { BUDGET_GUILD_MONTHLY_CHARS: '', BUDGET_MEMBER_DAILY_CHARS: '', BUDGET_MEMBER_COOLDOWN_SECONDS: '' },
    });
    const { content, handle } = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'usage' });
    expect(ephemeral(handle)).toBe(true);
    expect(content).toContain('monthly budget 100,000, 100,000 left');
    expect(content).toContain('daily budget 2,000, 2,000 left');
    expect(content).toContain(t('en-US', 'usage.cooldown', { seconds: 3 }));
    expect(content).toContain(t('en-US', 'usage.queue', { clips: '20', seconds: '180', member: '3' }));
  }, 60_000);
});
