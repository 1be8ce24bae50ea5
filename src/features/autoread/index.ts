// Auto-read's public surface: what the app composes and its settings, as /autoread and the dashboard use them; its
// voices (index-voices.ts) and its dictionary (index-dictionary.ts) have surfaces of their own. Everything else in
// this folder is auto-read's own.
import './strings.ts';
export { AUTOREAD_CHANGED_EVENT, AutoreadWiring } from './autoread-wiring.ts';
export { AUTOREAD_INTENTS, MESSAGE_CONTENT_WHERE } from './gateway-intents.ts';
export { describeSettings, settingsChanged, withSettingOptions } from './autoread-settings.ts';
export { settingChangesFrom, settingChangesOf } from './autoread-settings.ts';
export { IGNORED_MAX } from './reading/binding.ts';
export { AUTO_READ_BINDINGS_MAX, type AutoReadState } from './store/auto-read-store.ts';
export { MEMBER_READING_LIST, type MemberReading } from './reading/member-reading.ts';
export { AUTO_READ_SETTING_LIST } from './setting-declarations.ts';
