// The local Voice API: real HTTP, real audio. See this package's README.md and server.ts.
export { DEFAULT_VARIANTS, startSandbox } from './server.ts';
export type { Pacing, Variants, RequestOutcome, RequestRecord, Sandbox, SandboxOptions } from './server.ts';
export type { Endpoint, Fault, FaultKind } from './faults.ts';
export type { SandboxLogger } from './log.ts';
export { wordsAvailable } from './words.ts';
export { PLAN_LIMITS, planHasApiAccess } from './keys.ts';
export type { NewKey, Plan } from './keys.ts';
export { MP3_DAMAGES, WAV_HEADER_FORMS } from './synth.ts';
export type { Mp3Damage, WavHeaderForm } from './synth.ts';
export { DEFAULT_EMOTION_VOICE, FIXTURE_TONES_HZ, PRESET_VOICES, presetVoice } from './voices.ts';
export type { PresetVoice, VoiceGender } from './voices.ts';
