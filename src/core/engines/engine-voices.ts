// The voices the engines offer, as SayBot names them (what an ID says: src/core/voice-catalogue/voices.ts), read from
// each engine's list (fetched in engines.ts). An engine is the owner's, but its answer is still untrusted input:
// at most MAX_VOICES_PER_ENGINE voices, names cut to MAX_VOICE_NAME characters with control characters removed, IDs
// of a fixed shape.
import { parseEngineVoiceId, SPEECH_VOICE_NAME, STYLE_ID, type EngineName } from '../voice-catalogue/voices.ts';
import type { ListedSpeechVoice } from './engine-settings.ts';

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
