// What SayBot asks of each engine over HTTP (the exchange, what it takes for an answer: engine-http.ts): its voice
// list read into the voices SayBot offers, and a line said with SayBot's effects (0.5..2 times as fast, -12..+12
// semitones, -20..+6 dB: src/core/settings/setting-declarations.ts) on the engine's own controls, which render them
// better than an effect on its audio; what it has no control for, SayBot applies itself (src/core/audio/effects/).
// VOICEVOX ENGINE (and what speaks its API: AivisSpeech Engine, SHAREVOX): `GET /speakers`, then a line as
// `POST /audio_query?text=&speaker=` and `POST /synthesis?speaker=` with that query, SayBot's effects set in it
// (voicevoxScales, below). An OpenAI-compatible speech server (Kokoro-FastAPI, speaches, openedai-speech, LocalAI):
// `GET {base}/audio/voices` (many have none: 404) and `POST {base}/audio/speech`, with its bearer token when the owner
// set one; it has `speed` (0.25..4) alone: SayBot's speed as it is; pitch and volume are SayBot's to apply.
import { engineOf, SPEECH_VOICE_NAME, STYLE_ID, type EngineName } from '../voice-catalogue/voices.ts';
import { changesAudio, type AudioEffects } from '../audio/effects/effect-types.ts';
import type { EnginesConfig, ListedSpeechVoice } from './engine-settings.ts';
import type { ServiceRequest } from '../settings/speech-request.ts';
import { EngineError, EngineExchange, NOT_LISTED, type EngineDeadlines } from './engine-http.ts';

/** SayBot's effects for one line, each as its member set it (absent: unset). */
export type EngineControls = Partial<AudioEffects>;

/** Of SayBot's effects, those each engine renders itself: VOICEVOX all three, a speech server the speed alone. */
const ENGINE_APPLIES: Readonly<Record<EngineName, ReadonlyArray<keyof AudioEffects>>> = Object.freeze({
  voicevox: Object.freeze(['speed', 'pitch', 'volumeDb'] as const),
  speech: Object.freeze(['speed'] as const),
});

/**
 * Which of a member's effects an engine voice's line is sent with (`engine`, rendered by the engine's own controls,
 * part of its cache key) and which SayBot applies to its audio (`effects`); each absent where it changes nothing.
 */
export function splitEffects(
  engine: EngineName,
  effects: AudioEffects,
): { engine?: AudioEffects; effects?: AudioEffects } {
  const controls = ENGINE_APPLIES[engine];
  /** The effects the engine applies (`byEngine`), or those it leaves to SayBot. */
  const part = (byEngine: boolean): AudioEffects => ({
    speed: controls.includes('speed') === byEngine ? effects.speed : 1,
    volumeDb: controls.includes('volumeDb') === byEngine ? effects.volumeDb : 0,
    ...(controls.includes('pitch') === byEngine && effects.pitch !== undefined ? { pitch: effects.pitch } : {}),
  });
  const [byEngine, bySayBot] = [part(true), part(false)];
  return {
    ...(changesAudio(byEngine) ? { engine: byEngine } : {}),
    ...(changesAudio(bySayBot) ? { effects: bySayBot } : {}),
  };
}

/** An engine voice's request with the member's effects split (splitEffects); any other, or one split already, as is. */
export function engineControlled<R extends Pick<ServiceRequest, 'voice' | 'effects' | 'engine'>>(request: R): R {
  const { effects, ...rest } = request;
  const engine = engineOf(request.voice)?.engine;
  if (engine === undefined || effects === undefined || request.engine !== undefined) return request;
  return { ...rest, ...splitEffects(engine, effects) } as R;
}

export type EngineClient = VoicevoxClient | SpeechServerClient;

/** A line's WAV, checked at the door, and the effects its engine rendered (SayBot applies the others). */
export type SpokenWav = Awaited<ReturnType<EngineExchange['wav']>> & { applies: ReadonlyArray<keyof AudioEffects> };

/** Each client's engine is at a base URL, never with credentials (config refuses them). */
export class VoicevoxClient extends EngineExchange {
  readonly url: string;

  constructor(url: string, deadlines: EngineDeadlines) {
    super('voicevox', deadlines);
    this.url = url;
  }

  /** The voices the engine offers now, bounded and cleaned. */
  async fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]> {
    const answer = await this.json({ method: 'GET', url: `${this.url}/speakers`, signal }, 'its voice list');
    if (!Array.isArray(answer))
      throw new EngineError('voicevox', 'bad-answer', 'its voice list (GET /speakers) is not a list of speakers');
    return voicevoxVoices(answer);
  }

  async synthesize(
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    signal?: AbortSignal,
  ): Promise<SpokenWav> {
    const speaker = encodeURIComponent(voice.engineVoice);
    const query = await this.json(
      {
        method: 'POST',
        url: `${this.url}/audio_query?text=${encodeURIComponent(text)}&speaker=${speaker}`,
        headers: { accept: 'application/json' },
        signal,
      },
      'its audio query',
    );
    if (typeof query !== 'object' || query === null || Array.isArray(query))
      throw new EngineError('voicevox', 'bad-answer', 'its audio query is not a query object');
    const wav = await this.wav(
      {
        method: 'POST',
        url: `${this.url}/synthesis?speaker=${speaker}`,
        headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ ...query, ...voicevoxScales(controls) }),
        signal,
      },
      'its synthesis',
    );
    return { ...wav, applies: ENGINE_APPLIES.voicevox };
  }
}

