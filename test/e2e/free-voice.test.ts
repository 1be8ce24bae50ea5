// The free voice chosen, end to end: the real bot, the local Discord (DAVE) and the sandbox Voice API, which must
// hear nothing of it. A member's `/say voice:free-…` is spoken by SayBot's own eSpeak NG, heard in the voice channel
// as words (not the sandbox's tones), costs no character and makes no call; FREE_VOICE=off refuses it, privately.
import { readdirSync } from 'node:fs';
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { analyseClip } from '../../src/core/audio/analysis/clip.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { estimateCeiling, estimateFreeLineSeconds, MAX_FREE_LINE_SECONDS } from '../../src/core/characters.ts';
import { readingPackagesInstalled } from '../support/espeak-phonemes.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, monoOf, runCommand, type Harness } from '../support/harness.ts';
import { speechLikeness } from '../support/speech-likeness.ts';
import { ALICE } from '../support/world.ts';
import { CUT_FREE_LINE } from '../support/cut-free-line.ts';

const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];
const startHarness = useHarnessPerTest();

/** /say `text` in the free voice `voice` as a file, by Alice in London: its answer with the file. */
async function freeFile(h: Harness, text: string, voice: string) {
  const { handle } = await runCommand(h, {
    guildId: london.id,
    userId: ALICE,
    name: 'say',
    options: { text, voice, output: 'file' },
  });
  // A bound: a long line, or a thread's first, on a busy host takes a while.
  return handle.waitFor((r) => r.files.length > 0, 90_000);
}

