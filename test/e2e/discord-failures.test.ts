// Discord failing the way Discord does (issue 10, item 4): the bot survives each failure and tells users the truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageFlags } from 'discord.js';
import type { Store } from '../../src/store/types.ts';
import { defaultGuilds, runCommand, startHarness, type Harness } from '../support/harness.ts';

const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];
const ALICE = '300000000000000011'; // London, in voice "general"

/** The bot's JSON log lines that carry `code`. */
function loggedCodes(h: Harness): Array<Record<string, unknown>> {
  return h.logs().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => typeof l.code === 'string');
}

function loggedErrors(h: Harness): string[] {
  return h.logs().split('\n').filter((line) => /"level":(50|60)/.test(line));
}

describe('an interaction token that expires while its reply waits in the queue', () => {
  // Discord's tokens live 15 minutes; the local Discord's live 1.5 s here, so a clip or two outlasts one.
  const LIFETIME_MS = 1500;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ discord: { interactionTokenLifetimeMs: LIFETIME_MS }, config: { voiceIdleTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reaches the requester as a channel message that names them without a ping, tried once, and the bot keeps serving', async () => {
    const first = 'This first clip plays for longer than the token of the next one lives.';
    const second = 'Queued behind it.';
    const firstVoice = 'voice-b-en-f-01';
    const secondVoice = 'voice-b-en-m-01';
    expect(h.sandbox.expectedDurationSeconds(first) * 1000).toBeGreaterThan(2 * LIFETIME_MS);
    h.discord.clearAudio(london.id);
    await h.discord.command({ guildId: london.id, userId: ALICE, name: 'say', options: [{ name: 'text', value: first }, { name: 'voice', value: firstVoice }] });
    await h.discord.waitForPacket(london.id, (p) => !p.silence);
    const queued = await h.discord.command({
      guildId: london.id, userId: ALICE, name: 'say', options: [{ name: 'text', value: second }, { name: 'voice', value: secondVoice }],
    });

    const posted = await h.discord.waitForChannelMessage(
      (m) => m.channelId === london.textChannelId && String(m.message.content).includes(secondVoice) && String(m.message.content).includes('Spoke'),
      30_000,
    );
    expect(String(posted.message.content)).toMatch(new RegExp(`^<@${ALICE}> Spoke \\d+\\.\\d s in <#220000000000000003> with \`${secondVoice}\``));
    expect((posted.raw as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
    expect(queued.tokenExpired).toBe(true);

    // One refused request for the expired token, then no more: the bot does not retry a dead token.
    const refused = h.discord.restLog.filter((e) => e.path.includes(queued.token) && e.status === 401);
    expect(refused).toHaveLength(1);
    const expiredLines = loggedCodes(h).filter((l) => l.code === 'discord-token-expired' && l.interactionId === queued.id);
    expect(expiredLines).toHaveLength(1);
    expect(loggedErrors(h)).toEqual([]);

    // Still serving: a fresh interaction is answered as usual.
    const { content } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'voices', subcommand: 'list' });
    expect(content).toContain('Cloned voices in this server');
  });
});

/** Reads of the store (get…, list…, find…, totals): the next `state.slowNext` of them answer only after `delayMs`. */
function slowReads(delayMs: number) {
  const state = { slowNext: 0, slowed: 0 };
  const wrap = (store: Store): Store =>
    new Proxy(store, {
      get(target, property) {
        // The store keeps private fields: its methods run on the store itself, not on this proxy.
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = value as (...a: unknown[]) => Promise<unknown>;
        if (typeof property !== 'string' || !/^(get|list|find|month|member|last)/.test(property)) return method.bind(target);
        return async (...args: unknown[]) => {
          if (state.slowNext > 0) {
            state.slowNext -= 1;
            state.slowed += 1;
            await new Promise((resolve) => setTimeout(resolve, delayMs));
          }
          return method.apply(target, args);
        };
      },
    });
  return { state, wrap };
}

describe("Discord's 3-second deadline with a slow store", () => {
  // Longer than Discord's 3 s on its own: a command that waited for it before acknowledging would be too late.
  const slow = slowReads(3200);
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ wrapStore: slow.wrap, config: { voiceIdleTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('/say is acknowledged in time, publicly, and its reply and audio then arrive', async () => {
    slow.state.slowNext = 1;
    const before = slow.state.slowed;
    h.discord.clearAudio(london.id);
    try {
      const handle = await h.discord.command({ guildId: london.id, userId: ALICE, name: 'say', options: [{ name: 'text', value: 'Slow store, quick answer.' }] });
      const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
      expect(done.content).toMatch(/Spoke \d+\.\d s in <#220000000000000003>/);
      expect(slow.state.slowed).toBe(before + 1);
      expect(handle.problems).toEqual([]);
      const first = handle.responses[0];
      expect(first?.kind).toBe('callback');
      expect(first?.type).toBe(5);
      expect((first?.flags ?? 0) & MessageFlags.Ephemeral).toBe(0);
    } finally {
      slow.state.slowNext = 0;
    }
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(heard.seconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds('Slow store, quick answer.') - 0.1);
    expect(loggedErrors(h)).toEqual([]);
  });

  it('a private command (/voices list) is acknowledged in time, privately, and its answer then arrives', async () => {
    slow.state.slowNext = 1;
    const before = slow.state.slowed;
    try {
      const { handle, content } = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'voices', subcommand: 'list' });
      expect(content).toContain('Cloned voices in this server');
      expect(slow.state.slowed).toBe(before + 1);
      expect(handle.problems).toEqual([]);
      const first = handle.responses[0];
      expect(first?.type).toBe(5);
      expect((first?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    } finally {
      slow.state.slowNext = 0;
    }
  });
});
