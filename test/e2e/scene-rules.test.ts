// /scene's money rules: its caps as the service bills and the audio proves them (a scene over its characters,
// counted after NFC, or over its length, estimated at the preview at the rate SayBot assumes for each language with
// its margin, is refused at the preview before anything is requested; audio that proves longer than the estimate
// still reaches the member, cut at the cap and said so), and a confirmation that keeps its quote.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { voiceDirOf } from '../../src/core/cache/audio-cache.ts';
import { parseWavHeader } from '../../src/core/audio/codecs/wav.ts';
import { MAX_SCENE_SECONDS } from '../../src/core/audio/effects/scene-mix.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { estimateCeiling, estimateFreeLineSeconds, MAX_FREE_LINE_SECONDS } from '../../src/core/characters.ts';
import { parseSrtTimes } from '../support/srt-times.ts';
import { useFileHarness, useHarnessPerTest } from '../support/file-harness.ts';
import { defaultGuilds, runCommand, type Harness } from '../support/harness.ts';
import { previewOf, previewScene, pressSceneButton } from '../support/scene-preview.ts';
import { ALICE, BOB } from '../support/world.ts';

const [, london] = defaultGuilds() as [unknown, ReturnType<typeof defaultGuilds>[0]];
const GUILD = london.id;

const h = useFileHarness();
const harnessFor = useHarnessPerTest();

const CAST = 'cast: Min = voice-b-ko-m-01, Jun = voice-b-ko-m-02';
/** `n` Hangul syllables, none the same as its neighbour: a line of Korean as the estimate reads it (7 a second). */
const hangul = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => String.fromCodePoint(0xac00 + ((seed * 131 + i * 7) % 11_172))).join('');
const koreanLines = (count: number, length: number) =>
  Array.from({ length: count }, (_, i) => `${i % 2 === 0 ? 'Min' : 'Jun'}: ${hangul(length, i)}`);

const paid = (harness: Harness, before: number) =>
  harness.sandbox.requests.slice(before).filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts');

