// Auto-read's public surface: what the app composes and what other features may use. Everything else in this
// folder is auto-read's own.
export { AutoreadWiring } from './autoread-wiring.ts';
export type { AutoreadControl } from './autoread-control.ts';
export { AUTOREAD_INTENTS, MESSAGE_CONTENT_WHERE } from './gateway-intents.ts';
export { describeAutoreadVoice } from './autoread-members.ts';
export { autoreadVoiceOf } from './reading/voice.ts';
export { AUTO_READ_FORGET_RULES, AUTO_READ_VOICE_ROWS, autoReadAreas } from './store/store-areas.ts';
