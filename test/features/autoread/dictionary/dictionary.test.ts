import { describe, expect, it, vi } from 'vitest';
import { RE2JS } from 're2js';
import { data as dictionaryCommand } from '../../../../commands/dictionary.ts';
import {
  MAX_ENTRIES,
  MAX_PATTERNS,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_MATCHES,
  MAX_READING_LENGTH,
  MAX_REPLACEMENTS,
  MAX_RESULT_LENGTH,
  MAX_WORD_LENGTH,
  resultLimit,
} from '../../../../src/features/autoread/dictionary/dictionary-limits.ts';
import {
  compileDictionary,
  readingWouldBeCut,
  exportDictionary,
  importDictionary,
  validateEntry,
  validatePattern,
} from '../../../../src/features/autoread/dictionary/dictionary.ts';
import type { DictionaryEntry } from '../../../../src/features/autoread/dictionary/dictionary.ts';
import { measurePattern } from '../../../../src/features/autoread/dictionary/dictionary-pattern.ts';
import {
  validateEntriesOffThread,
  validateEntryOffThread,
} from '../../../../src/features/autoread/dictionary/dictionary-thread.ts';
import { cleanMessage } from '../../../../src/features/autoread/text/cleanup.ts';

const entry = (word: string, reading: string): DictionaryEntry => ({ word, reading });

describe('compileDictionary', () => {
  const cases: { name: string; text: string; entries: DictionaryEntry[]; expected: string }[] = [
    {
      name: 'replaces a word',
      text: 'I use SayBot daily',
      entries: [entry('SayBot', 'say bot')],
      expected: 'I use say bot daily',
    },
    {
      name: 'ignores case',
      text: 'saybot and SAYBOT',
      entries: [entry('SayBot', 'say bot')],
      expected: 'say bot and say bot',
    },
    {
      name: 'whole words only in Latin script',
      text: 'cat category bobcat cat.',
      entries: [entry('cat', 'kitty')],
      expected: 'kitty category bobcat kitty.',
    },
    {
      name: 'digits count as part of a word',
      text: 'gg gg2 2gg',
      entries: [entry('gg', 'good game')],
      expected: 'good game gg2 2gg',
    },
    {
      name: 'longest match first',
      text: 'New York City and New York',
      entries: [entry('New York', 'NY'), entry('New York City', 'NYC')],
      expected: 'NYC and NY',
    },
    {
      name: 'a reading is not replaced again',
      text: 'a b',
      entries: [entry('a', 'b'), entry('b', 'c')],
      expected: 'b c',
    },
    {
      name: 'spaces inside an entry match any run of spaces',
      text: 'New   York',
      entries: [entry('New York', 'NY')],
      expected: 'NY',
    },
    {
      name: 'regex characters are literal',
      text: 'C++ and C#',
      entries: [entry('C++', 'C plus plus'), entry('C#', 'C sharp')],
      expected: 'C plus plus and C sharp',
    },
    {
      name: 'Hangul matches inside words',
      text: '세이봇님 안녕',
      entries: [entry('세이봇', '세이 봇')],
      expected: '세이 봇님 안녕',
    },
    { name: 'Korean slang', text: 'ㄱㅅ 진짜 ㄱㅅ', entries: [entry('ㄱㅅ', '감사')], expected: '감사 진짜 감사' },
    {
      name: 'Japanese matches inside text',
      text: '今日は草生える',
      entries: [entry('草', 'わら')],
      expected: '今日はわら生える',
    },
    {
      name: 'Japanese longest first',
      text: '東京都庁に行く',
      entries: [entry('東京', 'とうきょう'), entry('東京都庁', 'とちょう')],
      expected: 'とちょうに行く',
    },
    {
      name: 'a Latin word next to kana still matches',
      text: 'Discordで話そう',
      entries: [entry('Discord', 'ディスコード')],
      expected: 'ディスコードで話そう',
    },
    {
      name: 'a Latin word next to Hangul still matches',
      text: 'Discord에서 봐',
      entries: [entry('discord', '디스코드')],
      expected: '디스코드에서 봐',
    },
    {
      name: 'accented letters are word characters',
      text: 'café cafés',
      entries: [entry('café', 'cafe')],
      expected: 'cafe cafés',
    },
    { name: 'no entries leaves the text', text: 'unchanged', entries: [], expected: 'unchanged' },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { text, entries, expected }) => {
    expect(compileDictionary(entries)(text)).toBe(expected);
  });
});

