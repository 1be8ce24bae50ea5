// A server's pronunciation dictionary, pure; words and patterns take time linear in the text, whatever the entries.
import { z } from 'zod';
import { countCharacters } from '../../../core/characters.ts';
import { compilePattern, type PatternMatch, type PatternProblem } from './dictionary-pattern.ts';
import { WordAutomaton } from './word-automaton.ts';
import {
  MAX_ENTRIES,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_MATCHES,
  MAX_PATTERNS,
  MAX_READING_LENGTH,
  MAX_REPLACEMENTS,
  MAX_WORD_LENGTH,
  resultLimit,
} from './dictionary-limits.ts';

export const DICTIONARY_FORMAT_VERSION = 1;

/** A word, matched whatever its case, whole in spaced scripts; its reading is said as written. */
export interface WordEntry {
  word: string;
  reading: string;
}

/** A pattern (RE2 syntax); its reading may put in what the pattern's groups matched ($1, $<name>, $& for all). */
export interface PatternEntry {
  pattern: string;
  reading: string;
}

export type DictionaryEntry = WordEntry | PatternEntry;

/** How a member names an entry to change, move or remove it: the word, or `{ pattern }`. */
export type EntryName = string | { pattern: string };

export const isPattern = (entry: DictionaryEntry): entry is PatternEntry => 'pattern' in entry;

/** Why an entry or a file was refused; `code` is stable (logs, localised replies), `params` fill the message. */
export interface DictionaryProblem {
  code:
    | 'emptyWord'
    | 'wordTooLong'
    | 'emptyReading'
    | 'readingTooLong'
    | 'controlCharacter'
    | 'emptyPattern'
    | 'patternTooLong'
    | 'badPattern'
    | 'unknownGroup'
    | 'full'
    | 'patternsFull'
    | 'duplicate'
    | 'notJson'
    | 'unsupportedVersion'
    | 'badShape'
    | 'tooManyEntries'
    | 'tooManyPatterns'
    | 'badEntry';
  params: Record<string, string | number>;
}

export type DictionaryResult<T> = { ok: true; value: T } | { ok: false; problem: DictionaryProblem };

const CONTROL = /[\p{Cc}\p{Cf}]/u;

/** Lengths in the unit the service bills (a reading is what auto-read pays to have said). */
const length = countCharacters;
const tidy = (text: string): string => text.normalize('NFC').replace(/\s+/gu, ' ').trim();
/** Entries are one per word whatever its case: "SayBot" and "saybot" are the same entry. */
export const entryKey = (word: string): string => tidy(word).toLowerCase();
/** A pattern's key, behind a control character no word may hold, so it never takes a word's place. */
export const patternKey = (pattern: string): string => `\u0001${pattern.normalize('NFC').trim()}`;
/** The key of the entry a member names. */
export const keyOf = (name: EntryName): string =>
  typeof name === 'string' ? entryKey(name) : patternKey(name.pattern);
export const keyOfEntry = (entry: DictionaryEntry): string =>
  isPattern(entry) ? patternKey(entry.pattern) : entryKey(entry.word);

const fail = (code: DictionaryProblem['code'], params: DictionaryProblem['params'] = {}) =>
  ({ ok: false, problem: { code, params } }) as const;

function validateReading(reading: string): DictionaryResult<string> {
  const tidied = tidy(reading);
  if (tidied === '') return fail('emptyReading');
  if (length(tidied) > MAX_READING_LENGTH) return fail('readingTooLong', { max: MAX_READING_LENGTH });
  if (CONTROL.test(tidied)) return fail('controlCharacter');
  return { ok: true, value: tidied };
}

/** The word entry as it will be stored (NFC, spaces folded), or why it cannot be. */
export function validateEntry(word: string, reading: string): DictionaryResult<WordEntry> {
  const tidied = tidy(word);
  if (tidied === '') return fail('emptyWord');
  if (length(tidied) > MAX_WORD_LENGTH) return fail('wordTooLong', { max: MAX_WORD_LENGTH });
  const validReading = validateReading(reading);
  if (!validReading.ok) return validReading;
  if (CONTROL.test(tidied)) return fail('controlCharacter');
  return { ok: true, value: { word: tidied, reading: validReading.value } };
}

