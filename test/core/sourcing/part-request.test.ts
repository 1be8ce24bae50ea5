// What each part of a request becomes: its text cut into parts of the service's characters at sentences, then words
// (splitText), and a free voice's each within one of its lines (partTexts).
import { describe, expect, it } from 'vitest';
import {
  countCharacters,
  estimateCeiling,
  freeLine,
  estimateFreeLineSeconds,
  MAX_ENGINE_LINE_CHARACTERS,
  MAX_FREE_LINE_SECONDS,
} from '../../../src/core/characters.ts';
import { partTexts, splitText } from '../../../src/core/sourcing/part-request.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';

const squash = (s: string) => s.replace(/\s+/g, '');

describe('partTexts', () => {
  const japanese = '今日はいい天気ですね。'.repeat(80);
  const tts = (text: string, voice: string) => ({ kind: 'tts', text, voice }) as SpeechRequest;
  it("splits a paid voice's text at the service's characters and a free voice's within its line; a ready clip is one part", () => {
    expect(partTexts(tts(japanese, 'voice-b-ja-f-01'), 1000)).toEqual([japanese]);
    const free = partTexts(tts(japanese, 'free-ja-f'), 1000);
    expect(free.length).toBeGreaterThan(1);
    expect(free.every((part) => freeLine('free-ja-f').fits(part))).toBe(true);
    expect(free.join('')).toBe(japanese);
    expect(partTexts({ kind: 'ready', text: 'clip.wav', voice: 'voice-b-en-f-01' } as never, 5)).toEqual(['clip.wav']);
  });

  it("cuts an engine voice's text within the characters its engine takes, though the server's parts may be longer", () => {
    // 1,349 characters, some 90 s: within a free line's seconds, past what an engine is sent (it would refuse the line).
    const text = 'A sentence an engine says. '.repeat(50).trim();
    const parts = partTexts(tts(text, 'voicevox:0'), 2000);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => countCharacters(part) <= MAX_ENGINE_LINE_CHARACTERS)).toBe(true);
    expect(parts.every((part) => freeLine('voicevox:0').fits(part))).toBe(true);
    expect(squash(parts.join(''))).toBe(squash(text));
    expect(freeLine('voicevox:0').fits(text)).toBe(false);
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

  it('keeps a sentence end with its word: no part of punctuation alone, each a request paid for nothing', () => {
    // 20 words, 200 characters, then the full stop: one past the cap.
    const sentence = ('abcdefghi '.repeat(20).trim() + 'j').padEnd(200, 'k') + '.';
    expect(countCharacters(sentence)).toBe(201);
    const parts = splitText(sentence, 200);
    expect(parts.every((p) => /[\p{L}\p{N}]/u.test(p))).toBe(true);
    expect(parts.at(-1)).toBe('abcdefghij.');
    expect(squash(parts.join(''))).toBe(squash(sentence));
    // One word filling the cap, then its punctuation: its last letter goes with it, never the punctuation alone.
    for (const end of ['.', '?!'])
      expect(splitText('q'.repeat(60) + end, 60).every((p) => /\p{L}/u.test(p))).toBe(true);
    const korean = splitText('가나다라 '.repeat(40).trim() + '요.', 199);
    expect(korean.every((p) => /[\p{L}\p{N}]/u.test(p))).toBe(true);
  });

  // Every part holds a letter or a digit (a part of punctuation or emoji alone is a request and a clip paid for nothing),
  // and the text stays whole and in order: the edges an outside check found, then many generated texts and part sizes.
  const speakable = (part: string) => /[\p{L}\p{N}]/u.test(part);
  it.each([
    [
      'French, a spaced " !" after the word that fills the part',
      'Je suis vraiment très content de te voir aujourdhui !',
      52,
    ],
    ['French « » around a word that fills the part', `« ${'b'.repeat(59)} »`, 60],
    ['an apostrophe before the final "."', `${'q'.repeat(57)}'s.`, 59],
    ['a digit before "!?"', `${'Q'.repeat(58)}2!?`, 60],
    ['a long number, then "."', `${'1'.repeat(60)}.`, 60],
    ['Japanese closing quote and full stop', `${'こんにちは'.repeat(12)}」。`, 60],
    ['Korean, a spaced "?"', `${'가나다라마바사'.repeat(8)}요 ?`, 57],
    ['Chinese, full-width "！" run', `${'今天天气很好'.repeat(10)}！！`, 60],
    ['emoji around a word that fills the part', `😀 ${'a'.repeat(59)} 😀😀`, 60],
  ])('no part without a letter or a digit: %s', (_name, text, max) => {
    const parts = splitText(text, max);
    expect(parts.every(speakable), JSON.stringify(parts)).toBe(true);
    for (const p of parts) expect(countCharacters(p)).toBeLessThanOrEqual(max);
    expect(squash(parts.join(''))).toBe(squash(text.normalize('NFC')));
  });

  it('no part without a letter or a digit, over many generated texts and part sizes, the text whole and in order', () => {
    let seed = 94;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]) => items[random(items.length)]!;
    const cores = ['a', 'é', 'Z', '7', '가', 'あ', '漢', 'я', 'ß'];
    const leads = ['', '', '«', '¿', '「', '(', '"'];
    const trails = ['', '', '.', '!?', "'s.", '。', '」。', '...', '»', '!!!', '😀', '、'];
    const gaps = [' ', ' ', '', ' ! ', ' ? ', ' : ', ' « ', ' » ', '. ', ' 👍 ', '\n', ' — '];
    for (let round = 0; round < 400; round++) {
      const words = Array.from({ length: 1 + random(30) }, () => {
        const core = Array.from({ length: 1 + random(40) }, () => pick(cores)).join('');
        return `${pick(leads)}${core}${pick(trails)}`;
      });
      const text = words.map((word) => `${word}${pick(gaps)}`).join('');
      const max = 12 + random(60);
      // Every fourth in a free voice, whose parts are also held to a line's seconds.
      const parts = round % 4 === 0 ? splitText(text, max, freeLine('free-ja-f')) : splitText(text, max);
      const seen = JSON.stringify({ text, max, parts });
      expect(parts.every(speakable), seen).toBe(true);
      for (const p of parts) expect(countCharacters(p), seen).toBeLessThanOrEqual(max);
      expect(squash(parts.join('')), seen).toBe(squash(text.normalize('NFC')));
    }
  });

  it('punctuation longer than a part goes with the letters beside it as far as it fits; the rest, saying nothing, is not sent', () => {
    const parts = splitText(`Hi${'!'.repeat(120)} there`, 50);
    expect(parts).toEqual([`Hi${'!'.repeat(48)}`, `${'!'.repeat(44)} there`]);
  });

  it('a text with no letter or digit at all is split as before: its parts are what the member asked for', () => {
    expect(splitText('?!', 100)).toEqual(['?!']);
    expect(splitText('👍 👍', 100)).toEqual(['👍 👍']);
  });

  it('never splits a surrogate pair or a combining sequence', () => {
    const text = '👋'.repeat(30);
    const parts = splitText(text, 7);
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(p.isWellFormed()).toBe(true);
  });
});

