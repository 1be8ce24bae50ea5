// A request made of the settings that apply, and what each part of it becomes at the Voice API, built from the
// settings' declarations (src/core/settings/setting-declarations.ts): the body sent (each setting under its wire name,
// on the endpoints that take it), the effects SayBot applies and whether they change the audio at all, and the cache
// key of its audio (requests equal in every setting sent sound the same, so share one cache entry).
import { createHash } from 'node:crypto';
import { isFreeVoice } from '../voice-catalogue/voices.ts';
import type { EmotionTtsRequest, TtsRequest } from '../api/client.ts';
import type { ResolvedSettings, SentSettings, ServiceRequest, SpeechRequest } from '../settings/speech-request.ts';
import { changesAudio, type AudioEffects } from '../audio/effects/effect-types.ts';
import { readingChanges } from '../free-voice/reading/read-line.ts';
import {
  quantisePitch,
  quantiseSpeed,
  quantiseVolumeDb,
  SENT_SETTINGS,
  type SentSettingName,
  type SpeechEndpoint,
} from '../settings/setting-declarations.ts';

type Sent = string | number | undefined;

/** The request's value of each setting sent (undefined: not set). */
const sentValues = (request: ServiceRequest): { readonly [K in SentSettingName]?: Sent } => request;

/** A text-to-speech request for `text` with the settings that apply (/say's; /emote makes its own). */
export function ttsRequest(text: string, settings: ResolvedSettings): SpeechRequest {
  return { kind: 'tts', text, ...sentSettingsOf(settings, 'tts'), format: settings.format, ...effectsOf(settings) };
}

/** The settings an endpoint is sent, of those that apply (each declared with its wire name there). */
export function sentSettingsOf(settings: ResolvedSettings, endpoint: SpeechEndpoint): { voice: string } & SentSettings {
  const sent = SENT_SETTINGS.filter(([, declared]) => declared.wire[endpoint] !== undefined);
  return { ...Object.fromEntries(sent.map(([name]) => [name, settings[name]])), voice: settings.voice };
}

/** Speed, volume and pitch as `effects`, in audible steps, left out when they change nothing. */
export function effectsOf(settings: Pick<ResolvedSettings, 'speed' | 'volume' | 'pitch'>): { effects?: AudioEffects } {
  const effects = quantiseEffects({ speed: settings.speed, volumeDb: settings.volume, pitch: settings.pitch });
  return changesAudio(effects) ? { effects } : {};
}

/** Effects in the steps a listener hears (setting-declarations.ts); an unshifted pitch is none. */
export function quantiseEffects(effects: AudioEffects): AudioEffects {
  const pitch = quantisePitch(effects.pitch ?? 0);
  return {
    speed: quantiseSpeed(effects.speed),
    volumeDb: quantiseVolumeDb(effects.volumeDb),
    ...(pitch === 0 ? {} : { pitch }),
  };
}

/** The endpoint that speaks a request. */
export const endpointOf = (request: SpeechRequest): 'tts' | 'emotion-tts' =>
  request.kind === 'emotion' ? 'emotion-tts' : 'tts';

type ServiceBody = { endpoint: 'tts'; body: TtsRequest } | { endpoint: 'emotion-tts'; body: EmotionTtsRequest };

/** The body of the call that speaks `text` (one part of the request). */
export function serviceBody(request: ServiceRequest, text: string): ServiceBody {
  const body: Record<string, Sent> = { text };
  for (const [name, declared] of SENT_SETTINGS) {
    const field = declared.wire[request.kind];
    if (field !== undefined) body[field] = sentValues(request)[name];
  }
  // The client checks each body against the service's schema before it is sent (src/core/api/client.ts).
  return { endpoint: endpointOf(request), body } as ServiceBody;
}

/** The text as its key has it: NFC, trimmed, each run of whitespace one space (the same words spaced otherwise hit). */
function normaliseText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** The key of the audio an endpoint makes of `text` with the settings `sent`. */
export function cacheKey(
  endpoint: 'tts' | 'emotion-tts',
  text: string,
  sent: ReadonlyArray<string | number | null>,
): string {
  // A JSON array, not a joined string: no choice of text can make two different requests collide.
  return createHash('sha256')
    .update(JSON.stringify(['v1', endpoint, normaliseText(text), ...sent]))
    .digest('hex');
}

/** From the original's key, so another speed of a text pays nothing again (unshifted: the key from before pitch). */
export function effectsKey(originalKey: string, effects: { speed: number; volumeDb: number; pitch?: number }): string {
  const pitch = effects.pitch ?? 0;
  return createHash('sha256')
    .update(JSON.stringify(['fx1', originalKey, effects.speed, effects.volumeDb, ...(pitch === 0 ? [] : [pitch])]))
    .digest('hex');
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
  // An engine's own controls change its audio: each its own entry.
  const engine = request.engine === undefined ? [] : ['engine', effectsKey('', request.engine)];
  return cacheKey(endpointOf(request), text, [...sent, ...(read ? [FREE_READING] : []), ...engine]);
}

/** The request the service is sent for a part, whatever SayBot does to its audio afterwards. */
export function withoutEffects<R extends ServiceRequest>(request: R): R {
  if (request.effects === undefined) return request;
  const { effects: _effects, ...rest } = request;
  return rest as R;
}
