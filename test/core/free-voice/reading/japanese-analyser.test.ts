// The Japanese analyser (kuromoji, optional): chunks of bounded length, so its work per line is linear, and a line
// of 4,000 kanji read to kana whole. Skipped with one line without the optional kuromoji.
import { describe, expect, it } from 'vitest';
import {
  MAX_CHUNK,
  analyserOf,
  chunkEnd,
  loadJapaneseAnalyser,
} from '../../../../src/core/free-voice/reading/japanese-analyser.ts';

const installed = (() => {
  try {
    import.meta.resolve('kuromoji');
    return true;
  } catch {
    return false;
  }
})();
if (!installed) console.info('Japanese analyser: its kuromoji tests skipped, the optional kuromoji is not installed');

/** The chunks chunkEnd cuts `text` into, one after another. */
function chunks(text: string): string[] {
  const cut: string[] = [];
  for (let start = 0; start < text.length; start = chunkEnd(text, start))
    cut.push(text.slice(start, chunkEnd(text, start)));
  return cut;
}

const KANJI_4000 = '音声合成天気予報日本語漢字'.repeat(Math.ceil(4000 / 13)).slice(0, 4000);

describe('the Japanese analyser', () => {
  it(`analyses a line in chunks of at most ${MAX_CHUNK} characters, cut after punctuation where there is one`, () => {
    const cut = chunks(KANJI_4000);
    expect(cut.join('')).toBe(KANJI_4000);
    expect(Math.max(...cut.map((chunk) => chunk.length))).toBeLessThanOrEqual(MAX_CHUNK);
    const sentences = '今日は良い天気ですね。'.repeat(20);
    expect(chunks(sentences).every((chunk) => chunk.endsWith('。'))).toBe(true);
    const astral = '𠮷'.repeat(100);
    expect(chunks(astral).every((chunk) => [...chunk].every((char) => char === '𠮷'))).toBe(true);
  });

  it('gives the tokenizer chunks of at most that, each character at most twice, a cut word again with what follows', () => {
    const seen: string[] = [];
    // A stand-in that makes a morpheme of every two characters, read as their count.
    const analyser = analyserOf({
      tokenize: (text) => {
        seen.push(text);
        return (text.match(/.{1,2}/gsu) ?? []).map((pair) => ({
          surface_form: pair,
          pos: '名詞',
          pronunciation: 'ニ',
        }));
      },
    });
    expect(analyser.toKana(KANJI_4000)).toBe('ニ'.repeat(2000));
    expect(Math.max(...seen.map((chunk) => chunk.length))).toBeLessThanOrEqual(MAX_CHUNK);
    expect(seen.reduce((sum, chunk) => sum + chunk.length, 0)).toBeLessThanOrEqual(2 * 4000);
    expect(seen[1]!.startsWith(seen[0]!.slice(-2))).toBe(true);
  });

  it.skipIf(!installed)('reads a line of 4,000 kanji to kana, none left', () => {
    const analyser = loadJapaneseAnalyser()!;
    const kana = analyser.toKana(KANJI_4000);
    expect(kana).not.toMatch(/\p{Script=Han}/u);
    expect(kana.length).toBeGreaterThan(4000);
    expect(analyser.toKana('今日は良い天気ですね')).toBe('キョーワヨイテンキデスネ');
    expect(analyser.toKana('頑張りましょう')).toBe('ガンバリマショー');
  });
});