const patternProblem = (problem: PatternProblem): DictionaryResult<never> =>
  problem.code === 'unknownGroup'
    ? fail('unknownGroup', { group: problem.group })
    : fail('badPattern', { syntax: problem.syntax, part: problem.part });

/** The pattern entry as stored (NFC, ends trimmed), or why not: too long, a control character, RE2's refusal. */
export function validatePattern(pattern: string, reading: string): DictionaryResult<PatternEntry> {
  const tidied = pattern.normalize('NFC').trim();
  if (tidied === '') return fail('emptyPattern');
  if (length(tidied) > MAX_PATTERN_LENGTH) return fail('patternTooLong', { max: MAX_PATTERN_LENGTH });
  const validReading = validateReading(reading);
  if (!validReading.ok) return validReading;
  if (CONTROL.test(tidied)) return fail('controlCharacter');
  const compiled = compilePattern(tidied, validReading.value);
  if (!compiled.ok) return patternProblem(compiled.problem);
  return { ok: true, value: { pattern: tidied, reading: validReading.value } };
}

/** Either kind, as validateEntry or validatePattern. */
export function validateAnyEntry(entry: DictionaryEntry): DictionaryResult<DictionaryEntry> {
  return isPattern(entry) ? validatePattern(entry.pattern, entry.reading) : validateEntry(entry.word, entry.reading);
}

/** Where a step of the dictionary matches in a text, left to right, and what it says there. */
interface Pass {
  matches(text: string): Iterable<PatternMatch>;
  /** The most matches it replaces in one text. */
  maxMatches: number;
}

/** Adjacent words as one pass, longest first, case ignored; a case-folded match takes its own spelling's reading. */
function wordPass(entries: readonly WordEntry[]): Pass {
  const readings = new Map(entries.map((entry) => [entryKey(entry.word), entry.reading]));
  // The longest first; words of one length in the order they were added. Lengths counted once, not per comparison.
  const words = [...readings.keys()].map((key) => ({ key, length: length(key) }));
  const automaton = new WordAutomaton(words.sort((a, b) => b.length - a.length));
  return {
    maxMatches: Number.POSITIVE_INFINITY,
    *matches(text) {
      for (const { start, end } of automaton.matches(text)) {
        const written = text.slice(start, end);
        yield { start, end, reading: readings.get(entryKey(written)) ?? written };
      }
    },
  };
}

/** `text` with at most `budget.left` matches of `pass` replaced (taken from it), cut at `limit` code points. */
function applyPass(pass: Pass, text: string, limit: number, budget: { left: number }): string {
  const most = Math.min(pass.maxMatches, budget.left);
  if (most <= 0) return text;
  let out = '';
  let copied = 0;
  let matched = 0;
  for (const match of pass.matches(text)) {
    matched += 1;
    out += text.slice(copied, match.start) + match.reading;
    copied = match.end;
    // Past twice the limit in UTF-16 units the result is longer than the limit in code points whatever it holds.
    if (out.length > limit * 2 || matched >= most) break;
  }
  budget.left -= matched;
  return matched > 0 ? cutAt(out + text.slice(copied, copied + limit * 2), limit) : text;
}

/** At most `limit` code points. */
function cutAt(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let units = 0;
  let points = 0;
  for (const char of text) {
    if (points === limit) break;
    units += char.length;
    points += 1;
  }
  return text.slice(0, units);
}

/**
 * Text as the dictionary says it: entries in order, a pattern a pass of its own, adjacent words one pass; spaced
 * scripts whole words only. Bounded by resultLimit and the match caps; an entry no longer compiling is left out.
 */
export function compileDictionary(entries: readonly DictionaryEntry[]): (text: string) => string {
  const passes: Pass[] = [];
  let words: WordEntry[] = [];
  const endWords = () => {
    if (words.length > 0) passes.push(wordPass(words));
    words = [];
  };
  for (const entry of entries) {
    if (!isPattern(entry)) {
      words.push(entry);
      continue;
    }
    endWords();
    const compiled = compilePattern(entry.pattern, entry.reading);
    if (compiled.ok) passes.push({ matches: (text) => compiled.value.matches(text), maxMatches: MAX_PATTERN_MATCHES });
  }
  endWords();
  if (passes.length === 0) return (text) => text;
  return (text) => {
    let spoken = text.normalize('NFC');
    const limit = resultLimit(length(spoken));
    const budget = { left: MAX_REPLACEMENTS };
    for (const pass of passes) spoken = applyPass(pass, spoken, limit, budget);
    return spoken;
  };
}