describe('the free voice, chosen', () => {
  it('/say voice:free-en-f is heard as words in the voice channel, with no call to the Voice API and no character spent', async () => {
    const h = await startHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
    const requestsBefore = h.sandbox.requests.length;
    const billedBefore = h.sandbox.charactersBilled();
    h.discord.clearAudio(london.id);
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'Hello everyone, this is the free voice speaking.', voice: 'free-en-f' },
    });
    const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(done.content).toContain('free-en-f');
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 1 });
    const speech = speechLikeness(monoOf(heard), 48_000);
    expect(speech.loudnessSpread).toBeGreaterThan(0.5);
    expect(speech.crossingSpread).toBeGreaterThan(0.3);
    expect(h.sandbox.requests.length - requestsBefore).toBe(0);
    expect(h.sandbox.charactersBilled() - billedBefore).toBe(0);
    // /usage counts it: one line of the free voice this month, none in place of the paid voice.
    const usage = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain(
      'Lines spoken by the free voice this month: 1, at no charge (0 in place of the paid voice).',
    );
  });

  it.skipIf(!readingPackagesInstalled())(
    '/say voice:free-ja-f reads kanji as Japanese: a file as long as its kana reading, not each kanji named',
    async () => {
      const h = await startHarness();
      const length = async (text: string) =>
        (await analyseClip((await freeFile(h, text, 'free-ja-f')).files[0]!.data)).durationSeconds;
      // Named letter by letter ("Chinese letter" for each of 7 kanji) it lasted some 6 s; its kana some 2 s.
      expect(await length('音声合成の天気予報')).toBeLessThan(1.25 * (await length('おんせいごうせいのてんきよほう')));
    },
  );

  it('records no saving for a free line served again from the cache at another speed: it never had a price', async () => {
    const h = await startHarness();
    const say = () =>
      runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'Free, and faster, twice.', voice: 'free-en-f', speed: 1.5, output: 'file' },
      });
    expect((await say()).content).toMatch(/^Here is/);
    // The voice's line and its faster copy are written to the cache after the reply: the second is served from there.
    const entries = () => readdirSync(h.cacheDir, { recursive: true }).filter((f) => String(f).endsWith('.sbc'));
    for (const deadline = performance.now() + 60_000; entries().length < 2;) {
      if (performance.now() > deadline) throw new Error('the free line was not cached');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await say()).content).toMatch(/^Here is/);
    const usage = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain('This server: 0 characters spent, 0 saved by the cache');
  });

  it('/say voice:free-ko-f in voice of a line whose audio proves longer than 120 s: heard, cut at the cap, and said so', async () => {
    const h = await startHarness({ config: { voiceIdleTimeoutMs: 60_000 } });
    // Estimated at some 28 s, said in over 120 s by eSpeak NG (the rules table has the same line in files).
    const text = CUT_FREE_LINE;
    expect(estimateFreeLineSeconds(text, 'free-ko-f')).toBeLessThan(estimateCeiling(MAX_FREE_LINE_SECONDS));
    h.discord.clearAudio(london.id);
    // A line this long is rendered whole by the long-line thread before it plays: on a slow host that takes a while.
    const heard = h.discord.waitForPacket(london.id, (packet) => !packet.silence, 60_000);
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: 'free-ko-f' },
    });
    await heard;
    // Its whole 120 s is not waited for: stopped once heard, the answer still says the line was cut.
    await runCommand(h, { guildId: london.id, userId: ALICE, name: 'stop' });
    const stopped = await handle.waitFor((r) => (r.content ?? '').startsWith('Stopped'), 60_000);
    expect(stopped.content).toContain(t('en-US', 'freeLine.cutAtCap', { max: MAX_FREE_LINE_SECONDS }));
  }, 150_000);

  it('/say voice:free-ko-f as a voice message, and from the user install, of a line cut at 120 s: the note follows it', async () => {
    const h = await startHarness({ env: { USER_INSTALL: 'everyone' } });
    const text = CUT_FREE_LINE;
    const note = t('en-US', 'freeLine.cutAtCap', { max: MAX_FREE_LINE_SECONDS });
    // A voice message that is the response cannot be edited to say more: the note is the member's, after it.
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: 'free-ko-f', output: 'voice-message' },
    });
    const followed = await handle.waitFor((r) => (r.content ?? '').includes(note), 90_000);
    expect(followed.flags ?? 0).toBe(MessageFlags.Ephemeral);
    const installed = await h.discord.privateCommand({
      userId: ALICE,
      name: 'say',
      context: 2,
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: 'free-ko-f' },
        { name: 'output', value: 'voice-message' },
      ],
    });
    expect((await installed.waitFor((r) => (r.content ?? '').includes(note), 90_000)).content).toContain(note);
    // Two long lines at long work's priority: on a busy host each takes tens of seconds.
  }, 240_000);

  it('/say voice:free-ko-f of a Korean line longer than one free line (some 150 s): split at its sentence ends and made whole', async () => {
    const h = await startHarness();
    // About 990 characters of Korean, one part of the service's: estimated at some 150 s at eSpeak NG's rate, past the
    // 109 s one line may be estimated at; its sentences are lines of their own.
    const text = '오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 산책을 나갔습니다. '.repeat(26).trim();
    expect(estimateFreeLineSeconds(text, 'free-ko-f')).toBeGreaterThan(estimateCeiling(MAX_FREE_LINE_SECONDS));
    const requestsBefore = h.sandbox.requests.length;
    const posted = await freeFile(h, text, 'free-ko-f');
    expect(posted.content).toContain('`free-ko-f`');
    const info = await analyseClip(posted.files[0]!.data);
    expect(info.durationSeconds).toBeGreaterThan(estimateCeiling(MAX_FREE_LINE_SECONDS));
    expect(h.sandbox.requests.length - requestsBefore).toBe(0);
  });

  it("/say voice:free-ko-f of a word estimated past the free voice's 120 s: refused before it is made, in words naming the word's estimate and the cap", async () => {
    const h = await startHarness();
    // A 200-digit number is one word, never cut to fit (cutting it would change how it is read): its part is
    // estimated at 130 s, the sentence before it is not counted in it.
    const number = '1234567890'.repeat(20);
    const text = `오늘은 날씨가 좋네요. ${number}`;
    const estimate = estimateFreeLineSeconds(number, 'free-ko-f');
    expect(estimate).toBeGreaterThan(estimateCeiling(MAX_FREE_LINE_SECONDS));
    const requestsBefore = h.sandbox.requests.length;
    const { content } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text, voice: 'free-ko-f', output: 'file' },
    });
    expect(content).toBe(
      t('en-US', 'error.tooLong.freeLineEstimate', {
        seconds: Math.round(estimate),
        max: MAX_FREE_LINE_SECONDS,
        ceiling: Math.floor(estimateCeiling(MAX_FREE_LINE_SECONDS)),
        margin: 10,
      }),
    );
    expect(h.sandbox.requests.length - requestsBefore).toBe(0);
  });

  it('with FREE_VOICE=fallback (not chosen), /say voice:free-en-f is refused privately, in words, and nothing is played or paid', async () => {
    const h = await startHarness({ config: { freeVoice: { chosen: false, fallback: true } } });
    const requestsBefore = h.sandbox.requests.length;
    h.discord.clearAudio(london.id);
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'Not in the free voice today.', voice: 'free-en-f' },
    });
    const refused = await handle.waitFor((r) => (r.content ?? '').includes('free voice'), 15_000);
    expect(refused.content).toContain('`free-en-f` is not available');
    expect((refused.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(h.sandbox.requests.length - requestsBefore).toBe(0);
    expect(h.discord.botVoiceChannel(london.id)).toBeNull();
  });

  // bb7: /myvoice took a free voice the owner does not let members choose, then every /say with it was refused.
  for (const freeVoice of [
    { chosen: false, fallback: true },
    { chosen: false, fallback: false },
  ])
    it(`with FREE_VOICE chosen ${freeVoice.chosen}, fallback ${freeVoice.fallback}, /myvoice set voice:free-en-f is refused as /say refuses it, nothing saved`, async () => {
      const h = await startHarness({ config: { freeVoice } });
      for (const locale of ['en-US', 'ja']) {
        const set = await runCommand(h, {
          guildId: london.id,
          userId: ALICE,
          name: 'myvoice',
          subcommand: 'set',
          options: { voice: 'free-en-f' },
          locale,
        });
        const said = await runCommand(h, {
          guildId: london.id,
          userId: ALICE,
          name: 'say',
          options: { text: 'Not in the free voice today.', voice: 'free-en-f' },
          locale,
        });
        const words = t(locale, 'error.input.freeVoiceUnavailable', { voice: 'free-en-f' });
        expect(set.content).toBe(words);
        expect(said.content).toBe(words);
      }
      const shown = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'myvoice', subcommand: 'show' });
      expect(shown.content).not.toContain('free-en-f');
    });
});