describe('/scene refused at the preview, before anything is requested', () => {
  it('30 lines of 3,900 characters as written, 11,700 as billed: refused at the 4,000-character cap, with the count', async () => {
    // U+FB2C is one code point as written and three after NFC, as the service counts it.
    const lines = Array.from({ length: 30 }, (_, i) => `${i % 2 === 0 ? 'Min' : 'Jun'}: ${'\ufb2c'.repeat(130)}`);
    const before = h.sandbox.requests.length;
    const shown = await previewScene(h, GUILD, [CAST, ...lines].join('\n'), 'file', { asFile: true });
    // Line 12 (the 11th turn) takes it past 4,000: 11 × 390 = 4,290.
    expect(shown.shown.content).toBe(
      'Line 12 takes the spoken characters to 4290, over the 4000 a scene may speak (counted as the voice service bills them, after Unicode normalisation).',
    );
    expect(shown.confirm).toBeUndefined();
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('40 Korean lines estimated at about 609 s: refused at the preview, the cap and the estimate in the words', async () => {
    const lines = koreanLines(40, 99);
    // 3,960 syllables at 7 a second, 39 gaps of 0.35 s and 30 s of pauses: 609.4 s.
    const script = [CAST, ...lines.slice(0, 34), ...Array.from({ length: 6 }, () => '[pause 5s]'), ...lines.slice(34)];
    const before = h.sandbox.requests.length;
    const shown = await previewScene(h, GUILD, script.join('\n'), 'file', { asFile: true });
    const ceiling = Math.floor(estimateCeiling(MAX_SCENE_SECONDS));
    expect(shown.shown.content).toBe(
      `This scene would last about 609 s; a scene may last at most ${MAX_SCENE_SECONDS} s. Its length is known only once it is paid for, so SayBot makes scenes estimated at up to ${ceiling} s (a 10% margin). Shorten it or split it in two; nothing was charged.`,
    );
    expect(shown.confirm).toBeUndefined();
    expect(h.sandbox.requests.length).toBe(before);
  });
});

describe('/scene in voice keeps the same 600 s cap', () => {
  it("a server whose voice queue has no limit: 40 Korean lines estimated at about 609 s refused at the preview, in the scene cap's words", async () => {
    const unlimited = await harnessFor({ env: { QUEUE_MAX_SECONDS: '0' } });
    const lines = koreanLines(40, 99);
    const script = [CAST, ...lines.slice(0, 34), ...Array.from({ length: 6 }, () => '[pause 5s]'), ...lines.slice(34)];
    const before = unlimited.sandbox.requests.length;
    const shown = await previewScene(unlimited, GUILD, script.join('\n'), 'voice', { asFile: true });
    expect(shown.confirm).toBeUndefined();
    const ceiling = Math.floor(estimateCeiling(MAX_SCENE_SECONDS));
    expect(shown.shown.content).toBe(
      `This scene would last about 609 s; a scene may last at most ${MAX_SCENE_SECONDS} s. Its length is known only once it is paid for, so SayBot makes scenes estimated at up to ${ceiling} s (a 10% margin). Shorten it or split it in two; nothing was charged.`,
    );
    expect(unlimited.sandbox.requests.length).toBe(before);
  });
});

describe('/scene in the free voice, refused at the preview', () => {
  it("a line estimated past the free voice's 120 s: no Play it, the line's estimate and the cap in the words", async () => {
    // A 200-digit number, one word and never cut to fit: estimated at 130 s at eSpeak NG's rate (a long line of
    // sentences is split into lines instead).
    const long = '1234567890'.repeat(20);
    const script = ['cast: Min = free-ko-f, Jun = free-ko-m', 'Jun: 안녕하세요.', `Min: ${long}`].join('\n');
    const before = h.sandbox.requests.length;
    const shown = await previewScene(h, GUILD, script, 'file', { asFile: true });
    expect(shown.confirm).toBeUndefined();
    expect(shown.shown.content).toBe(
      t('en-US', 'error.tooLong.freeLineEstimate', {
        seconds: Math.round(estimateFreeLineSeconds(long, 'free-ko-f')),
        max: MAX_FREE_LINE_SECONDS,
        ceiling: Math.floor(estimateCeiling(MAX_FREE_LINE_SECONDS)),
        margin: 10,
      }),
    );
    expect(h.sandbox.requests.length).toBe(before);
  });
});

describe('/scene audio that proves longer than its estimate', () => {
  it('is delivered cut at the cap and said so: nothing paid is thrown away, nothing after the cap is requested', async () => {
    // The service speaks Korean at 4 syllables a second, slower than the 7 SayBot assumes: 30 lines of 100 are
    // estimated at 439 s (under the margin) and come out 750 s long. 8 kHz keeps 600 s of WAV under 10 MB.
    const slow = await harnessFor({ sandbox: { sampleRate: 8000, secondsPerCharacter: 0.25 } });
    const shown = await previewScene(slow, GUILD, [CAST, ...koreanLines(30, 100)].join('\n'), 'file', {
      asFile: true,
    });
    expect(shown.shown.content).toContain('30 lines, 2 speakers, about 439 s');
    const billedBefore = slow.sandbox.charactersBilled();
    const before = slow.sandbox.requests.length;
    const pressed = await pressSceneButton(slow, GUILD, shown, shown.confirm);
    const posted = await pressed.waitFor((r) => r.kind === 'follow-up' && r.files.length === 2, 160_000);
    const done = await pressed.waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), 10_000);
    expect(done.content).toBe(
      `🎬 Posted the scene: 600.0 s.\nIt came out longer than estimated, so it was cut at ${MAX_SCENE_SECONDS} s, the longest a scene may last: 24 of 30 lines are in it, and the lines after the cut were not made nor charged.`,
    );
    // 23 whole lines (23 × 25 s and 22 gaps: 582.7 s) and the 24th cut at 600 s; the 6 after it never requested.
    const requested = paid(slow, before);
    expect(requested).toHaveLength(24);
    expect(slow.sandbox.charactersBilled() - billedBefore).toBe(2_400);
    const wav = posted.files.find((file) => file.name.endsWith('.wav'));
    const srt = posted.files.find((file) => file.name.endsWith('.srt'));
    if (!wav || !srt) throw new Error('a WAV and an .srt were expected');
    const parsed = parseWavHeader(new Uint8Array(wav.data));
    if (!('header' in parsed)) throw new Error('not a whole WAV');
    const { dataBytes, format } = parsed.header;
    // Cut at the cap, to the sample (the last part's room is counted in its own samples).
    expect((dataBytes ?? 0) / format.blockAlign / format.sampleRate).toBeCloseTo(MAX_SCENE_SECONDS, 3);
    const cues = parseSrtTimes(srt.data.toString('utf8'));
    expect(cues).toHaveLength(24);
    expect(cues.at(-1)?.end).toBeCloseTo(MAX_SCENE_SECONDS, 2);
    // The books hold what the service billed, no more, no less.
    const usage = await runCommand(slow, { guildId: GUILD, userId: ALICE, name: 'usage' });
    expect(usage.content).toMatch(/This server: 2,400 characters spent/);
  });
});

