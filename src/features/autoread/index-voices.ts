// Auto-read's voices, for /autoread, /myvoice, the dashboard and a scene's cast: the server's pool and each member's.
import './strings.ts';
export { autoreadVoiceOf } from './reading/voice.ts';
export { describeAutoreadVoice, describeMembers, describePool, voiceLabel } from './autoread-members.ts';
export { VOICE_POOL_MAX, defaultPool, parsePoolEntry, poolLanguage } from './reading/voice-pool.ts';
