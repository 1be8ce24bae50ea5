// Deletions stick, and cache-only means free, end to end against the local Discord and the sandbox: a request
// accepted as costing nothing (a reply's buttons) whose audio leaves the cache before its fetch is refused, never
// paid; a deleted cloned voice is never requested, heard or cached again, queued parts included, and the sounds
// saved from it leave the soundboard; /privacy delete keeps a hold in flight counted for the day, and its spend is
// recorded without the member's ID. Each test waits behind a long reply so that what it checks is queued, not yet
// fetched, when the deletion comes.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, type InteractionHandle } from '@saybot/local-discord';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { voiceDirOf } from '../../src/core/cache/audio-cache.ts';
import { rowsHolding, scanSqlite } from '../support/db-scan.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { madeClone } from '../support/clones.ts';

const GUILD = '200000000000000321';
const TEXT = '210000000000000321';
const VOICE = '220000000000000321';
const ALICE = '300000000000000321'; // Manage Server, Create Expressions, in voice
const BOB = '300000000000000322'; // in voice
const PRIVATE_GUILD = '200000000000000322';
const CAROL = '300000000000000323'; // in voice, asks to be forgotten
const DAN = '300000000000000324'; // Manage Server, in voice

const member = (id: string, permissions = 0n) => ({
  id,
  username: `m${id.slice(-3)}`,
  voiceChannelId: id === CAROL || id === DAN ? '220000000000000322' : VOICE,
  locale: 'en-US',
  permissions,
});
const guilds: FakeGuildSpec[] = [
  {
    id: GUILD,
    name: 'Deletions',
    textChannelId: TEXT,
    voiceChannels: [{ id: VOICE, name: 'v' }],
    botPermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.CreateGuildExpressions,
    members: [member(ALICE, PermissionFlagsBits.ManageGuild | PermissionFlagsBits.CreateGuildExpressions), member(BOB)],
  },
  {
    id: PRIVATE_GUILD,
    name: 'Forgetting',
    textChannelId: '210000000000000322',
    voiceChannels: [{ id: '220000000000000322', name: 'v' }],
    members: [member(CAROL), member(DAN, PermissionFlagsBits.ManageGuild)],
  },
];

/**
 * 52 characters that the 50-character limit below splits into two parts of 26: two paid requests when nothing is
 * cached.
 */
const TWO_PARTS = 'Alpha bravo charlie delta. Echo foxtrot golf hotel x.';
/** Six parts: the first plays while the rest, and whatever is queued behind them, wait (only the next is fetched). */
const LONG = [
  'Bob reads the first of six long sentences now.',
  'Bob reads the second of six long sentences now.',
  'Bob reads the third of six long sentences now.',
  'Bob reads the fourth of six long sentences now.',
  'Bob reads the fifth of six long sentences now.',
  'Bob reads the last of six long sentences now.',
].join(' ');

const h = useFileHarness({ guilds, env: { TTS_MAX_CHARS_PER_REQUEST: '50' } });

const queueLength = (guildId: string) => h.bot.players.find(guildId)?.queueLength ?? 0;

/** Someone's six-part reply playing in `guildId`, its five other parts queued. */
async function longReplyPlaying(guildId: string, userId: string): Promise<void> {
  await runCommand(h, { guildId, userId, name: 'say', options: { text: LONG } });
  await vi.waitFor(() => expect(queueLength(guildId)).toBe(5), { timeout: 20_000 });
}

/** Ends the long reply (the rest of it too), so that what was queued behind it comes up now. */
async function skipLongReply(guildId: string, userId: string): Promise<void> {
  const { content } = await runCommand(h, { guildId, userId, name: 'skip' });
  expect(content).toBe(t('en-US', 'skip.skipped'));
}