describe('the dictionary after clean-up', () => {
  it('sees the names and words clean-up produced, not the raw markup', () => {
    const apply = compileDictionary([entry('Alice', 'アリス'), entry('111', 'one one one'), entry('link', 'URL')]);
    const cleaned = cleanMessage('<@111> https://example.org/x', { users: { '111': 'Alice' }, language: 'ja' });
    expect(apply(cleaned)).toBe('アリス example.orgのリンク');
    expect(
      apply(cleanMessage('<@111> sent https://a-very-long-host-name.example.org', { users: { '111': 'Alice' } })),
    ).toBe('アリス sent URL');
  });

  it('applies a full dictionary of 500 entries, the longest word winning', () => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(`word${i}`, `w${i}`));
    entries[499] = entry('word1 word2', 'both');
    const apply = compileDictionary(entries);
    expect(apply('word1 word2 word3 word10 word1')).toBe('both w3 w10 w1');
  });
});

describe('validateEntry', () => {
  const cases: { name: string; word: string; reading: string; code?: string; stored?: DictionaryEntry }[] = [
    { name: 'trims and folds spaces', word: '  New   York ', reading: ' NY ', stored: entry('New York', 'NY') },
    { name: 'normalises to NFC', word: 'cafe\u0301', reading: 'kafe', stored: entry('café', 'kafe') },
    { name: 'empty word', word: '   ', reading: 'x', code: 'emptyWord' },
    { name: 'empty reading', word: 'x', reading: '', code: 'emptyReading' },
    { name: 'word too long', word: 'a'.repeat(51), reading: 'x', code: 'wordTooLong' },
    { name: 'word at the limit', word: '가'.repeat(50), reading: 'x', stored: entry('가'.repeat(50), 'x') },
    { name: 'reading too long', word: 'x', reading: 'b'.repeat(101), code: 'readingTooLong' },
    { name: 'control characters', word: 'a\u0000b', reading: 'x', code: 'controlCharacter' },
    { name: 'invisible format characters', word: 'a\u200bb', reading: 'x', code: 'controlCharacter' },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { word, reading, code, stored }) => {
    const result = validateEntry(word, reading);
    if (code) expect(result).toMatchObject({ ok: false, problem: { code } });
    else expect(result).toEqual({ ok: true, value: stored });
  });
});

describe('export and import', () => {
  it('round-trips every entry', () => {
    const entries = [entry('SayBot', 'say bot'), entry('세이봇', '세이 봇'), entry('草', 'わら')];
    const json = exportDictionary(entries);
    expect(JSON.parse(json)).toMatchObject({ version: 1 });
    expect(importDictionary(json)).toEqual({ ok: true, value: entries });
  });

  it('accepts a file with a byte-order mark, as Windows editors save it', () => {
    expect(importDictionary(`\uFEFF${exportDictionary([entry('a', 'b')])}`)).toEqual({
      ok: true,
      value: [entry('a', 'b')],
    });
  });

  const file = (entries: unknown, version: unknown = 1) => JSON.stringify({ version, entries });
  const refusals: { name: string; json: string; problem: { code: string; params?: Record<string, unknown> } }[] = [
    { name: 'not JSON', json: '{"version": 1,', problem: { code: 'notJson' } },
    {
      name: 'no version',
      json: JSON.stringify({ entries: [] }),
      problem: { code: 'unsupportedVersion', params: { version: 'undefined' } },
    },
    {
      name: 'a future version',
      json: file([], 2),
      problem: { code: 'unsupportedVersion', params: { version: '2', supported: 1 } },
    },
    { name: 'entries not a list', json: file('nope'), problem: { code: 'badShape', params: { path: 'entries' } } },
    {
      name: 'an entry without a reading',
      json: file([{ word: 'a' }]),
      problem: { code: 'badShape', params: { path: 'entries.0.reading' } },
    },
    {
      name: 'an entry with an unknown field',
      json: file([{ word: 'a', reading: 'b', extra: 1 }]),
      problem: { code: 'badShape' },
    },
    {
      name: 'too many entries',
      json: file(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ word: `w${i}`, reading: 'r' }))),
      problem: { code: 'tooManyEntries', params: { count: MAX_ENTRIES + 1, max: MAX_ENTRIES } },
    },
    {
      name: 'an invalid entry, numbered from 1',
      json: file([
        { word: 'a', reading: 'b' },
        { word: '', reading: 'c' },
      ]),
      problem: { code: 'badEntry', params: { entry: 2, reason: 'emptyWord' } },
    },
    {
      name: 'a duplicate word',
      json: file([
        { word: 'Cat', reading: 'a' },
        { word: 'dog', reading: 'b' },
        { word: 'cat', reading: 'c' },
      ]),
      problem: { code: 'duplicate', params: { entry: 3, first: 1 } },
    },
  ];
  it.each(refusals.map((c) => [c.name, c] as const))('refuses %s with a clear reason', (_name, { json, problem }) => {
    expect(importDictionary(json)).toMatchObject({ ok: false, problem });
  });
});

