// A part paid late: a line accepted as cached (it cost nothing then) whose cache entry the cache's size bound
// evicted while it waited behind another order, so at its turn it is requested and billed. A /skip or /stop while it
// plays says what was asked of the service counts as spent, as the same stop of a part paid at acceptance does: on
// /say, /emote and the Speak menu.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { voiceDirOf } from '../../src/core/cache/audio-cache.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, numberValue, runCommand, type Harness } from '../support/harness.ts';
import { ALICE, BOB } from '../support/world.ts';

const [, london] = defaultGuilds() as [unknown, ReturnType<typeof defaultGuilds>[0]];
const GUILD = london.id;
/** The voice the late lines are said in; the line ahead and the cache's fillers each in another. */
const LATE_VOICE = 'voice-b-en-f-01';
const AHEAD_VOICE = 'voice-b-en-m-01';
const FILLER_VOICE = 'voice-b-ko-f-01';

const harnessFor = useHarnessPerTest();

/** How each front-end asks ALICE's line in voice; the Speak menu reads a message of BOB's in her /myvoice. */
const FRONTS = {
  say: (h: Harness, text: string) =>
    h.discord.command({
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: LATE_VOICE },
      ],
    }),
  emote: (h: Harness, text: string) =>
    h.discord.command({
      guildId: GUILD,
      userId: ALICE,
      name: 'emote',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: LATE_VOICE },
        { name: 'exaggeration', ...numberValue(0.7) },
      ],
    }),
  speak: (h: Harness, text: string) =>
    h.discord.messageCommand({
      guildId: GUILD,
      userId: ALICE,
      name: 'Speak',
      message: { id: MESSAGE_IDS.get(text), author: { id: BOB, username: 'bob' }, content: text },
    }),
} as const;

/** One message id per text, so that the Speak menu is asked the same message twice. */
const MESSAGE_IDS = new Map<string, string>();

/** The cache entries on disk but the fillers'. */
const entries = (h: Harness) =>
  existsSync(h.cacheDir)
    ? readdirSync(h.cacheDir)
        .filter((folder) => folder !== voiceDirOf(FILLER_VOICE))
        .flatMap((folder) => readdirSync(path.join(h.cacheDir, folder)).filter((name) => name.endsWith('.sbc')))
    : [];

describe('a part paid late, after its cache entry was evicted while it waited', () => {
  it('/skip and /stop while it plays say that what was asked of the service counts as spent, on /say, /emote and Speak', async () => {
    // A 1 MB cache: about 20 s of the sandbox's 24 kHz WAV. Her requests under way are not bounded here.
    const h = await harnessFor({
      env: { CACHE_MAX_MB: '1', QUEUE_MAX_PER_MEMBER: '0' },
      config: { voiceIdleTimeoutMs: 60_000 },
    });
    await runCommand(h, {
      guildId: GUILD,
      userId: ALICE,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: LATE_VOICE },
    });
    const lines = [
      {
        front: FRONTS.say,
        text: 'Said once, then again from the cache; evicted meanwhile, so paid late.',
        end: 'skip',
      },
      { front: FRONTS.emote, text: 'Emoted once, then queued as cached; evicted too, and paid late.', end: 'skip' },
      { front: FRONTS.speak, text: 'A message spoken once, queued again as cached, and paid late.', end: 'stop' },
    ] as const;
    for (const [n, { text }] of lines.entries()) MESSAGE_IDS.set(text, `4000000000000000${n}1`);
    for (const { front, text } of lines)
      await (await front(h, text)).waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    await until(() => entries(h).length === lines.length);

    // A line ahead, held at the service after its charge, and the three queued behind it as cached (free).
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const ahead = await h.discord.command({
      guildId: GUILD,
      userId: ALICE,
      name: 'say',
      options: [
        { name: 'text', value: 'The line ahead.' },
        { name: 'voice', value: AHEAD_VOICE },
      ],
    });
    await until(() => h.sandbox.requests.some((r) => r.outcome === 'held'));
    const late = [];
    for (const { front, text } of lines) {
      const handle = await front(h, text);
      await handle.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
      late.push(handle);
    }
    const billed = h.sandbox.charactersBilled();

    // Other speech fills the cache meanwhile, and its size bound evicts all three.
    for (const round of [1, 2, 3]) {
      const text = `Round ${round} of other speech, filling the cache. `.repeat(4);
      const options = { text, voice: FILLER_VOICE, output: 'file' };
      // Bob's client is Japanese: his answer names the file he was given.
      expect((await runCommand(h, { guildId: GUILD, userId: BOB, name: 'say', options })).content).toContain('wav');
    }
    await until(() => entries(h).length === 0);

    h.sandbox.resumePaused();
    await ahead.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    for (const [index, { text, end }] of lines.entries()) {
      // Its request goes to the service at its turn, and it plays.
      await until(
        () => h.sandbox.requests.some((r) => r.text?.includes(text.slice(0, 20)) === true && r.status === 200),
        60_000,
      );
      h.discord.clearAudio(GUILD);
      await h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 60_000);
      await runCommand(h, { guildId: GUILD, userId: ALICE, name: end });
      const answer = await late[index]!.waitFor((r) => /^(Skipped|Stopped)/.test(r.content ?? ''), 60_000);
      expect(answer.content).toMatch(end === 'skip' ? /^Skipped after/ : /^Stopped/);
      expect(answer.content, lines[index]!.text).toContain(t('en-US', 'say.stoppedSpent'));
    }
    // All three were billed at their turn: paid late, as the words now say.
    expect(h.sandbox.charactersBilled()).toBeGreaterThan(billed);
  });
});