/** ALICE's /say as a file in `voice`, and its reply's buttons (play, sound). */
async function fileReply(text: string, voice: string): Promise<{ messageId: string; play: string; sound: string }> {
  const { handle } = await runCommand(h, {
    guildId: GUILD,
    userId: ALICE,
    name: 'say',
    options: { text, voice, output: 'file' },
  });
  const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
  const rows = (reply.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
  const [play, sound] = rows.flatMap((row) => row.components).map((b) => b.custom_id);
  return { messageId: String(reply.message?.id), play: play ?? '', sound: sound ?? '' };
}

const press = (messageId: string, customId: string): Promise<InteractionHandle> =>
  h.discord.pressButton({ guildId: GUILD, userId: ALICE, messageId, customId });

/** What the service was asked for in `voice` since request number `since`: requests and characters billed. */
function paidSince(since: number, voice: string): { requests: number; characters: number } {
  const asked = h.sandbox.requests.slice(since).filter((r) => r.endpoint === 'tts' && r.voice === voice);
  return { requests: asked.length, characters: asked.reduce((sum, r) => sum + r.charactersBilled, 0) };
}

/** The cache entries of a voice on disk. */
const entriesOf = (voice: string): string[] => {
  const folder = path.join(h.cacheDir, voiceDirOf(voice));
  return existsSync(folder) ? readdirSync(folder) : [];
};

/**
 * ALICE's two-part reply in `voice` (both parts cached), then her "Play in my voice channel" accepted as free and
 * queued behind a long reply's five waiting parts: not fetched yet. `since`: the sandbox's count before the press.
 */
async function replayQueued(voice: string): Promise<{ replay: InteractionHandle; since: number }> {
  const { messageId, play } = await fileReply(TWO_PARTS, voice);
  // Written once each part is whole, which may be just after the reply.
  await vi.waitFor(() => expect(entriesOf(voice)).toHaveLength(2), { timeout: 10_000 });
  await longReplyPlaying(GUILD, BOB);
  const since = h.sandbox.requests.length;
  const replay = await press(messageId, play);
  await vi.waitFor(() => expect(queueLength(GUILD)).toBe(7), { timeout: 20_000 });
  return { replay, since };
}

describe('deletions stick; cache-only means free', () => {
  it('refuses a cache-only replay whose audio left the cache after it was accepted: nothing paid, nothing written back', async () => {
    const voice = 'voice-b-en-m-01';
    const { replay, since } = await replayQueued(voice);
    // Evicted meanwhile (as another process sharing the directory does).
    for (const entry of entriesOf(voice)) rmSync(path.join(h.cacheDir, voiceDirOf(voice), entry));
    await skipLongReply(GUILD, BOB);
    const final = await replay.waitForFinal(60_000);
    expect(paidSince(since, voice)).toEqual({ requests: 0, characters: 0 });
    expect(final.content).toBe(t('en-US', 'buttons.notCached'));
    expect(entriesOf(voice)).toEqual([]);
  });

  it("refuses a purged voice's cache-only replay with no request, and writes nothing back into its folder", async () => {
    const voice = await madeClone(h, GUILD, ALICE, 'Echo');
    const { replay, since } = await replayQueued(voice);
    const deleted = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: 'voices',
      subcommand: 'delete',
      options: { voice },
    });
    expect(deleted.content).toBe(t('en-US', 'voices.deleted', { name: 'Echo', id: `\`${voice}\`` }));
    await skipLongReply(GUILD, BOB);
    const final = await replay.waitForFinal(60_000);
    // Before: 2 paid requests, 52 characters, and both parts written back into the purged voice's folder.
    expect(paidSince(since, voice)).toEqual({ requests: 0, characters: 0 });
    expect(final.content).toBe(t('en-US', 'error.input.voiceDeleted', { voice }));
    expect(entriesOf(voice)).toEqual([]);
  });

  it('deleting a cloned voice refuses its queued parts with no further request, caches nothing and removes the sounds saved from it', async () => {
    const voice = await madeClone(h, GUILD, ALICE, 'Fade');
    const keep = await fileReply('Keep me.', 'voice-b-en-f-01');
    const mine = await fileReply('Fade out.', voice);
    for (const { messageId, sound } of [keep, mine])
      expect((await (await press(messageId, sound)).waitForFinal(60_000)).content).toMatch(/^Saved as /);
    const sounds = () => h.discord.soundboardSounds(GUILD).map((s) => s.object['name']);
    expect(sounds()).toEqual(expect.arrayContaining(['Keep me.', 'Fade out.']));
    await longReplyPlaying(GUILD, BOB);
    const since = h.sandbox.requests.length;
    const said = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: { text: 'Quiet now. Never heard.', voice },
    });
    expect(said.content).toMatch(/^Queued/);
    await vi.waitFor(() => expect(queueLength(GUILD)).toBe(6), { timeout: 20_000 });
    const deleted = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: 'voices',
      subcommand: 'delete',
      options: { voice },
    });
    expect(deleted.content).toBe(t('en-US', 'voices.deleted', { name: 'Fade', id: `\`${voice}\`` }));
    // The sound saved from it is gone from the soundboard; the one saved from a preset voice stays.
    expect(sounds()).toContain('Keep me.');
    expect(sounds()).not.toContain('Fade out.');
    await skipLongReply(GUILD, BOB);
    const refused = await said.handle.waitFor(
      (r) => r.content === t('en-US', 'error.input.voiceDeleted', { voice }),
      20_000,
    );
    expect(refused.flags).toBe(64);
    expect(paidSince(since, voice)).toEqual({ requests: 0, characters: 0 });
    expect(entriesOf(voice)).toEqual([]);
  });

  it('/privacy delete keeps a hold in flight counted for the day, and records its late spend without the member', async () => {
    await longReplyPlaying(PRIVATE_GUILD, DAN);
    const budget = await runCommand(h, {
      guildId: PRIVATE_GUILD,
      userId: DAN,
      name: 'budget',
      options: { member_daily_chars: 100 },
    });
    expect(budget.handle.problems).toEqual([]);
    const since = h.sandbox.requests.length;
    // 57 characters held (two parts), queued behind the long reply: nothing fetched or recorded yet.
    const say = (text: string) =>
      runCommand(h, { guildId: PRIVATE_GUILD, userId: CAROL, name: 'say', options: { text } });
    const held = await say('Carol says thirty characters. Carol says thirty more here.');
    expect(held.content).toMatch(/^Queued/);
    const forgotten = await runCommand(h, {
      guildId: PRIVATE_GUILD,
      userId: CAROL,
      name: 'privacy',
      subcommand: 'delete',
    });
    expect(forgotten.content).toMatch(/^Deleted what SayBot kept about you in this server/);
    // The day is not reset: 57 held + 56 asked is over 100.
    const refusedWhileHeld = await say('Carol asks again for sixty. Carol asks again, sixty more.');
    expect(refusedWhileHeld.content).toMatch(
      /^Your daily budget in this server is 100 characters: you used 57 today and this needs 56\./,
    );

    await skipLongReply(PRIVATE_GUILD, DAN);
    await held.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke '), 60_000);
    // Carol's two parts (the long reply's own later parts may be asked for meanwhile: they are DAN's).
    const paid = h.sandbox.requests
      .slice(since)
      .filter((r) => r.endpoint === 'tts' && (r.text ?? '').startsWith('Carol says'))
      .map((r) => r.id);
    expect(paid).toHaveLength(2);
    // Recorded once each, under the day's pseudonym, never under the forgotten ID; and still counted for the day.
    await vi.waitFor(
      () => {
        const scan = scanSqlite(h.databasePath);
        const spends = scan.rows.filter((r) => r.table === 'spends' && paid.includes(r.cells['request_id'] ?? ''));
        expect(spends).toHaveLength(2);
        for (const spend of spends) expect(spend.cells['user_id']).toMatch(/^forgotten:/);
        expect(rowsHolding(scan, CAROL).filter((r) => Object.values(r.cells).includes(PRIVATE_GUILD))).toEqual([]);
      },
      { timeout: 10_000 },
    );
    const refusedAfter = await say('Carol asks again for sixty. Carol asks again, sixty more.');
    expect(refusedAfter.content).toMatch(
      /^Your daily budget in this server is 100 characters: you used 57 today and this needs 56\./,
    );
  });
});
