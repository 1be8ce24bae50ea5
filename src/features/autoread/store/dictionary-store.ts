import type { DictionaryEntry, DictionaryProblem } from '../dictionary/dictionary.ts';

export type PutDictionaryEntryResult =
  { status: 'added' | 'replaced'; entry: DictionaryEntry } | { status: 'refused'; problem: DictionaryProblem };

export type ReplaceDictionaryResult =
  { status: 'replaced'; entries: DictionaryEntry[] } | { status: 'refused'; problem: DictionaryProblem };

export type MoveDictionaryEntryResult =
  { status: 'moved'; position: number; entries: DictionaryEntry[] } | { status: 'unknown' };

/** An entry with who changed it last (a user ID, or a forgotten member's marker) and when (ms since the epoch). */
export interface DictionaryRecord {
  entry: DictionaryEntry;
  updatedBy: string;
  updatedAt: number;
}
