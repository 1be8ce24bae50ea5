// A line as the free voice reads it, without the packages: widths folded, chat forms, runs by script each in its
// language's free voice of the line's gender, numbers and symbols in Korean and Chinese, and which lines' cache keys
// change. The analyser is a stand-in here (test/core/free-voice/reading/phonemes.test.ts uses kuromoji).
// And what eSpeak NG is given for a run: long words and clauses broken where eSpeak NG would drop their end unsaid
// (long-runs.test.ts hears it), never inside a character or before one joined to the one before it.
import { describe, expect, it } from 'vitest';
import { compileDictionary } from '../../../../src/features/autoread/dictionary/dictionary.ts';
import { cacheKey, partCacheKey } from '../../../../src/core/sourcing/part-request.ts';
import { SENT_SETTINGS } from '../../../../src/core/settings/setting-declarations.ts';
import { readChatForms } from '../../../../src/core/free-voice/reading/chat-forms.ts';
import { foldWidths } from '../../../../src/core/free-voice/reading/fold.ts';
import { readLine, readingChanges } from '../../../../src/core/free-voice/reading/read-line.ts';
import {
  CLAUSE_WEIGHT,
  MAX_RUNS,
  WORD_BYTES,
  espeakText,
  scriptRuns,
} from '../../../../src/core/free-voice/reading/read-line.ts';
import type { JapaneseAnalyser } from '../../../../src/core/free-voice/reading/read-line.ts';

/** Marks what it was given, so a test sees what went to the analyser. */
const marking: JapaneseAnalyser = { toKana: (text) => `<${text}>` };
const noAnalyser = () => undefined;