/** Whether the cap would cut what `entry` says (/dictionary add warns), for its shortest match and a long one. */
export function readingWouldBeCut(entry: DictionaryEntry): boolean {
  if (!isPattern(entry)) return length(entry.reading) > resultLimit(length(entry.word));
  const compiled = compilePattern(entry.pattern, entry.reading);
  if (!compiled.ok) return false;
  const shortest = compiled.value.matchesEmpty ? 0 : 1;
  return [shortest, MAX_WORD_LENGTH].some((match) => compiled.value.longestReading(match) > resultLimit(match));
}

// An entry with `pattern` is read as a pattern, any other as a word, so a wrong field is named against its kind.
const WordSchema = z.object({ word: z.string(), reading: z.string() }).strict();
const PatternSchema = z.object({ pattern: z.string(), reading: z.string() }).strict();
const EntrySchema = z.unknown().transform((entry, context): DictionaryEntry => {
  const schema = typeof entry === 'object' && entry !== null && 'pattern' in entry ? PatternSchema : WordSchema;
  const parsed = schema.safeParse(entry);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues)
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});
const FileSchema = z.object({
  version: z.literal(DICTIONARY_FORMAT_VERSION),
  entries: z.array(EntrySchema),
});

/** The dictionary as the JSON file /dictionary export attaches (versioned, so an old file stays readable). */
export function exportDictionary(entries: readonly DictionaryEntry[]): string {
  const file: z.input<typeof FileSchema> = {
    version: DICTIONARY_FORMAT_VERSION,
    entries: entries.map((entry) =>
      isPattern(entry)
        ? { pattern: entry.pattern, reading: entry.reading }
        : { word: entry.word, reading: entry.reading },
    ),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The entries of an exported file, each validated as /dictionary add would; the first problem otherwise. */
export function importDictionary(json: string): DictionaryResult<DictionaryEntry[]> {
  const read = readDictionaryFile(json);
  return read.ok ? validateEntries(read.value) : read;
}

/** An exported file's entries, format and shape checked, not yet validated (the worker validates patterns). */
export function readDictionaryFile(json: string): DictionaryResult<DictionaryEntry[]> {
  let data: unknown;
  try {
    data = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch {
    return fail('notJson');
  }
  const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (version !== DICTIONARY_FORMAT_VERSION)
    return fail('unsupportedVersion', { version: String(version), supported: DICTIONARY_FORMAT_VERSION });
  const parsed = FileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('badShape', { path: issue?.path.join('.') || '(top)', detail: issue?.message ?? 'invalid' });
  }
  return { ok: true, value: parsed.data.entries };
}

/** A whole dictionary validated as /dictionary add would, in order: the entries as stored, or the first problem. */
export function validateEntries(raw: readonly DictionaryEntry[]): DictionaryResult<DictionaryEntry[]> {
  if (raw.length > MAX_ENTRIES) return fail('tooManyEntries', { count: raw.length, max: MAX_ENTRIES });
  const patterns = raw.filter(isPattern).length;
  if (patterns > MAX_PATTERNS) return fail('tooManyPatterns', { count: patterns, max: MAX_PATTERNS });
  const entries: DictionaryEntry[] = [];
  const seen = new Map<string, number>();
  for (const [index, entry] of raw.entries()) {
    const valid = validateAnyEntry(entry);
    // Entry numbers count from 1, as a person reading the file counts; the reason's own details come along.
    if (!valid.ok) return fail('badEntry', { ...valid.problem.params, entry: index + 1, reason: valid.problem.code });
    const key = keyOfEntry(valid.value);
    const first = seen.get(key);
    const name = isPattern(valid.value) ? valid.value.pattern : valid.value.word;
    if (first !== undefined) return fail('duplicate', { entry: index + 1, first: first + 1, word: name });
    seen.set(key, index);
    entries.push(valid.value);
  }
  return { ok: true, value: entries };
}
