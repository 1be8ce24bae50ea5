// What a speech request becomes at the Voice API, built from the settings' declarations (setting-declarations.ts):
// the body sent (each setting under its wire name, on the endpoints that take it), and the cache key of its audio
// (requests equal in every setting sent sound the same, so share one cache entry).
import type { EmotionTtsRequest, TtsRequest } from '../api/index.ts';
import { cacheKey } from '../cache/cache-key.ts';
import type { SpeechRequest } from './request.ts';
import { SENT_SETTINGS, type SentSettingName } from './setting-declarations.ts';

/** A request the service answers (not audio already in hand). */
export type ServiceRequest = Exclude<SpeechRequest, { kind: 'ready' }>;

type Sent = string | number | undefined;

/** The request's value of each setting sent (undefined: not set). */
const sentValues = (request: ServiceRequest): { readonly [K in SentSettingName]?: Sent } => request;

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

/** The cache key of the service's audio for `text` spoken as `request` asks. */
export function partCacheKey(request: ServiceRequest, text: string): string {
  const sent = SENT_SETTINGS.map(([name, declared]) =>
    declared.wire[request.kind] === undefined ? null : (sentValues(request)[name] ?? null),
  );
  return cacheKey(request.kind === 'emotion' ? 'emotion-tts' : 'tts', text, sent);
}
