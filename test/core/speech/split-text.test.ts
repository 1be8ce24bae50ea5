import { describe, expect, it } from 'vitest';
import { countCharacters, splitText } from '../../../src/core/speech/split-text.ts';

const squash = (s: string) => s.replace(/\s+/g, '');

describe('countCharacters', () => {
  it('counts code points after NFC, as the service does', () => {
    expect(countCharacters('e\u0301')).toBe(1);
    expect(countCharacters('안녕하세요')).toBe(5);
    expect(countCharacters('👋 hi')).toBe(4);
    expect(countCharacters('')).toBe(0);
  });
});

describe('splitText', () => {
  it('keeps short text whole', () => {
    expect(splitText('  Hello there.  ', 100)).toEqual(['Hello there.']);
    expect(splitText('   ', 100)).toEqual([]);
  });

  it('splits at sentence boundaries, in order, within the cap', () => {
    const text = 'The first sentence is here. The second one follows! Is this the third? And a fourth.';
    const parts = splitText(text, 40);
    expect(parts).toEqual([
      'The first sentence is here.',
      'The second one follows!',
      'Is this the third? And a fourth.',
    ]);
  });

  it('packs several short sentences into one part', () => {
    const parts = splitText('One. Two. Three. Four. Five. Six.', 12);
    expect(parts).toEqual(['One. Two.', 'Three. Four.', 'Five. Six.']);
  });

  it('splits Korean and Japanese at their sentence ends', () => {
    const ko = '안녕하세요. 오늘 날씨가 좋네요! 산책 갈까요?';
    expect(splitText(ko, 12)).toEqual(['안녕하세요.', '오늘 날씨가 좋네요!', '산책 갈까요?']);
    const ja = 'こんにちは。今日はいい天気ですね。散歩に行きましょう。';
    expect(splitText(ja, 14)).toEqual(['こんにちは。', '今日はいい天気ですね。', '散歩に行きましょう。']);
  });

  it('cuts an over-long sentence between words, and an over-long word between code points', () => {
    const long = 'word '.repeat(50).trim() + '.';
    const parts = splitText(long, 23);
    for (const p of parts) expect(countCharacters(p)).toBeLessThanOrEqual(23);
    expect(parts.every((p) => !p.startsWith(' ') && !p.endsWith(' '))).toBe(true);
    expect(squash(parts.join(''))).toBe(squash(long));

    const url = 'https://example.test/' + 'a'.repeat(60);
    const urlParts = splitText(url, 25);
    expect(urlParts.join('')).toBe(url);
    for (const p of urlParts) expect(countCharacters(p)).toBeLessThanOrEqual(25);
  });

  it('never splits a surrogate pair or a combining sequence', () => {
    const text = '👋'.repeat(30);
    const parts = splitText(text, 7);
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(p.isWellFormed()).toBe(true);
  });
});
