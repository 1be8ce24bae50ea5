import { describe, expect, it } from 'vitest';
import {
  MAX_ENTRIES, compileDictionary, exportDictionary, importDictionary, validateEntry,
} from '../../src/text/dictionary.ts';
import type { DictionaryEntry } from '../../src/text/dictionary.ts';
import { cleanMessage } from '../../src/text/cleanup.ts';

const entry = (word: string, reading: string): DictionaryEntry => ({ word, reading });

describe('compileDictionary', () => {
  const cases: { name: string; text: string; entries: DictionaryEntry[]; expected: string }[] = [
    { name: 'replaces a word', text: 'I use SayBot daily', entries: [entry('SayBot', 'say bot')], expected: 'I use say bot daily' },
    { name: 'ignores case', text: 'saybot and SAYBOT', entries: [entry('SayBot', 'say bot')], expected: 'say bot and say bot' },
    { name: 'whole words only in Latin script', text: 'cat category bobcat cat.', entries: [entry('cat', 'kitty')], expected: 'kitty category bobcat kitty.' },
    { name: 'digits count as part of a word', text: 'gg gg2 2gg', entries: [entry('gg', 'good game')], expected: 'good game gg2 2gg' },
    { name: 'longest match first', text: 'New York City and New York', entries: [entry('New York', 'NY'), entry('New York City', 'NYC')], expected: 'NYC and NY' },
    { name: 'a reading is not replaced again', text: 'a b', entries: [entry('a', 'b'), entry('b', 'c')], expected: 'b c' },
    { name: 'spaces inside an entry match any run of spaces', text: 'New   York', entries: [entry('New York', 'NY')], expected: 'NY' },
    { name: 'regex characters are literal', text: 'C++ and C#', entries: [entry('C++', 'C plus plus'), entry('C#', 'C sharp')], expected: 'C plus plus and C sharp' },
    { name: 'Hangul matches inside words', text: '세이봇님 안녕', entries: [entry('세이봇', '세이 봇')], expected: '세이 봇님 안녕' },
    { name: 'Korean slang', text: 'ㄱㅅ 진짜 ㄱㅅ', entries: [entry('ㄱㅅ', '감사')], expected: '감사 진짜 감사' },
    { name: 'Japanese matches inside text', text: '今日は草生える', entries: [entry('草', 'わら')], expected: '今日はわら生える' },
    { name: 'Japanese longest first', text: '東京都庁に行く', entries: [entry('東京', 'とうきょう'), entry('東京都庁', 'とちょう')], expected: 'とちょうに行く' },
    { name: 'a Latin word next to kana still matches', text: 'Discordで話そう', entries: [entry('Discord', 'ディスコード')], expected: 'ディスコードで話そう' },
    { name: 'a Latin word next to Hangul still matches', text: 'Discord에서 봐', entries: [entry('discord', '디스코드')], expected: '디스코드에서 봐' },
    { name: 'accented letters are word characters', text: 'café cafés', entries: [entry('café', 'cafe')], expected: 'cafe cafés' },
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
    expect(apply(cleanMessage('<@111> sent https://a-very-long-host-name.example.org', { users: { '111': 'Alice' } }))).toBe('アリス sent URL');
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
    expect(importDictionary(`\uFEFF${exportDictionary([entry('a', 'b')])}`)).toEqual({ ok: true, value: [entry('a', 'b')] });
  });

  const file = (entries: unknown, version: unknown = 1) => JSON.stringify({ version, entries });
  const refusals: { name: string; json: string; problem: { code: string; params?: Record<string, unknown> } }[] = [
    { name: 'not JSON', json: '{"version": 1,', problem: { code: 'notJson' } },
    { name: 'no version', json: JSON.stringify({ entries: [] }), problem: { code: 'unsupportedVersion', params: { version: 'undefined' } } },
    { name: 'a future version', json: file([], 2), problem: { code: 'unsupportedVersion', params: { version: '2', supported: 1 } } },
    { name: 'entries not a list', json: file('nope'), problem: { code: 'badShape', params: { path: 'entries' } } },
    { name: 'an entry without a reading', json: file([{ word: 'a' }]), problem: { code: 'badShape', params: { path: 'entries.0.reading' } } },
    { name: 'an entry with an unknown field', json: file([{ word: 'a', reading: 'b', extra: 1 }]), problem: { code: 'badShape' } },
    {
      name: 'too many entries',
      json: file(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ word: `w${i}`, reading: 'r' }))),
      problem: { code: 'tooManyEntries', params: { count: MAX_ENTRIES + 1, max: MAX_ENTRIES } },
    },
    { name: 'an invalid entry, numbered from 1', json: file([{ word: 'a', reading: 'b' }, { word: '', reading: 'c' }]), problem: { code: 'badEntry', params: { entry: 2, reason: 'emptyWord' } } },
    { name: 'a duplicate word', json: file([{ word: 'Cat', reading: 'a' }, { word: 'dog', reading: 'b' }, { word: 'cat', reading: 'c' }]), problem: { code: 'duplicate', params: { entry: 3, first: 1 } } },
  ];
  it.each(refusals.map((c) => [c.name, c] as const))('refuses %s with a clear reason', (_name, { json, problem }) => {
    expect(importDictionary(json)).toMatchObject({ ok: false, problem });
  });
});
