// What eSpeak NG is given for a run: long words and clauses broken where eSpeak NG would drop their end unsaid
// (long-runs.test.ts hears it), never inside a character or before one joined to the one before it.
import { describe, expect, it } from 'vitest';
import { CLAUSE_WEIGHT, WORD_BYTES, espeakText } from '../../../src/core/free-voice/espeak-text.ts';

const words = (text: string) => text.split(/[\s,]+/u).filter((word) => word !== '');
const bytes = (text: string) => Buffer.byteLength(text);

describe("eSpeak NG's input", () => {
  it('is the text itself when its words and clauses are short, in any voice', () => {
    for (const [text, voice] of [
      ['Hello there, this is server B.', 'en-us+f3'],
      ['キョーワイイテンキデスネ', 'ja+f2'],
      ['서버에 오신 것을 환영합니다', 'ko+f2'],
      ['今天天气很好，我们去公园吧。', 'cmn+f2'],
      ['a'.repeat(WORD_BYTES), 'en-us+f3'],
    ]) {
      expect(espeakText(text!, voice!)).toBe(text);
    }
  });

  it('breaks a long unspaced run into words of even length, no more than WORD_BYTES, every character kept', () => {
    const kana = 'あいうえおかきくけこさしすせそたちつてと'.repeat(5);
    const given = espeakText(kana, 'ja+f2');
    expect(given.replace(/[\s,]/gu, '')).toBe(kana);
    const lengths = words(given).map(bytes);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(WORD_BYTES);
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(3);
    const letters = 'abcdefghijklmnopqrstuvwxyz'.repeat(12);
    expect(words(espeakText(letters, 'en-us+f3')).map(bytes)).toEqual([78, 78, 78, 78]);
  });

  it('never breaks inside a surrogate pair, before a dakuten, small kana, ー or a combining mark, nor in an emoji', () => {
    const joined = ['キャ', 'シュ', 'カッテ', 'カー', 'か\u3099', 'e\u0301', '👍🏽', '👩\u200d💻', '🇯🇵', '𠮟'];
    for (const piece of joined) {
      const given = espeakText(piece.repeat(Math.ceil(400 / piece.length)), 'ja+f2');
      for (const word of words(given)) expect(word.startsWith(piece)).toBe(true);
      expect(given).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/u);
    }
  });

  it('breaks a clause heavier than CLAUSE_WEIGHT with a comma, at a space when one is late enough', () => {
    const hangul = '가나다라마바사아자차'.repeat(20);
    const clauses = espeakText(hangul, 'ko+f2').split(', ');
    expect(clauses.length).toBeGreaterThan(1);
    for (const clause of clauses) expect([...clause.replace(/\s/gu, '')].length * 2).toBeLessThanOrEqual(CLAUSE_WEIGHT);
    // Spaced words: the comma comes after a word, never inside one.
    const spaced = Array.from({ length: 20 }, () => '가나다라마바사아자차').join(' ');
    expect(espeakText(spaced, 'ko+f2')).toMatch(/^(?:(?:가나다라마바사아자차)(?:, | |$))+$/u);
    // Punctuation already ends clauses: a long line in short sentences is given as it is.
    const sentences = Array.from({ length: 20 }, () => '我们今天去公园。').join('');
    expect(espeakText(sentences, 'cmn+f2')).toBe(sentences);
    // 200 hanzi are one clause in Chinese: 60 to a clause.
    expect(espeakText('我们今天去公园看花吃饭'.repeat(20), 'cmn+f2').split(', ').length).toBe(4);
  });
});
