// A part paid late: a line accepted as cached (it cost nothing then) whose cache entry the cache's size bound
// evicted while it waited behind another order, so at its turn it is requested and billed. A /skip or /stop while it
// plays says what was asked of the service counts as spent, as the same stop of a part paid at acceptance does.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { voiceDirOf } from '../../src/core/cache/audio-cache.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { ALICE, BOB } from '../support/world.ts';

const [, london] = defaultGuilds() as [unknown, ReturnType<typeof defaultGuilds>[0]];
const GUILD = london.id;
/** The voice the late lines are said in; the line ahead and the cache's fillers each in another. */
const LATE_VOICE = 'voice-b-en-f-01';
const AHEAD_VOICE = 'voice-b-en-m-01';
const FILLER_VOICE = 'voice-b-ko-f-01';

const harnessFor = useHarnessPerTest();

const sayInVoice = (h: Harness, text: string, voice: string) =>
  h.discord.command({
    guildId: GUILD,
    userId: ALICE,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: voice },
    ],
  });

/** The cache entries of `voice` on disk. */
const entries = (h: Harness, voice: string) => {
  const folder = path.join(h.cacheDir, voiceDirOf(voice));
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.sbc')) : [];
};

describe('a part paid late, after its cache entry was evicted while it waited', () => {
  it('/skip and /stop while it plays say that what was asked of the service counts as spent', async () => {
    // A 1 MB cache: about 20 s of the sandbox's 24 kHz WAV.
    const h = await harnessFor({ env: { CACHE_MAX_MB: '1' }, config: { voiceIdleTimeoutMs: 60_000 } });
    const skipped = 'Said once, then played again from the cache; it was evicted meanwhile, so it was paid late.';
    const stopped = 'Another line said once, then queued as cached; evicted too, and paid late at its turn.';
    for (const text of [skipped, stopped])
      await (await sayInVoice(h, text, LATE_VOICE)).waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    await until(() => entries(h, LATE_VOICE).length === 2);

    // A line ahead, held at the service after its charge, and both lines queued behind it as cached (free).
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const ahead = await sayInVoice(h, 'The line ahead.', AHEAD_VOICE);
    await until(() => h.sandbox.requests.some((r) => r.outcome === 'held'));
    const late = [await sayInVoice(h, skipped, LATE_VOICE), await sayInVoice(h, stopped, LATE_VOICE)];
    for (const handle of late) await handle.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
    const billed = h.sandbox.charactersBilled();

    // Other speech fills the cache meanwhile, and its size bound evicts both lines.
    for (const round of [1, 2, 3]) {
      const text = `Round ${round} of other speech, filling the cache. `.repeat(4);
      const options = { text, voice: FILLER_VOICE, output: 'file' };
      // Bob's client is Japanese: his answer names the file he was given.
      expect((await runCommand(h, { guildId: GUILD, userId: BOB, name: 'say', options })).content).toContain('wav');
    }
    await until(() => entries(h, LATE_VOICE).length === 0);

    h.sandbox.resumePaused();
    await ahead.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    for (const [index, command] of (['skip', 'stop'] as const).entries()) {
      const handle = late[index]!;
      // Its request goes to the service at its turn, and it plays.
      await until(() => h.sandbox.requests.some((r) => r.text === [skipped, stopped][index] && r.status === 200));
      h.discord.clearAudio(GUILD);
      await h.discord.waitForPacket(GUILD, (packet) => !packet.silence, 60_000);
      await runCommand(h, { guildId: GUILD, userId: ALICE, name: command });
      const answer = await handle.waitFor((r) => /^(Skipped|Stopped)/.test(r.content ?? ''), 60_000);
      expect(answer.content).toMatch(command === 'skip' ? /^Skipped after/ : /^Stopped/);
      expect(answer.content).toContain(t('en-US', 'say.stoppedSpent'));
    }
    // Both were billed at their turn: paid late, as the words now say.
    expect(h.sandbox.charactersBilled()).toBeGreaterThan(billed);
  });
});
