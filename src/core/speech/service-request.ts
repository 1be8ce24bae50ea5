// What a speech request becomes at the Voice API: the body sent, and the cache key of its audio (requests equal in
// what the service is sent sound the same, so share one cache entry).
import type { EmotionTtsRequest, TtsRequest } from '../api/index.ts';
import { cacheKey } from '../cache/cache-key.ts';
import type { SpeechRequest } from './request.ts';

/** A request the service answers (not audio already in hand). */
export type ServiceRequest = Exclude<SpeechRequest, { kind: 'ready' }>;

/** The body of the call that speaks `text` (one part of the request). */
export function serviceBody(
  request: ServiceRequest,
  text: string,
): { endpoint: 'tts'; body: TtsRequest } | { endpoint: 'emotion-tts'; body: EmotionTtsRequest } {
  if (request.kind === 'emotion')
    return { endpoint: 'emotion-tts', body: { text, voice: request.voice, exaggeration: request.exaggeration } };
  return {
    endpoint: 'tts',
    body: {
      text,
      voice_id: request.voice,
      output_format: request.format,
      language: request.language,
      tone_instruction: request.tone,
    },
  };
}

/** The cache key of the service's audio for `text` spoken as `request` asks. */
export function partCacheKey(request: ServiceRequest, text: string): string {
  if (request.kind === 'emotion')
    return cacheKey({ endpoint: 'emotion-tts', text, voice: request.voice, exaggeration: request.exaggeration });
  return cacheKey({
    endpoint: 'tts',
    text,
    voice: request.voice,
    format: request.format,
    language: request.language,
    tone: request.tone,
  });
}
