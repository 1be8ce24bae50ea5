// The free voice's worker speaks a line as it is read (src/core/free-voice/reading/): Japanese kanji as their kana,
// a Latin word in a Japanese line in the English voice, the WAVs of the runs joined; the analyser loaded in the
// worker thread, never in the process's main thread; a line read far too long refused before eSpeak NG runs.
// Needs the optional espeak-ng and kuromoji packages; skipped with one line without.
import { espeakVoice } from '../../../src/core/voice-catalogue/voices.ts';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { JobUnavailableError } from '../../../src/core/audio/errors.ts';
import { JobThread } from '../../../src/core/audio/workers/job-thread.ts';
import type { EspeakJob, EspeakReply } from '../../../src/core/free-voice/espeak-protocol.ts';
import { parseWavHeader } from '../../../src/core/audio/codecs/wav.ts';
import { speakFree } from '../../../src/core/free-voice/free-voice-engine.ts';
import { MAX_FREE_LINE_SECONDS } from '../../../src/core/characters.ts';
import { readingPackagesInstalled } from '../../support/espeak-phonemes.ts';
import { runChild } from '../../support/run-child.ts';

const installed = readingPackagesInstalled();
if (!installed)
  console.info("free voice worker's reading: skipped, the optional espeak-ng or kuromoji is not installed");

/** The bytes of a WAV's samples. */
function samples(wav: Buffer): Buffer {
  const parsed = parseWavHeader(wav);
  if (!('header' in parsed)) throw new Error('not a WAV');
  return wav.subarray(parsed.header.dataOffset);
}

const ENGINE = fileURLToPath(new URL('../../../src/core/free-voice/free-voice-engine.ts', import.meta.url));
const ANALYSER = fileURLToPath(new URL('../../../src/core/free-voice/reading/japanese-analyser.ts', import.meta.url));
const ESPEAK_WORKER = new URL('../../../src/core/free-voice/espeak-worker.ts', import.meta.url);
const HIDE_KUROMOJI = fileURLToPath(new URL('../../support/without-kuromoji.ts', import.meta.url));

