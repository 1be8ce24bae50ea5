// What a speech request becomes at the Voice API, built from the settings' declarations
// (src/core/settings/setting-declarations.ts):
// the body sent (each setting under its wire name, on the endpoints that take it), and the cache key of its audio
// (requests equal in every setting sent sound the same, so share one cache entry).
import type { EmotionTtsRequest, TtsRequest } from '../api/index.ts';
import { cacheKey } from '../cache/audio-cache.ts';
import type { ServiceRequest, SpeechRequest } from '../settings/speech-request.ts';
import { freeVoiceFor, isFreeVoice } from '../free-voice/free-voices.ts';
import { readingChanges } from '../free-voice/reading/read-line.ts';
import { SENT_SETTINGS, type SentSettingName } from '../settings/setting-declarations.ts';

type Sent = string | number | undefined;

/** The request's value of each setting sent (undefined: not set). */
const sentValues = (request: ServiceRequest): { readonly [K in SentSettingName]?: Sent } => request;

/** The endpoint that speaks a request. */
export const endpointOf = (request: SpeechRequest): 'tts' | 'emotion-tts' =>
  request.kind === 'emotion' ? 'emotion-tts' : 'tts';

/**
 * The free voice's stand-in for a paid request (FREE_VOICE fallback): the closest free voice (free-voices.ts
 * freeVoiceFor), the same text and SayBot's effects, as WAV (what the free voice makes).
 */
export function freeStandIn(request: ServiceRequest): ServiceRequest {
  const voice = freeVoiceFor(request.voice, request.language);
  return {
    kind: 'tts',
    text: request.text,
    voice,
    format: 'wav',
    ...(request.effects ? { effects: request.effects } : {}),
  };
}

/** The body of the call that speaks `text` (one part of the request). */
export function serviceBody(
  request: ServiceRequest,
  text: string,
): { endpoint: 'tts'; body: TtsRequest } | { endpoint: 'emotion-tts'; body: EmotionTtsRequest } {
  const body: Record<string, Sent> = { text };
  for (const [name, declared] of SENT_SETTINGS) {
    const field = declared.wire[request.kind];
    if (field !== undefined) body[field] = sentValues(request)[name];
  }
  // The client checks each body against the service's schema before it is sent (src/core/api/schemas.ts).
  return request.kind === 'emotion'
    ? { endpoint: 'emotion-tts', body: body as EmotionTtsRequest }
    : { endpoint: 'tts', body: body as TtsRequest };
}

/**
 * The free voice's reading of lines (src/core/free-voice/reading/), in the key of the lines it reads otherwise than
 * eSpeak NG read them whole: their audio cached before is not heard again. Bumped when a reading changes (2: long
 * unspaced runs given in shorter words and clauses, whose end eSpeak NG dropped: their cut audio is not replayed).
 */
const FREE_READING = 'free-reading-2';

/** The cache key of the service's audio for `text` spoken as `request` asks. */
export function partCacheKey(request: ServiceRequest, text: string): string {
  const sent = SENT_SETTINGS.map(([name, declared]) =>
    declared.wire[request.kind] === undefined ? null : (sentValues(request)[name] ?? null),
  );
  const read = isFreeVoice(request.voice) && readingChanges(text, request.voice);
  return cacheKey(endpointOf(request), text, read ? [...sent, FREE_READING] : sent);
}