describe("the free voice's reading of a line", () => {
  it('folds full-width Latin, digits and the ideographic space, widens half-width katakana, keeps Hangul letters', () => {
    expect(foldWidths('ｗｗｗ　１２３ＡＢＣ！')).toBe('www 123ABC!');
    expect(foldWidths('ｶﾞｷﾞｸﾞ')).toBe('ガギグ');
    expect(foldWidths('ㅋㅋ')).toBe('ㅋㅋ');
  });

  it('reads w runs after Japanese as laughter, and Korean ㅋㅋ ㅎㅎ, but not a w inside a Latin word', () => {
    expect(readChatForms('それなw', 'ja')).toBe('それなわら');
    expect(readChatForms('草www', 'ja')).toBe('草わらわら');
    expect(readChatForms('www', 'ja')).toBe('わらわら');
    expect(readChatForms('wow www', 'en')).toBe('wow www');
    expect(readChatForms('今日はwindow', 'ja')).toBe('今日はwindow');
    expect(readChatForms('ㅋㅋㅋㅋㅋ ㅎㅎ', 'ko')).toBe('크크크 흐흐');
  });

  it("leaves a server's dictionary the last word: auto-read applies it before the free voice reads the line", () => {
    const dictionary = compileDictionary([
      { word: 'w', reading: 'ワロタ' },
      { word: '草', reading: 'わら' },
    ]);
    const heard = (line: string) => readLine(dictionary(line), 'ja+f2', () => marking).map((run) => run.text);
    expect(heard('それなw')).toEqual(['<それなワロタ>']);
    expect(heard('それは草')).toEqual(['<それはわら>']);
    expect(readLine('それなw', 'ja+f2', () => marking).map((run) => run.text)).toEqual(['<それなわら>']);
  });

  it('splits a line by script: Latin words in a Japanese, Korean or Chinese line are English, numbers join their counter', () => {
    expect(scriptRuns('今日はHello worldです', 'ja')).toEqual([
      { language: 'ja', text: '今日は' },
      { language: 'en', text: 'Hello world' },
      { language: 'ja', text: 'です' },
    ]);
    expect(scriptRuns('iPhone 15を買った', 'ja')).toEqual([
      { language: 'en', text: 'iPhone' },
      { language: 'ja', text: ' 15を買った' },
    ]);
    expect(scriptRuns('Discord 서버에', 'ko').map((run) => run.language)).toEqual(['en', 'ko']);
    expect(scriptRuns('我喜欢YouTube', 'zh').map((run) => run.language)).toEqual(['zh', 'en']);
    expect(scriptRuns('Bonjour à tous', 'fr')).toEqual([{ language: 'fr', text: 'Bonjour à tous' }]);
    // Kanji in a line with kana are Japanese whatever the voice; without kana, Chinese in a Korean or English line.
    expect(scriptRuns('I love すし and 寿司', 'en').map((run) => run.language)).toEqual(['en', 'ja', 'en', 'ja']);
    expect(scriptRuns('I love 寿司', 'en').map((run) => run.language)).toEqual(['en', 'zh']);
  });

  it(`speaks a line in at most ${MAX_RUNS} runs, the rest in the line's own voice`, () => {
    const line = Array.from({ length: 20 }, () => 'word単語').join('');
    const runs = readLine(line, 'ja+f2', noAnalyser);
    expect(runs).toHaveLength(MAX_RUNS);
    expect(runs.map((run) => run.text).join('')).toBe(line);
    expect(runs.at(-1)!.espeak).toBe('ja+f2');
  });

  it("gives each run to the free voice of its language and of the line's gender", () => {
    expect(readLine('今日はHello worldです', 'ja+m3', () => marking)).toEqual([
      { text: '<今日は>', espeak: 'ja+m3' },
      { text: 'Hello world', espeak: 'en-us+m3' },
      { text: '<です>', espeak: 'ja+m3' },
    ]);
    expect(readLine('2026年11月25日', 'ja+f2', () => marking)).toEqual([
      { text: 'にせんにじゅうろくねんじゅういちがつにじゅうごにち', espeak: 'ja+f2' },
    ]);
    expect(readLine('音声合成', 'ja+f2', noAnalyser)).toEqual([{ text: '音声合成', espeak: 'ja+f2' }]);
    expect(readLine('Hello there', 'en-us+f3', () => marking)).toEqual([{ text: 'Hello there', espeak: 'en-us+f3' }]);
    expect(readLine('', 'ja+f2', () => marking)).toEqual([{ text: '', espeak: 'ja+f2' }]);
  });

  it('reads Korean numbers with native counters, dates, times, percentages and symbols', () => {
    const korean = (line: string) =>
      readLine(line, 'ko+f2', noAnalyser)
        .map((run) => run.text)
        .join('|');
    expect(korean('2026년 11월 25일 오후 3시')).toBe('2026년 11월 25일 오후 세 시');
    expect(korean('사람 3명, 사과 5개, 20살, 2시간')).toBe('사람 세 명, 사과 다섯 개, 스무 살, 두 시간');
    expect(korean('50% 할인 & 무료, 10~20명')).toBe('50퍼센트 할인 앤드 무료, 10에서 스무 명');
    expect(korean('2026/11/25 14:30')).toBe('2026년 11월 25일 열네 시 30분');
  });

  it('reads Chinese years digit by digit, decimals with their point, percentages, 两 and symbols', () => {
    const chinese = (line: string) =>
      readLine(line, 'cmn+f2', noAnalyser)
        .map((run) => run.text)
        .join('|');
    expect(chinese('2026年11月25日下午3点')).toBe('二零二六年11月25日下午3点');
    expect(chinese('我有2个苹果，价格是12.5元，50%')).toBe('我有两个苹果,价格是12点五元,百分之50');
    expect(chinese('1+1=2')).toBe('1加1等于2');
    expect(chinese('今天天气很好')).toBe('今天天气很好');
  });

  it("changes the cache key of a free line only where the words heard change; a paid voice's key never", () => {
    const key = (text: string, voice: string) => partCacheKey({ kind: 'tts', text, voice, format: 'wav' }, text);
    // The key as it was before lines were read: each setting sent in its place, nothing more.
    const former = (text: string, voice: string) =>
      cacheKey(
        'tts',
        text,
        SENT_SETTINGS.map(([name, declared]) =>
          declared.wire.tts === undefined ? null : (({ voice, format: 'wav' } as Record<string, string>)[name] ?? null),
        ),
      ) === key(text, voice);
    expect(former('Hello there', 'free-en-f')).toBe(true);
    expect(former('今天天气很好', 'free-zh-m')).toBe(true);
    expect(former('音声合成', 'free-ja-f')).toBe(false);
    expect(former('音声合成', 'voice-b-ja-f-01')).toBe(true);
    expect(readingChanges('Hello there', 'free-en-f')).toBe(false);
    expect(readingChanges('今天天气很好', 'free-zh-f')).toBe(false);
    expect(readingChanges('서버에 오신 것을 환영합니다', 'free-ko-f')).toBe(false);
    expect(readingChanges('Bonjour à tous', 'free-fr-f')).toBe(false);
    expect(readingChanges('音声合成', 'free-ja-f')).toBe(true);
    expect(readingChanges('Discord 서버', 'free-ko-f')).toBe(true);
    expect(readingChanges('오후 3시', 'free-ko-f')).toBe(true);
    expect(readingChanges('ｗｗｗ', 'free-en-f')).toBe(true);
    expect(readingChanges('音声合成', 'voice-b-ja-f-01')).toBe(false);
    // A run eSpeak NG is given in shorter words or clauses: it dropped the end of the same line before.
    expect(readingChanges('가나다라마바사아자차'.repeat(4), 'free-ko-f')).toBe(true);
    expect(readingChanges('我们今天去公园看花吃饭'.repeat(7), 'free-zh-f')).toBe(true);
    expect(readingChanges('abcdefghijklmnopqrstuvwxyz'.repeat(4), 'free-en-f')).toBe(true);
    expect(readingChanges('가나다라마바사아자차'.repeat(3), 'free-ko-f')).toBe(false);
  });
});

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