export class SpeechServerClient extends EngineExchange {
  readonly url: string;
  readonly #key: string | undefined;
  readonly #model: string;
  readonly #listed: readonly ListedSpeechVoice[] | undefined;

  constructor(options: NonNullable<EnginesConfig['speechServer']>, deadlines: EngineDeadlines) {
    super('speech', deadlines);
    this.url = options.url;
    this.#key = options.key;
    this.#model = options.model;
    this.#listed = options.voices;
  }

  #headers(extra: Record<string, string>): Record<string, string> {
    return this.#key === undefined ? extra : { ...extra, authorization: `Bearer ${this.#key}` };
  }

  /** The voices the server lists (or the owner's list), bounded and cleaned. */
  async fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]> {
    const answer = await this.json(
      {
        method: 'GET',
        url: `${this.url}/audio/voices`,
        headers: this.#headers({ accept: 'application/json' }),
        signal,
      },
      'its voice list',
      { notFound: true },
    );
    return speechVoices(answer === NOT_LISTED ? undefined : listedNames(answer), this.#listed);
  }

  async synthesize(
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    signal?: AbortSignal,
  ): Promise<SpokenWav> {
    const body = {
      model: this.#model,
      input: text,
      voice: voice.engineVoice,
      response_format: 'wav',
      speed: speechServerSpeed(controls),
    };
    const wav = await this.wav(
      {
        method: 'POST',
        url: `${this.url}/audio/speech`,
        headers: this.#headers({ 'content-type': 'application/json', accept: 'audio/wav' }),
        body: JSON.stringify(body),
        signal,
      },
      'its speech',
    );
    return { ...wav, applies: ENGINE_APPLIES.speech };
  }
}

// The voices the engines offer, as SayBot names them (what an ID says: src/core/voice-catalogue/voices.ts), read from
// each engine's list. An engine is the owner's, but its answer is still untrusted input: at most MAX_VOICES_PER_ENGINE
// voices, names cut to MAX_VOICE_NAME characters with control characters removed, IDs of a fixed shape.

/** One voice an engine offers now, as SayBot names it. */
export interface EngineVoice {
  /** What members choose: `voicevox:<style id>` or `speech:<name>` (below). */
  readonly id: string;
  readonly engine: EngineName;
  /** What the engine is sent: the style ID (VOICEVOX) or the voice's name (speech server). */
  readonly engineVoice: string;
  /** For people: "<speaker> (<style>)" for a VOICEVOX style, the voice's name for a speech server's. */
  readonly name: string;
  /** ISO 639-1 code; undefined when neither the owner nor the name says. */
  readonly language: string | undefined;
  /** What the engine's terms ask to be shown with the voice (`VOICEVOX:<speaker>`); undefined: none. */
  readonly credit: string | undefined;
}

export const MAX_VOICES_PER_ENGINE = 500;
const MAX_VOICE_NAME = 80;

