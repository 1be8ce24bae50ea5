// Auto-read's public surface: what the app composes and what other features may use. Everything else in this
// folder is auto-read's own.
import './strings.ts';
export { AutoreadWiring } from './autoread-wiring.ts';
export type { AutoreadControl } from './autoread-control.ts';
export { AUTOREAD_INTENTS, MESSAGE_CONTENT_WHERE } from './gateway-intents.ts';
export { autoreadVoiceOf } from './reading/voice.ts';
export { AUTO_READ_FORGET_RULES, AUTO_READ_VOICE_ROWS, autoReadAreas } from './store/store-areas.ts';
export { AUTO_READ_SCHEMA_STEPS } from './store/schema-steps.ts';
export { describeAutoreadVoice, describeMembers, describePool, voiceLabel } from './autoread-members.ts';
export { describeSettings, settingChangesFrom, settingChangesOf, withSettingOptions } from './autoread-settings.ts';
export { IGNORED_MAX } from './reading/binding.ts';
export { VOICE_POOL_MAX, defaultPool, parsePoolEntry, poolLanguage } from './reading/voice-pool.ts';
export { type AutoReadState } from './store/auto-read-store.ts';
export type { DictionaryRecord } from './store/dictionary-store.ts';
export {
  GROWTH_ALLOWANCE,
  MAX_ENTRIES,
  MAX_GROWTH_FACTOR,
  MAX_PATTERN_LENGTH,
  MAX_READING_LENGTH,
  MAX_WORD_LENGTH,
} from './dictionary/dictionary-limits.ts';
export {
  exportDictionary,
  importDictionary,
  isPattern,
  readDictionaryFile,
  type DictionaryEntry,
  type DictionaryProblem,
  type EntryName,
} from './dictionary/dictionary.ts';
export { dictionaryOf, speakMessageWords, speakableMessage, storedDictionary } from './speak-message.ts';
export {
  DICTIONARY_CHANGED_EVENT,
  MAX_IMPORT_BYTES,
  describeDictionaryProblem,
  refreshDictionary,
} from './dictionary-changes.ts';
export { DictionaryUnavailableError, readingWouldBeCutOffThread } from './dictionary/dictionary-thread.ts';
export { MEMBER_READING_LIST, type MemberReading } from './reading/member-reading.ts';
export { AUTO_READ_SETTING_LIST } from './setting-declarations.ts';
export { AUTOREAD_CHANGED_EVENT, refreshAutoread } from './autoread-changes.ts';