describe.skipIf(!installed)(
  "the free voice's worker reads a line before eSpeak NG speaks it",
  // A child process loads kuromoji's dictionary (94 MB) and eSpeak NG: 7 to 20 s here, past 50 s on a busy host.
  { timeout: 150_000 },
  () => {
    // Lengths in samples, not the samples: the female variants breathe, a noise eSpeak NG draws at random.
    it('speaks kanji as their kana reading, to the sample, and 音声合成 in the time of its kana', async () => {
      const kanji = await speakFree('今日はいい天気', 'free-ja-f', 'G1');
      expect(samples(kanji).length).toBe(samples(await speakFree('きょうはいいてんき', 'free-ja-f', 'G1')).length);
      // Named letter by letter it lasted 3.6 s; its kana 1.2 s.
      expect((await analyseClip(await speakFree('音声合成', 'free-ja-f', 'G1'))).durationSeconds).toBeLessThan(2);
    });

    it("speaks a Japanese line's runs one after another, Hello world in the English voice", async () => {
      const line = samples(await speakFree('今日はHello worldです', 'free-ja-m', 'G1'));
      const runs = [
        await speakFree('今日は', 'free-ja-m', 'G1'),
        await speakFree('Hello world', 'free-en-m', 'G1'),
        await speakFree('です', 'free-ja-m', 'G1'),
      ].map(samples);
      expect(line.length).toBe(Buffer.concat(runs).length);
    });

    it('speaks each line as a fresh eSpeak NG would, whatever the thread spoke before it, to the byte', async () => {
      // The thread keeps one eSpeak NG and puts its memory back before each run: a run that began from the state the
      // last one left (its options parser done, its voice set) spoke the last line again, or in the last voice.
      const lines: [string, string][] = [
        ['Hello there, this is server B.', 'free-en-m'],
        ['Bonjour tout le monde, ceci est un essai.', 'free-fr-m'],
        ['Guten Tag, 1234 und so weiter.', 'free-de-m'],
      ];
      const first = await Promise.all(lines.map(([text, voice]) => speakFree(text, voice, 'G3')));
      expect(new Set(first.map((wav) => wav.length)).size).toBe(lines.length);
      for (const index of [0, 0, 2, 1, 0, 1, 1, 2, 0]) {
        const [text, voice] = lines[index] ?? ['', ''];
        expect((await speakFree(text, voice, 'G3')).equals(first[index] ?? Buffer.alloc(0))).toBe(true);
      }
    });

    it('refuses a line of 4,000 kanji (read, some 10,000 kana) as too long before eSpeak NG runs, and goes on', async () => {
      const kanji = '音声合成天気予報日本語漢字'.repeat(308).slice(0, 4000);
      // A cap, in its figure: worded as the line being too long, not as eSpeak NG failing.
      await expect(speakFree(kanji, 'free-ja-f', 'G2')).rejects.toMatchObject({
        name: 'AudioTooLongError',
        capped: 'free-line',
        maxSeconds: MAX_FREE_LINE_SECONDS,
      });
      expect(samples(await speakFree('天気', 'free-ja-f', 'G2')).length).toBeGreaterThan(0);
    });

    it("sets its thread up on its first line and its first Japanese line, outside the lines' own limits", async () => {
      // eSpeak NG's setup and the analyser's loading are the thread's, once (some 100 ms and 350 ms of a core, far more
      // at a nice thread's priority on a busy host): said as setup, the line's own limit stops meanwhile.
      const events: string[] = [];
      const thread = new JobThread<Omit<EspeakJob, 'id'>, EspeakReply>({
        worker: ESPEAK_WORKER,
        maxWaiting: 8,
        timeoutMs: 15_000,
        idleMs: 10,
        unavailable: (reason, message) => new JobUnavailableError(reason, message),
        onEvent: (event) => events.push(event),
      });
      const lines: [string, string][] = [
        ['Hello there.', 'free-en-m'],
        ['Good day.', 'free-en-m'],
        ['今日はいい天気', 'free-ja-f'],
        ['音声合成', 'free-ja-f'],
      ];
      for (const [text, voiceId] of lines) {
        const voice = espeakVoice(voiceId)?.espeak ?? '';
        expect(await thread.run({ text, voice, maxSeconds: 60 })).toMatchObject({ ok: true });
        events.push('|');
      }
      expect(events.join(' ')).toBe('start setup set-up end | start end | start setup set-up end | start end |');
    });

    it("loads the analyser in the worker thread only: the main thread's modules never include kuromoji", async () => {
      const script = `
      const { createRequire } = await import('node:module');
      const engine = await import(${JSON.stringify(ENGINE)});
      const kanji = await engine.speakFree('今日はいい天気', 'free-ja-f');
      const kana = await engine.speakFree('きょうはいいてんき', 'free-ja-f');
      const modules = createRequire(${JSON.stringify(ENGINE)}).cache;
      const loaded = Object.keys(modules).filter((path) => path.includes('kuromoji'));
      console.log(JSON.stringify({ same: kanji.length === kana.length, loaded }));
      process.exit(0);
    `;
      // --eval detects the module syntax; --input-type would be handed to the worker threads, which refuse it.
      const run = await runChild(process.execPath, ['--eval', script], { killAfterMs: 140_000 });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ same: true, loaded: [] });
    });

    it('speaks Japanese without the optional kuromoji, its numbers read, its kanji as eSpeak NG says them', async () => {
      const script = `
      const engine = await import(${JSON.stringify(ENGINE)});
      const { loadJapaneseAnalyser } = await import(${JSON.stringify(ANALYSER)});
      const wav = await engine.speakFree('2026年11月25日は良い天気', 'free-ja-f');
      const analyser = loadJapaneseAnalyser() === undefined ? 'none' : 'loaded';
      console.log(JSON.stringify({ analyser, spoken: wav.length > 44 }));
      process.exit(0);
    `;
      const run = await runChild(process.execPath, ['--import', HIDE_KUROMOJI, '--eval', script], {
        killAfterMs: 140_000,
      });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ analyser: 'none', spoken: true });
    });
  },
);