describe('patterns', () => {
  const pattern = (source: string, reading: string): DictionaryEntry => ({ pattern: source, reading });

  const cases: { name: string; text: string; entries: DictionaryEntry[]; expected: string }[] = [
    {
      name: 'replaces what a pattern matches',
      text: 'it is 5km away',
      entries: [pattern('(\\d+)km', '$1 kilometres')],
      expected: 'it is 5 kilometres away',
    },
    {
      name: 'named groups and the whole match',
      text: 'mail me@host',
      entries: [pattern('(?P<user>\\w+)@(\\w+)', '$<user> at $2 ($&)')],
      expected: 'mail me at host (me@host)',
    },
    { name: 'a dollar sign', text: 'costs 5', entries: [pattern('costs (\\d)', '$$$1')], expected: '$5' },
    { name: 'case as written unless (?i)', text: 'LOL lol', entries: [pattern('lol', 'laugh')], expected: 'LOL laugh' },
    { name: '(?i) for any case', text: 'LOL lol', entries: [pattern('(?i)lol', 'laugh')], expected: 'laugh laugh' },
    { name: 'scripts without spaces', text: '3時に', entries: [pattern('(\\d+)時', '$1じ')], expected: '3じに' },
    {
      name: 'entries apply in their order: a pattern sees what the words above it said',
      text: 'SayBot v2',
      entries: [entry('SayBot', 'say bot'), pattern('say bot v(\\d)', 'version $1 of the bot')],
      expected: 'version 2 of the bot',
    },
    {
      name: 'entries apply in their order: a pattern above the words changes what they see',
      text: 'SayBot v2',
      entries: [pattern('v(\\d)', 'version $1'), entry('SayBot', 'say bot'), entry('version', 'release')],
      expected: 'say bot release 2',
    },
    {
      name: 'words next to each other still apply together, the longest first',
      text: 'New York City',
      entries: [entry('New York', 'NY'), entry('New York City', 'NYC'), pattern('NYC', 'the city')],
      expected: 'the city',
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { text, entries, expected }) => {
    expect(compileDictionary(entries)(text)).toBe(expected);
  });

  it('moving an entry changes what is said', () => {
    const word = entry('cat', 'kitty');
    const rule = pattern('kitty', 'small cat');
    expect(compileDictionary([word, rule])('a cat')).toBe('a small cat');
    expect(compileDictionary([rule, word])('a cat')).toBe('a kitty');
  });

  it(`never makes a text longer than ${MAX_RESULT_LENGTH} characters, or than it was`, () => {
    const everywhere = compileDictionary([pattern('a', 'x'.repeat(100))]);
    const spoken = everywhere('a'.repeat(500));
    expect(spoken).toBe('x'.repeat(MAX_RESULT_LENGTH));
    expect(compileDictionary([pattern('b', 'cc')])(`${'a'.repeat(3000)}bb`)).toBe(`${'a'.repeat(3000)}cc`);
    // Code points, not UTF-16 units: a cut never splits an emoji's surrogate pair.
    expect([...compileDictionary([pattern('a', '😀'.repeat(50))])('a'.repeat(100))]).toHaveLength(resultLimit(100));
  });

  it('runs a backtracking-prone pattern over 4,000 characters and gives its result', () => {
    const text = `${'a'.repeat(3999)}!`;
    expect(compileDictionary([pattern('(a+)+$', 'x')])(text)).toBe(text);
    expect(compileDictionary([pattern('(a+)+!$', 'x')])(text)).toBe('x');
  });

  const refusals: {
    name: string;
    source: string;
    reading?: string;
    problem: { code: string; params?: Record<string, unknown> };
  }[] = [
    {
      name: 'a back-reference',
      source: '(a)\\1',
      problem: { code: 'badPattern', params: { syntax: 'backReference', part: '\\1' } },
    },
    {
      name: 'a look-ahead',
      source: 'a(?=b)',
      problem: { code: 'badPattern', params: { syntax: 'lookAround', part: '(?=' } },
    },
    { name: 'a look-behind', source: '(?<!a)b', problem: { code: 'badPattern', params: { syntax: 'lookAround' } } },
    { name: 'an unclosed group', source: '(ab', problem: { code: 'badPattern', params: { syntax: 'missingParen' } } },
    { name: 'an unclosed class', source: '[ab', problem: { code: 'badPattern', params: { syntax: 'missingBracket' } } },
    {
      name: 'a repeated repetition',
      source: 'a**',
      problem: { code: 'badPattern', params: { syntax: 'badRepetition', part: '**' } },
    },
    {
      name: 'a count past 1000',
      source: 'a{1001}',
      problem: { code: 'badPattern', params: { syntax: 'badRepeatCount' } },
    },
    {
      name: 'repetition multiplied too far',
      source: '((a{10}){10}){10}',
      problem: { code: 'badPattern', params: { syntax: 'tooComplex' } },
    },
    {
      name: 'a group the pattern lacks',
      source: '(a)',
      reading: '$2',
      problem: { code: 'unknownGroup', params: { group: '$2' } },
    },
    {
      name: 'a named group the pattern lacks',
      source: '(a)',
      reading: '$<name>',
      problem: { code: 'unknownGroup', params: { group: '$<name>' } },
    },
    { name: 'an empty pattern', source: '  ', problem: { code: 'emptyPattern' } },
    {
      name: 'a pattern too long',
      source: 'a'.repeat(MAX_PATTERN_LENGTH + 1),
      problem: { code: 'patternTooLong', params: { max: MAX_PATTERN_LENGTH } },
    },
  ];
  it.each(refusals.map((c) => [c.name, c] as const))(
    'refuses %s with the reason',
    (_name, { source, reading, problem }) => {
      expect(validatePattern(source, reading ?? 'x')).toMatchObject({ ok: false, problem });
    },
  );

  it('export and import keep the order and the kind', () => {
    const entries = [
      pattern('(\\d+)km', '$1 kilometres'),
      entry('SayBot', 'say bot'),
      pattern('(?i)lol', 'laugh'),
      entry('草', 'わら'),
    ];
    const json = exportDictionary(entries);
    expect(JSON.parse(json)).toEqual({ version: 1, entries });
    expect(importDictionary(json)).toEqual({ ok: true, value: entries });
  });

  it('refuses a file with a pattern that does not compile, naming the entry and the reason', () => {
    const json = JSON.stringify({
      version: 1,
      entries: [
        { word: 'a', reading: 'b' },
        { pattern: '(x', reading: 'y' },
      ],
    });
    expect(importDictionary(json)).toMatchObject({
      ok: false,
      problem: { code: 'badEntry', params: { entry: 2, reason: 'badPattern', syntax: 'missingParen' } },
    });
    const many = JSON.stringify({
      version: 1,
      entries: Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => ({ pattern: `p${i}`, reading: 'r' })),
    });
    expect(importDictionary(many)).toMatchObject({
      ok: false,
      problem: { code: 'tooManyPatterns', params: { count: MAX_PATTERNS + 1, max: MAX_PATTERNS } },
    });
  });
});