/** A name from an engine, for people: control and format characters removed, spaces folded, cut to its bound. */
export function cleanName(raw: unknown, max = MAX_VOICE_NAME): string {
  if (typeof raw !== 'string') return '';
  const clean = raw
    .slice(0, max * 4)
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

/** Kokoro's voice names start with their language: `af_heart` is American English, `jf_alpha` Japanese. */
const KOKORO_LANGUAGES: Readonly<Record<string, string>> = {
  a: 'en',
  b: 'en',
  e: 'es',
  f: 'fr',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt',
  z: 'zh',
};

/** The language a speech server's voice name says in Kokoro's way (`<language><gender>_<name>`); else undefined. */
export function kokoroLanguage(name: string): string | undefined {
  const match = /^([a-z])[fm]_/.exec(name);
  return match === null ? undefined : KOKORO_LANGUAGES[match[1]!];
}

/** The language an engine voice's ID says: VOICEVOX's are Japanese, a speech server's as its name says (Kokoro's way). */
export function engineVoiceLanguage(id: string): string | undefined {
  const parsed = engineOf(id);
  if (parsed === undefined) return undefined;
  return parsed.engine === 'voicevox' ? 'ja' : kokoroLanguage(parsed.engineVoice);
}

/** VOICEVOX's `GET /speakers`: each speaker's styles, each a voice `voicevox:<style id>` in Japanese, credited
 * `VOICEVOX:<speaker>`. Whatever does not have that shape is left out; the first of a repeated style ID is kept. */
export function voicevoxVoices(answer: unknown): EngineVoice[] {
  const voices = new Map<string, EngineVoice>();
  if (!Array.isArray(answer)) return [];
  for (const speaker of answer.slice(0, MAX_VOICES_PER_ENGINE) as unknown[]) {
    if (typeof speaker !== 'object' || speaker === null) continue;
    const { name, styles } = speaker as { name?: unknown; styles?: unknown };
    const speakerName = cleanName(name, MAX_VOICE_NAME / 2);
    if (speakerName === '' || !Array.isArray(styles)) continue;
    for (const style of styles.slice(0, MAX_VOICES_PER_ENGINE) as unknown[]) {
      if (voices.size >= MAX_VOICES_PER_ENGINE) return [...voices.values()];
      if (typeof style !== 'object' || style === null) continue;
      const { id, name: styleName, type } = style as { id?: unknown; name?: unknown; type?: unknown };
      // Singing styles (`type` sing or frame_decode) cannot read text.
      if (type !== undefined && type !== 'talk') continue;
      const styleId = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? String(id) : undefined;
      if (styleId === undefined || !STYLE_ID.test(styleId) || voices.has(styleId)) continue;
      const label = cleanName(styleName, MAX_VOICE_NAME / 2);
      voices.set(styleId, {
        id: `voicevox:${styleId}`,
        engine: 'voicevox',
        engineVoice: styleId,
        name: label === '' ? speakerName : `${speakerName} (${label})`,
        language: 'ja',
        credit: `VOICEVOX:${speakerName}`,
      });
    }
  }
  return [...voices.values()];
}

/** The names in a speech server's `GET /audio/voices`: `{ voices: [...] }` or a bare array, of names or objects. */
export function listedNames(answer: unknown): string[] {
  const list = Array.isArray(answer) ? answer : (answer as { voices?: unknown } | null)?.voices;
  if (!Array.isArray(list)) return [];
  const names: string[] = [];
  for (const entry of list.slice(0, MAX_VOICES_PER_ENGINE * 2) as unknown[]) {
    const record = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const named = typeof entry === 'string' ? entry : (record['voice_id'] ?? record['id'] ?? record['name']);
    if (typeof named === 'string' && SPEECH_VOICE_NAME.test(named)) names.push(named);
  }
  return names;
}

/** A speech server's voices: those it lists (undefined: it lists none, 404), restricted to and labelled by
 * SPEECH_SERVER_VOICES when the owner set it; the owner's list alone when the server lists none. */
export function speechVoices(listed: readonly string[] | undefined, owners: readonly ListedSpeechVoice[] | undefined) {
  const byName = new Map((owners ?? []).map((voice) => [voice.name, voice]));
  const names = listed === undefined ? [...byName.keys()] : listed.filter((n) => owners === undefined || byName.has(n));
  const voices = new Map<string, EngineVoice>();
  for (const name of names) {
    if (voices.size >= MAX_VOICES_PER_ENGINE) break;
    if (voices.has(name) || !SPEECH_VOICE_NAME.test(name)) continue;
    voices.set(name, {
      id: `speech:${name}`,
      engine: 'speech',
      engineVoice: name,
      name,
      language: byName.get(name)?.language ?? kokoroLanguage(name),
      credit: undefined,
    });
  }
  return [...voices.values()];
}

// VOICEVOX's query, SayBot's effects set in it:
// - `speedScale` is a factor on the phoneme lengths: SayBot's speed as it is (1 = as the voice speaks).
// - `volumeScale` multiplies the samples: 10^(dB/20) (-20 dB = 0.1, +6 dB = 2.0, the ends of its editor's 0..2).
// - `pitchScale` multiplies each mora's pitch, which is the natural log of its F0 in Hz, by 2^pitchScale. A shift of
//   n semitones multiplies F0 by 2^(n/12), that is adds n·ln2/12 to its log: at a typical speaking F0 of about 245 Hz
//   (log 5.5) that is 2^pitchScale = 1 + n·ln2/(12·5.5), so ±12 semitones are about +0.17 and -0.19 (its editor's
//   range, ±0.15, is about ±10 semitones). Exact at 245 Hz, within a semitone for any speaking voice between 100 and
//   500 Hz.

type VoicevoxScales = Partial<Record<'speedScale' | 'pitchScale' | 'volumeScale', number>>;

/** log(F0) of a typical speaking voice, the mean VOICEVOX's pitches sit around. */
const TYPICAL_LOG_F0 = 5.5;
const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** VOICEVOX's query fields for SayBot's effects: only those set (a field left out keeps the query's own). */
export function voicevoxScales(controls: EngineControls): VoicevoxScales {
  const scales: VoicevoxScales = {};
  if (controls.speed !== undefined && controls.speed !== 1) scales.speedScale = round(controls.speed);
  if (controls.pitch !== undefined && controls.pitch !== 0)
    scales.pitchScale = round(Math.log2(1 + (controls.pitch * Math.LN2) / (12 * TYPICAL_LOG_F0)));
  if (controls.volumeDb !== undefined && controls.volumeDb !== 0)
    scales.volumeScale = round(10 ** (controls.volumeDb / 20));
  return scales;
}

/** The speech server's `speed` (1 when SayBot's is unset). */
export function speechServerSpeed(controls: EngineControls): number {
  return round(controls.speed ?? 1);
}
