export {
  VoiceApiClient,
  DEFAULT_TIMEOUTS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  type VoiceApiClientOptions,
  type Timeouts,
  type CallOptions,
  type CallControl,
  type Acceptance,
  type AccessCheck,
  type AudioResponse,
  type CloneVoiceResponse,
} from './client.ts';
export * from './errors.ts';
export type { TtsRequest, EmotionTtsRequest, CloneVoiceRequest, RefAudio } from './schemas.ts';
export type { KeyAnswer, KeyStateSnapshot } from './response.ts';