describe('a pattern that matches everywhere', () => {
  it(`replaces at most ${MAX_PATTERN_MATCHES} matches in one text, leaving the rest as written`, () => {
    const text = 'ab'.repeat(150);
    expect(compileDictionary([{ pattern: '(a)', reading: '[$1]' }])(text)).toBe(
      `${'[a]b'.repeat(MAX_PATTERN_MATCHES)}${'ab'.repeat(150 - MAX_PATTERN_MATCHES)}`,
    );
    // Words are found by the automaton, fast per match: every one is replaced (within MAX_REPLACEMENTS).
    expect(compileDictionary([{ word: 'a', reading: 'x' }])('a '.repeat(150))).toBe('x '.repeat(150));
  });
});

describe('what the dictionary may add to a text', () => {
  const everyCharacterFiftyTimes = { pattern: '.', reading: '$&'.repeat(50) };
  const everyCharacterSpelledOut = { pattern: '(?:.)', reading: 'r'.repeat(100) };

  it('keeps a short text short whatever its entries say: "hi" costs at most twice its length plus a few', () => {
    const said = compileDictionary([everyCharacterFiftyTimes, everyCharacterSpelledOut])('hi');
    expect([...said].length).toBeLessThanOrEqual(resultLimit(2));
    expect(resultLimit(2)).toBeLessThan(30);
  });

  it("lets a text grow to twice its length plus a few, never past auto-read's longest message", () => {
    expect(resultLimit(0)).toBe(20);
    expect(resultLimit(100)).toBe(220);
    expect(resultLimit(600)).toBe(MAX_RESULT_LENGTH);
    expect(resultLimit(3000)).toBe(3000);
    expect(compileDictionary([{ word: 'gg', reading: 'good game' }])('gg')).toBe('good game');
  });

  it(`makes at most ${MAX_REPLACEMENTS} replacements in one text over all its entries`, () => {
    expect(compileDictionary([{ word: 'a', reading: 'x' }])('a '.repeat(600))).toBe(
      `${'x '.repeat(MAX_REPLACEMENTS)}${'a '.repeat(600 - MAX_REPLACEMENTS)}`,
    );
    // 300 words, then 100 by each pattern: the third pattern has none left.
    const chain = compileDictionary([
      { word: 'a', reading: 'b' },
      { pattern: 'b', reading: 'c' },
      { pattern: 'c', reading: 'd' },
      { pattern: 'd', reading: 'e' },
    ]);
    expect(chain('a '.repeat(300))).toBe(`${'d '.repeat(100)}${'b '.repeat(200)}`);
  });

  const cutCases: { name: string; entry: DictionaryEntry; cut: boolean }[] = [
    { name: 'a word read as a little more', entry: { word: 'gg', reading: 'good game' }, cut: false },
    { name: 'a word read as a long explanation', entry: { word: 'NASA', reading: 'n'.repeat(40) }, cut: true },
    { name: 'a pattern repeating every match fifty times', entry: everyCharacterFiftyTimes, cut: true },
    { name: 'a pattern reading one character as a hundred', entry: everyCharacterSpelledOut, cut: true },
    {
      name: 'a pattern putting its group in once',
      entry: { pattern: '(\\d+)km', reading: '$1 kilometres' },
      cut: false,
    },
    { name: 'a pattern tripling what it matches', entry: { pattern: '(\\w+)', reading: '$1 $1 $1' }, cut: true },
    {
      name: 'a pattern matching nothing, read as a sentence',
      entry: { pattern: 'x*', reading: 'y'.repeat(30) },
      cut: true,
    },
  ];
  it.each(cutCases.map((c) => [c.name, c] as const))('says whether the cap cuts %s', (_name, { entry, cut }) => {
    expect(readingWouldBeCut(entry)).toBe(cut);
  });
});