// A free voice's parts are each one of its lines, within its seconds (freeLine, at eSpeak NG's own rates): the
// service's 1,000 characters of Japanese or Chinese last some 140-290 s there, past the line's 120 s.
describe('splitText for a free voice (freeLine)', () => {
  const MAX_CHARS = 1000;
  const ceiling = estimateCeiling(MAX_FREE_LINE_SECONDS);
  const freeSplit = (text: string, voice: string) => splitText(text, MAX_CHARS, freeLine(voice));
  const sized = (n: number, unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

  it.each([
    ['Japanese', 'free-ja-f', sized(1600, '今日は良い天気ですね。明日は雨が降るでしょう。')],
    ['Japanese, ！ and ？', 'free-ja-f', sized(1600, '本当に良い天気ですね！明日も晴れるでしょうか？')],
    ['Chinese', 'free-zh-m', sized(1600, '今天天气很好。明天会下雨吗？')],
    ['Korean', 'free-ko-f', '오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 산책을 나갔습니다. '.repeat(26).trim()],
  ])('splits %s at its sentence ends, every part within the line', (_name, voice, text) => {
    // Today 1,000 characters a part, refused as one line of some 140-150 s.
    expect(freeLine(voice).fits(splitText(text, MAX_CHARS)[0]!)).toBe(false);
    const parts = freeSplit(text, voice);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(estimateFreeLineSeconds(part, voice)).toBeLessThanOrEqual(ceiling);
    for (const part of parts.slice(0, -1)) expect(/[。！？.]$/u.test(part)).toBe(true);
    expect(squash(parts.join(''))).toBe(squash(text));
  });

  it('cuts an unspaced kanji or kana run with no sentence end between words, every part within the line', () => {
    for (const unit of ['漢字語彙読書試験', 'あいうえおかきくけこ']) {
      const text = sized(4000, unit);
      const parts = freeSplit(text, 'free-ja-f');
      for (const part of parts) expect(freeLine('free-ja-f').fits(part)).toBe(true);
      expect(parts.join('')).toBe(text);
    }
  });

  it('cuts an unspaced run of letters past the line (Hangul, no spaces: one "word" to the segmenter) to fit it', () => {
    // The outside check: random Hangul without spaces, 600 characters and more, was refused as one line.
    const syllables = [...'가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허'];
    const text = Array.from({ length: 2000 }, (_, i) => syllables[(i * 7) % syllables.length]).join('');
    const parts = freeSplit(text, 'free-ko-f');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(freeLine('free-ko-f').fits(part)).toBe(true);
    expect(parts.join('')).toBe(text);
    // Ended by punctuation: still cut to fit, the punctuation with the last piece, never a part of its own.
    const ended = freeSplit(`${text}!?`, 'free-ko-f');
    for (const part of ended) expect(freeLine('free-ko-f').fits(part)).toBe(true);
    expect(ended.join('')).toBe(`${text}!?`);
    expect(ended.every((p) => /\p{L}/u.test(p))).toBe(true);
  });

  it('leaves English as the service splits it: 1,000 characters of English fit a line', () => {
    const text = sized(4000, 'Hello there, this is a sentence of English. ').trim();
    expect(freeSplit(text, 'free-en-m')).toEqual(splitText(text, MAX_CHARS));
  });

  it('keeps a word past the line whole (its own part, refused with its own estimate), the rest split around it', () => {
    const number = '1234567890'.repeat(20);
    const parts = freeSplit(`오늘은 날씨가 좋네요. ${number} 내일 봐요.`, 'free-ko-f');
    expect(parts).toEqual(['오늘은 날씨가 좋네요.', number, '내일 봐요.']);
    expect(freeLine('free-ko-f').fits(number)).toBe(false);
  });
});
