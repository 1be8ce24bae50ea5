import type { DictionaryEntry, DictionaryProblem } from '../text/dictionary.ts';

export type PutDictionaryEntryResult =
  | { status: 'added' | 'replaced'; entry: DictionaryEntry }
  | { status: 'refused'; problem: DictionaryProblem };

export type ReplaceDictionaryResult = { status: 'replaced'; entries: DictionaryEntry[] } | { status: 'refused'; problem: DictionaryProblem };

/**
 * A guild's pronunciation dictionary (issue 14; table dictionary_entries; `store.dictionary`). The rules are src/text/dictionary.ts':
 * entries are validated and tidied by its validateEntry, one per word whatever its case (entryKey), at most
 * MAX_ENTRIES per guild; the problems returned are its DictionaryProblem codes.
 */
export interface DictionaryStore {
  /** The guild's entries in word order (by entryKey, code point order), as stored (tidied). */
  list(guildId: string): Promise<DictionaryEntry[]>;
  /**
   * Adds `word` -> `reading`, or replaces the reading of that word (any case; the word is stored as typed this
   * time). Refused when invalid, or when a new word would pass MAX_ENTRIES ('full').
   */
  put(guildId: string, word: string, reading: string, updatedBy: string): Promise<PutDictionaryEntryResult>;
  /** Removes the word (any case); the entry removed, or undefined when there was none. */
  remove(guildId: string, word: string): Promise<DictionaryEntry | undefined>;
  /**
   * Replaces the whole dictionary with `entries` (an import) in one transaction: all of them or, when any is
   * refused (validateEntries: 'tooManyEntries', 'badEntry', 'duplicate'), nothing changes.
   */
  replace(guildId: string, entries: readonly DictionaryEntry[], updatedBy: string): Promise<ReplaceDictionaryResult>;
}
