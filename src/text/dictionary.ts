// A server's pronunciation dictionary: words and how to say them, applied to text after clean-up. Pure; the
// store keeps the entries and checks each change with these functions (src/store/areas/dictionary.ts), so every
// rule lives here.
import { z } from 'zod';

export const MAX_ENTRIES = 500;
export const MAX_WORD_LENGTH = 50;
export const MAX_READING_LENGTH = 100;
export const DICTIONARY_FORMAT_VERSION = 1;

export interface DictionaryEntry {
  word: string;
  reading: string;
}

/** Why an entry or a file was refused; `code` is stable (logs, localised replies), `params` fill the message. */
export interface DictionaryProblem {
  code:
    | 'emptyWord' | 'wordTooLong' | 'emptyReading' | 'readingTooLong' | 'controlCharacter'
    | 'full' | 'duplicate'
    | 'notJson' | 'unsupportedVersion' | 'badShape' | 'tooManyEntries' | 'badEntry';
  params: Record<string, string | number>;
}

export type DictionaryResult<T> = { ok: true; value: T } | { ok: false; problem: DictionaryProblem };

const CONTROL = /[\p{Cc}\p{Cf}]/u;
// Scripts written without spaces between words: an entry in them matches anywhere in the text.
const UNSPACED = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// A letter or digit of a spaced script: what may not touch a whole-word match on either side.
const SPACED_WORD_CHAR = '(?:(?![\\p{Script=Hangul}\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}])[\\p{L}\\p{N}\\p{M}_])';

const length = (text: string): number => [...text].length;
const tidy = (text: string): string => text.normalize('NFC').replace(/\s+/gu, ' ').trim();
/** Entries are one per word whatever its case: "SayBot" and "saybot" are the same entry. */
export const entryKey = (word: string): string => tidy(word).toLowerCase();

/** The entry as it will be stored (NFC, spaces folded), or why it cannot be. */
export function validateEntry(word: string, reading: string): DictionaryResult<DictionaryEntry> {
  const entry = { word: tidy(word), reading: tidy(reading) };
  const fail = (code: DictionaryProblem['code'], params: DictionaryProblem['params'] = {}) =>
    ({ ok: false, problem: { code, params } }) as const;
  if (entry.word === '') return fail('emptyWord');
  if (length(entry.word) > MAX_WORD_LENGTH) return fail('wordTooLong', { max: MAX_WORD_LENGTH });
  if (entry.reading === '') return fail('emptyReading');
  if (length(entry.reading) > MAX_READING_LENGTH) return fail('readingTooLong', { max: MAX_READING_LENGTH });
  if (CONTROL.test(entry.word) || CONTROL.test(entry.reading)) return fail('controlCharacter');
  return { ok: true, value: entry };
}

/**
 * A function giving text with every dictionary word replaced by its reading, in one pass (a reading is never
 * replaced again). The longest word wins where several start at the same place; case is ignored. Words in a
 * spaced script match whole words only ("cat" not in "category"); Hangul, kana and CJK words match anywhere.
 * Compile once per dictionary change: the pattern of 500 entries is worth keeping between messages.
 */
export function compileDictionary(entries: readonly DictionaryEntry[]): (text: string) => string {
  if (entries.length === 0) return (text) => text;
  const readings = new Map(entries.map((entry) => [entryKey(entry.word), entry.reading]));
  const words = [...readings.keys()].sort((a, b) => length(b) - length(a));
  const pattern = words.map((word) => {
    const escaped = word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s+');
    return UNSPACED.test(word) ? escaped : `(?<!${SPACED_WORD_CHAR})${escaped}(?!${SPACED_WORD_CHAR})`;
  }).join('|');
  const matcher = new RegExp(pattern, 'giu');
  return (text) => text.normalize('NFC').replace(matcher, (match) => readings.get(entryKey(match)) ?? match);
}

const FileSchema = z.object({
  version: z.literal(DICTIONARY_FORMAT_VERSION),
  entries: z.array(z.object({ word: z.string(), reading: z.string() }).strict()),
});

/** The dictionary as the JSON file /dictionary export attaches (versioned, so an old file stays readable). */
export function exportDictionary(entries: readonly DictionaryEntry[]): string {
  const file: z.infer<typeof FileSchema> = { version: DICTIONARY_FORMAT_VERSION, entries: entries.map(({ word, reading }) => ({ word, reading })) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The entries of an exported file, each validated as /dictionary add would; the first problem otherwise. */
export function importDictionary(json: string): DictionaryResult<DictionaryEntry[]> {
  const fail = (code: DictionaryProblem['code'], params: DictionaryProblem['params'] = {}) =>
    ({ ok: false, problem: { code, params } }) as const;
  let data: unknown;
  try {
    data = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch {
    return fail('notJson');
  }
  const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (version !== DICTIONARY_FORMAT_VERSION) return fail('unsupportedVersion', { version: String(version), supported: DICTIONARY_FORMAT_VERSION });
  const parsed = FileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('badShape', { path: issue?.path.join('.') || '(top)', detail: issue?.message ?? 'invalid' });
  }
  return validateEntries(parsed.data.entries);
}

/**
 * A whole dictionary (an import, or what the store is asked to replace one with), each entry validated as
 * /dictionary add would: the entries as stored, or the first problem (too many, a bad entry, a word twice).
 */
export function validateEntries(raw: readonly DictionaryEntry[]): DictionaryResult<DictionaryEntry[]> {
  const fail = (code: DictionaryProblem['code'], params: DictionaryProblem['params'] = {}) =>
    ({ ok: false, problem: { code, params } }) as const;
  if (raw.length > MAX_ENTRIES) return fail('tooManyEntries', { count: raw.length, max: MAX_ENTRIES });
  const entries: DictionaryEntry[] = [];
  const seen = new Map<string, number>();
  for (const [index, { word, reading }] of raw.entries()) {
    const valid = validateEntry(word, reading);
    // Entry numbers count from 1, as a person reading the file counts.
    if (!valid.ok) return fail('badEntry', { entry: index + 1, reason: valid.problem.code });
    const key = entryKey(valid.value.word);
    const first = seen.get(key);
    if (first !== undefined) return fail('duplicate', { entry: index + 1, first: first + 1, word: valid.value.word });
    seen.set(key, index);
    entries.push(valid.value);
  }
  return { ok: true, value: entries };
}
