// What the free voice's listeners hear, on eSpeak NG's own phonemes (`--ipa`) of what the free voice gives it
// (test/support/espeak-phonemes.ts), beside what eSpeak NG makes of the line given whole, as before lines were read:
// no kanji said as "Chinese letter", the kana reading's phonemes, the date, Latin words in the English voice, and
// Korean and Chinese as they were. Needs the optional espeak-ng and kuromoji packages; skipped with one line without.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLine } from '../../../../src/core/free-voice/reading/read-line.ts';
import { loadJapaneseAnalyser } from '../../../../src/core/free-voice/reading/japanese-analyser.ts';
import {
  NAMED_LETTER,
  espeakPhonemes,
  heardPhonemes,
  heardRuns,
  readingPackagesInstalled,
  withoutLanguageMarks,
} from '../../../support/espeak-phonemes.ts';

const installed = readingPackagesInstalled();
if (!installed)
  console.info('free voice reading phonemes: skipped, the optional espeak-ng or kuromoji is not installed');

/** Edit distance between two phoneme strings, by code point. */
function distance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]!;
}

const unstressed = (phonemes: string): string => phonemes.replace(/[ˈˌ]/gu, '');

const WORDS = readFileSync(new URL('../../../../fixtures/text/common-kanji-words.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'));

// Each call of eSpeak NG starts a fresh instance of it (a few hundred ms on a busy machine).
describe.skipIf(!installed)(
  'the free voice reads Japanese as Japanese (eSpeak NG phonemes)',
  { timeout: 120_000 },
  () => {
    it("says no kanji as a letter in the issue's sentences, as eSpeak NG given them whole did", async () => {
      const sentences = [
        '音声合成',
        '今日は良い天気ですね',
        '2026年11月25日',
        'Hello worldとSayBotです',
        'ｗｗｗ',
        '草',
      ];
      for (const sentence of sentences) {
        expect(await espeakPhonemes(sentence, 'ja+f2'), sentence).toMatch(NAMED_LETTER);
        expect(await heardPhonemes(sentence, 'free-ja-f'), sentence).not.toMatch(NAMED_LETTER);
      }
    });

    it('reads 200 common kanji words with no kanji left and none said as a letter', async () => {
      expect(WORDS).toHaveLength(200);
      const analyser = loadJapaneseAnalyser();
      const readings = WORDS.map((word) => readLine(word, 'ja+f2', () => analyser));
      expect(readings.every((runs) => runs.length === 1 && runs[0]!.espeak === 'ja+f2')).toBe(true);
      const texts = readings.map((runs) => runs[0]!.text);
      expect(WORDS.filter((_, i) => /\p{Script=Han}/u.test(texts[i]!))).toEqual([]);
      // One call of eSpeak NG for all of them, a line each; the words given as written name their kanji.
      expect(await espeakPhonemes(texts.join('\n'), 'ja+f2')).not.toMatch(NAMED_LETTER);
      expect(await espeakPhonemes(WORDS.slice(0, 20).join('\n'), 'ja+f2')).toMatch(NAMED_LETTER);
    });

    it('reads 今日は良い天気ですね as its kana reading きょうはよいてんきですね', async () => {
      const kanji = await heardPhonemes('今日は良い天気ですね', 'free-ja-f');
      expect(kanji).toBe(await heardPhonemes('きょうはよいてんきですね', 'free-ja-f'));
      // Beside the kana given whole to eSpeak NG, stress marks aside: within 4 symbols, the particle は said わ and
      // きょう's long o (ɯᵝ to o̞).
      const kana = unstressed(await espeakPhonemes('きょうはよいてんきですね', 'ja+f2'));
      expect(distance(unstressed(kanji), kana)).toBeLessThanOrEqual(4);
      expect(distance(unstressed(await espeakPhonemes('今日は良い天気ですね', 'ja+f2')), kana)).toBeGreaterThan(20);
    });

    it('reads 2026年11月25日 as ni sen ni juu roku nen juu ichi gatsu ni juu go nichi', async () => {
      expect(await heardPhonemes('2026年11月25日', 'free-ja-f')).toBe(
        await espeakPhonemes('にせんにじゅうろくねんじゅういちがつにじゅうごにち', 'ja+f2'),
      );
    });

    it('speaks Hello world in a Japanese line in the English voice of the same gender, not spelled', async () => {
      const runs = await heardRuns('今日はHello worldです', 'free-ja-m');
      expect(runs.map((run) => [run.espeak, run.text])).toEqual([
        ['ja+m3', 'キョーワ'],
        ['en-us+m3', 'Hello world'],
        ['ja+m3', 'デス'],
      ]);
      expect(runs[1]!.phonemes).toBe(await espeakPhonemes('Hello world', 'en-us+m3'));
      // eSpeak NG's Japanese voice spells it: H E L L O.
      expect(await espeakPhonemes('Hello world', 'ja+m3')).toMatch(/ˈɛl ˈɛl/u);
      expect(runs[1]!.phonemes).not.toMatch(/ˈɛl ˈɛl/u);
    });

    it('keeps the phonemes of the Korean and Chinese sentences (3시 now said 세 시, as Korean says it)', async () => {
      expect(await heardPhonemes('今天天气很好', 'free-zh-f')).toBe(await espeakPhonemes('今天天气很好', 'cmn+f2'));
      const date = '2026년 11월 25일 오후 3시';
      expect(await heardPhonemes(date, 'free-ko-f')).toBe(await espeakPhonemes('2026년 11월 25일 오후 세 시', 'ko+f2'));
      expect(distance(await heardPhonemes(date, 'free-ko-f'), await espeakPhonemes(date, 'ko+f2'))).toBeLessThanOrEqual(
        4,
      );
      const welcome = 'Discord 서버에 오신 것을 환영합니다';
      const runs = await heardRuns(welcome, 'free-ko-f');
      expect(runs.map((run) => run.espeak)).toEqual(['en-us+f3', 'ko+f2']);
      const whole = await espeakPhonemes(welcome, 'ko+f2');
      expect(runs[1]!.phonemes).toBe(withoutLanguageMarks(whole.split('(ko)')[1]!).trim());
    });

    it('reads Korean and Chinese numbers, percentages and Latin words without a letter named or spelled', async () => {
      for (const [line, voice] of [
        ['我有2个苹果，价格是12.5元，50%的人喜欢YouTube', 'free-zh-f'],
        ['사람 3명, 50% 할인 & 무료, YouTube ㅋㅋㅋ', 'free-ko-f'],
        ['１２３ ＡＢＣ', 'free-ko-f'],
        ['50%オフ & 無料、10〜20人', 'free-ja-f'],
      ] as const) {
        const heard = await heardPhonemes(line, voice);
        expect(heard, line).not.toMatch(NAMED_LETTER);
        expect(heard, line).not.toMatch(/ˈampəsˌand|pəsˈɛnt/u);
      }
    });
  },
);
