// Auto-read's dictionary, for /dictionary, the Speak message menu and the dashboard: its entries, their limits and
// file, its changes, and a message read through it.
import './strings.ts';
export type { DictionaryRecord } from './store/dictionary-store.ts';
export {
  exportDictionary,
  isPattern,
  readDictionaryFile,
  type DictionaryEntry,
  type DictionaryProblem,
  type EntryName,
} from './dictionary/dictionary.ts';
export {
  GROWTH_ALLOWANCE,
  MAX_ENTRIES,
  MAX_GROWTH_FACTOR,
  MAX_PATTERN_LENGTH,
  MAX_READING_LENGTH,
  MAX_WORD_LENGTH,
} from './dictionary/dictionary-limits.ts';
export { dictionaryOf, speakMessageWords, speakableMessage, storedDictionary } from './speak-message.ts';
export { MAX_IMPORT_BYTES, describeDictionaryProblem, refreshDictionary } from './dictionary-changes.ts';
export { DictionaryUnavailableError, readingWouldBeCutOffThread } from './dictionary/dictionary-thread.ts';
