import type { DictionaryEntry, DictionaryProblem } from '../dictionary/dictionary.ts';

export type PutDictionaryEntryResult =
  { status: 'added' | 'replaced'; entry: DictionaryEntry } | { status: 'refused'; problem: DictionaryProblem };

export type ReplaceDictionaryResult =
  { status: 'replaced'; entries: DictionaryEntry[] } | { status: 'refused'; problem: DictionaryProblem };

export type MoveDictionaryEntryResult =
  { status: 'moved'; position: number; entries: DictionaryEntry[] } | { status: 'unknown' };
