// The engines' voices as SayBot names them: `voicevox:<style id>` and `speech:<name>`, and what an ID says (a pure
// test, usable anywhere without the engines). An engine is the owner's, but its answer is still untrusted input: at most
// MAX_VOICES_PER_ENGINE voices (engine-clients.ts), names cut to MAX_VOICE_NAME characters with control characters
// removed, IDs of a fixed shape.

/** Which engine: `voicevox` (VOICEVOX_URL) or `speech` (SPEECH_SERVER_URL). Also the voice ID's prefix. */
export type EngineName = 'voicevox' | 'speech';

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
export const MAX_VOICE_NAME = 80;

/** A VOICEVOX style ID: a whole number (AivisSpeech's are 32-bit). */
export const STYLE_ID = /^\d{1,10}$/;
/** A speech server's voice name: Kokoro's `af_heart`, a mix `af_bella+af_sky`, a weighted `af_bella(2)+af_sky(1)`. */
export const SPEECH_VOICE_NAME = /^[A-Za-z0-9_.+()-]{1,64}$/;

/** Whether `id` is syntactically an engine's voice ID, and which engine's; undefined: it is not one. */
export function parseEngineVoiceId(id: string): Pick<EngineVoice, 'engine' | 'engineVoice'> | undefined {
  const colon = id.indexOf(':');
  if (colon < 0) return undefined;
  const prefix = id.slice(0, colon);
  const rest = id.slice(colon + 1);
  if (prefix === 'voicevox' && STYLE_ID.test(rest) && Number(rest) <= 0xffff_ffff)
    return { engine: 'voicevox', engineVoice: rest };
  if (prefix === 'speech' && SPEECH_VOICE_NAME.test(rest)) return { engine: 'speech', engineVoice: rest };
  return undefined;
}

export const isEngineVoiceId = (id: string): boolean => parseEngineVoiceId(id) !== undefined;

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
  const parsed = parseEngineVoiceId(id);
  if (parsed === undefined) return undefined;
  return parsed.engine === 'voicevox' ? 'ja' : kokoroLanguage(parsed.engineVoice);
}
