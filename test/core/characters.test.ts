// A free line's estimate at eSpeak NG's own rates (bench/free-voice-rate.ts measures them with the real engine):
// each script in the voice that reads it, so the 10% margin of the free line's cap holds in every language.
import { describe, expect, it } from 'vitest';
import {
  checkFreeLineSeconds,
  countCharacters,
  estimateFreeLineSeconds,
  estimateSpeechSeconds,
  freeLine,
} from '../../src/core/characters.ts';

describe('countCharacters', () => {
  it('counts code points after NFC, as the service does', () => {
    expect(countCharacters('e\u0301')).toBe(1);
    expect(countCharacters('안녕하세요')).toBe(5);
    expect(countCharacters('👋 hi')).toBe(4);
    expect(countCharacters('')).toBe(0);
  });
});

const KOREAN = '오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 산책을 나갔습니다.';
const ENGLISH = 'The weather was lovely today, so we went for a long walk in the park.';

describe('estimateFreeLineSeconds', () => {
  it('reads Korean slower and English faster than the paid voices do, as eSpeak NG does', () => {
    expect(estimateFreeLineSeconds(KOREAN, 'free-ko-f')).toBeGreaterThan(estimateSpeechSeconds(KOREAN));
    expect(estimateFreeLineSeconds(ENGLISH, 'free-en-f')).toBeLessThan(estimateSpeechSeconds(ENGLISH));
  });

  it("reads Han at Japanese's rate on a Japanese voice's line and at Chinese's, slower, elsewhere", () => {
    expect(estimateFreeLineSeconds('天気予報', 'free-zh-f')).toBeGreaterThan(
      estimateFreeLineSeconds('天気予報', 'free-ja-f'),
    );
  });

  it('is what the free line is checked on: a Korean line the paid estimate let through is refused', () => {
    const line = Array.from({ length: 22 }, () => KOREAN).join(' ');
    expect(estimateSpeechSeconds(line)).toBeLessThan(109);
    expect(freeLine('free-ko-f').fits(line)).toBe(false);
    expect(() => checkFreeLineSeconds(line, 'free-ko-f')).toThrow(/free-line estimated/);
    expect(freeLine('free-en-f').fits(Array.from({ length: 22 }, () => ENGLISH).join(' '))).toBe(true);
  });

  it("counts a Japanese or Chinese sentence end's pause: 200 short sentences said in some 123 s are past a line", () => {
    // The outside check: 'はい。' x 50 lasted 30.74 s in free-ja-m (0.61 s a sentence, 0.37 s at the kana rate), so
    // 200 of them (some 123 s) were one line, cut at its 120 s, where they are two lines.
    const line = 'はい。'.repeat(200);
    expect(estimateFreeLineSeconds('はい。'.repeat(50), 'free-ja-m')).toBeGreaterThanOrEqual(30.74);
    expect(freeLine('free-ja-m').fits(line)).toBe(false);
  });

  it('reads a run of digits as the number it makes: a line of numbers said in some 140 s is refused on its estimate', () => {
    // eSpeak NG says "9876543." in some 4.3 s ("nine million eight hundred ..."): 32 of them, some 140 s.
    const numbers = '9876543. '.repeat(32).trim();
    for (const voice of ['free-en-f', 'free-ko-f', 'free-ja-f']) {
      expect(estimateFreeLineSeconds(numbers, voice)).toBeGreaterThan(109);
      expect(freeLine(voice).fits(numbers)).toBe(false);
    }
    // A digit costs its number's words, not a letter's time, and a year fits as it should.
    expect(estimateFreeLineSeconds('2026', 'free-en-f')).toBeGreaterThan(estimateFreeLineSeconds('abcd', 'free-en-f'));
    expect(freeLine('free-en-f').fits('In 2026, 42 of us went.')).toBe(true);
  });
});