describe('a pattern too complex for RE2', () => {
  // 20 times `(a*){1000}`: 80,002 instructions, which RE2 takes a quarter of a second to build.
  const huge = '(a*){1000}'.repeat(20);

  it('is measured and refused before anything compiles it', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    try {
      expect(validatePattern(huge, 'x')).toEqual({
        ok: false,
        problem: { code: 'badPattern', params: { syntax: 'tooComplex', part: '' } },
      });
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it('is measured as RE2 counts: never more than its program, so nothing RE2 accepts is refused', () => {
    for (const source of ['(?:a?){200}a{200}', '(\\d{1,3},)*\\d{1,3}', '(?<n>\\d+)\\s*(kg|g)', 'cat|car|cab', 'w{998}'])
      expect(measurePattern(source)).toBeLessThanOrEqual(RE2JS.compile(source).programSize());
    expect(measurePattern(huge)).toBe(80_002);
    expect(measurePattern('((a{10}){10}){10}')).toBe(1222);
  });

  it('is refused by the store without compiling a pattern on the main thread; a good one is compiled in the worker', async () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    try {
      expect(await validateEntryOffThread({ pattern: huge }, 'x', 'guild-re2')).toMatchObject({
        ok: false,
        problem: { code: 'badPattern' },
      });
      expect(await validateEntryOffThread({ pattern: '(\\d+)km' }, '$1 kilometres', 'guild-re2')).toEqual({
        ok: true,
        value: { pattern: '(\\d+)km', reading: '$1 kilometres' },
      });
      expect(await validateEntriesOffThread([{ pattern: '(a)', reading: '$2' }], 'guild-re2')).toMatchObject({
        ok: false,
        problem: { code: 'badEntry', params: { entry: 1, reason: 'unknownGroup' } },
      });
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });
});

describe("/dictionary's declaration", () => {
  it("takes its options' max_length from the rules' limits, so Discord's client stops a member where the rule would", () => {
    const json = dictionaryCommand.toJSON() as {
      options: Array<{ name: string; options?: Array<{ name: string; max_length?: number }> }>;
    };
    const limits = (sub: string) =>
      Object.fromEntries((json.options.find((o) => o.name === sub)?.options ?? []).map((o) => [o.name, o.max_length]));
    expect(limits('add')).toEqual({ word: MAX_WORD_LENGTH, reading: MAX_READING_LENGTH, pattern: MAX_PATTERN_LENGTH });
    expect(limits('remove')).toEqual({ word: MAX_WORD_LENGTH, pattern: MAX_PATTERN_LENGTH });
    expect([MAX_WORD_LENGTH, MAX_READING_LENGTH, MAX_PATTERN_LENGTH]).toEqual([50, 100, 200]);
  });
});