describe('/scene keeps the quote its member confirmed', () => {
  it('a free preview whose lines left the cache before the press: shown again at the new price, nothing paid unconfirmed', async () => {
    // A 1 MB cache: about 20 s of the sandbox's 24 kHz WAV.
    const h = await harnessFor({ env: { CACHE_MAX_MB: '1' } });
    const voices = ['voice-b-en-f-01', 'voice-b-en-m-01'];
    const script = [
      `cast: Ann = ${voices[0]}, Ben = ${voices[1]}`,
      'Ann: Made once, then evicted.',
      'Ben: So is this.',
    ];
    const first = await previewScene(h, GUILD, script.join('\n'), 'file');
    const firstPress = await pressSceneButton(h, GUILD, first, first.confirm);
    await firstPress.waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), 30_000);
    const free = await previewScene(h, GUILD, script.join('\n'), 'file');
    expect(free.shown.content).toContain('nothing to pay');
    // Meanwhile other speech fills the cache, and its size bound evicts the scene's older lines.
    for (const round of [1, 2, 3]) {
      const text = `Round ${round} of other speech, filling the cache. `.repeat(4);
      const said = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE,
        name: 'say',
        options: { text, voice: 'voice-b-ko-f-01', output: 'file' },
      });
      expect(said.content).toMatch(/^Here is/);
    }
    const entries = (voice: string) => {
      const folder = path.join(h.cacheDir, voiceDirOf(voice));
      return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.sbc')) : [];
    };
    await until(() => voices.every((voice) => entries(voice).length === 0));
    const billed = h.sandbox.charactersBilled();
    const before = h.sandbox.requests.length;
    const pressed = await pressSceneButton(h, GUILD, free, free.confirm);
    const again = await pressed.waitFor((r) => (r.content ?? '').includes('**Scene**'), 30_000);
    expect(again.content).toMatch(/^The price changed since the preview/);
    expect(again.content).toContain('**35** characters to pay; 0 of 2 lines already made (free).');
    expect(paid(h, before)).toHaveLength(0);
    expect(h.sandbox.charactersBilled()).toBe(billed);
    // Confirmed at the new price, it is made and paid once.
    const shownAgain = previewOf(again, free.messageId);
    const confirmed = await pressSceneButton(h, GUILD, shownAgain, shownAgain.confirm);
    await confirmed.waitFor((r) => (r.content ?? '').startsWith('🎬 Posted the scene'), 30_000);
    expect(h.sandbox.charactersBilled() - billed).toBe(35);
  });
});

describe("/scene save: one member's share of the server's scenes", () => {
  it('a member without Manage Server saves at most 6 of the 25; the 7th is refused in words, the server keeps room', async () => {
    const save = (userId: string, name: string) =>
      runCommand(h, {
        guildId: GUILD,
        userId,
        name: 'scene',
        subcommand: 'save',
        options: {
          name,
          script: { type: 11, value: h.discord.hostAttachment(Buffer.from('Ann: Hello.'), 's.txt', 'text/plain').id },
        },
      });
    for (let i = 1; i <= 6; i++) expect((await save(ALICE, `Alice ${i}`)).content).toMatch(/^Saved the scene/);
    const refused = await save(ALICE, 'Alice 7');
    expect(refused.content).toBe(
      "You have saved 6 of this server's 25 scenes, the most one member may keep so that the others have room. Delete one of yours with `/scene delete` first, or ask a manager.",
    );
    // Everyone else still has room (Bob reads Japanese).
    expect((await save(BOB, 'Bob 1')).content).toBe(
      'シーン **Bob 1** を保存しました (1 行)。`/scene play name:Bob 1` で再生できます。',
    );
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// bb14 "minor words": a one-line scene of a character is estimated under half a second; "about 0 s" said it lasts
// nothing. The preview says at least a second.
describe('/scene: a one-line scene of one character at the preview', () => {
  it('says "about 1 s", never "about 0 s"', async () => {
    const shown = await previewScene(h, GUILD, 'cast: Ann = voice-b-en-f-01\nAnn: A', 'file', { asFile: true });
    expect(shown.shown.content).toContain('1 line, 1 speaker, about 1 s,');
  });
});
