// Local doubles of two speech-engine APIs: real HTTP, real audio, faults. See this package's README.md.
export { startVoicevoxDouble, accentPhrases, MORA_SECONDS } from './voicevox.ts';
export type { VoicevoxDouble, VoicevoxDoubleOptions } from './voicevox.ts';
export { startSpeechServerDouble } from './speech-server.ts';
export type { SpeechServerDouble, SpeechServerDoubleOptions } from './speech-server.ts';
export type { EngineDouble, DoubleOptions } from './double.ts';
export { HUGE_BYTES } from './double.ts';
export { FAULT_NAMES, FaultSwitch, MOST_SLOW_MS, parseFault } from './faults.ts';
export type { CurrentFault, Fault, FaultName, FaultSetting } from './faults.ts';
export type { DoubleRequest } from './requests.ts';
export {
  DEFAULT_SPEECH_VOICES,
  DEFAULT_VOICEVOX_SPEAKERS,
  SPEECH_BASE_HZ,
  speechVoicePitchHz,
  VOICEVOX_BASE_HZ,
  voicevoxStylePitchHz,
} from './voices.ts';
export type { SpeechVoice, VoicevoxSpeaker, VoicevoxStyle } from './voices.ts';
export { wordsAvailable } from './words.ts';
