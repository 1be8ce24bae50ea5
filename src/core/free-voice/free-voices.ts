// The free voices: eSpeak NG's, spoken by SayBot itself (free-voice-engine.ts), never by the Voice API, so they cost
// no characters. A voice per language SayBot speaks and a female and a male variant of each, named `free-<language>-
// <f|m>` so that members can pick one as they pick a preset voice.
import { PRESET_VOICE_ID } from '../voice-catalogue/preset-voices.ts';
import { isEngineVoiceId } from '../engines/engine-voices.ts';

export interface FreeVoice {
  /** What members choose (`/say voice:free-en-f`). */
  readonly id: string;
  /** The language it reads (ISO 639-1). */
  readonly language: string;
  /** eSpeak NG's voice and variant (`en-us+f3`). */
  readonly espeak: string;
}

const voice = (language: string, espeak: string, female: string, male: string): FreeVoice[] => [
  { id: `free-${language}-f`, language, espeak: `${espeak}+${female}` },
  { id: `free-${language}-m`, language, espeak: `${espeak}+${male}` },
];

export const FREE_VOICES: readonly FreeVoice[] = [
  ...voice('en', 'en-us', 'f3', 'm3'),
  ...voice('ko', 'ko', 'f2', 'm3'),
  ...voice('ja', 'ja', 'f2', 'm3'),
  ...voice('zh', 'cmn', 'f2', 'm3'),
  ...voice('es', 'es', 'f3', 'm3'),
  ...voice('fr', 'fr', 'f3', 'm3'),
  ...voice('de', 'de', 'f3', 'm3'),
];

const BY_ID = new Map(FREE_VOICES.map((free) => [free.id, free]));

/** The free voice of this ID, if it is one. */
export function freeVoice(id: string): FreeVoice | undefined {
  return BY_ID.get(id);
}

/** Whether `id` is one of eSpeak NG's voices, which SayBot speaks itself. */
export const isEspeakVoice = (id: string): boolean => BY_ID.has(id);

/**
 * Whether `id` has the shape of an engine's voice (`voicevox:<style id>`, `speech:<name>`): the owner's own speech
 * engines (src/core/engines/), free like eSpeak NG's voices. Whether an engine offers it now is the engines' to say.
 */
export const isEngineVoice = isEngineVoiceId;

/** Whether a voice costs no characters: eSpeak NG's or an engine's. */
export const isFreeVoice = (id: string): boolean => BY_ID.has(id) || isEngineVoiceId(id);

/**
 * The free voice closest to a paid one, of the preset voice's gender (its ID's f or m; else female): of `language`
 * (`ko-KR` reads as `ko`) if a free voice speaks it, else of the preset voice's own language, else English. What the
 * sandbox speaks words in, and what SayBot falls back on.
 */
export function freeVoiceFor(voice: string | undefined, language: string | undefined): string {
  const preset = PRESET_VOICE_ID.exec(voice ?? '');
  const gender = preset?.[2] ?? 'f';
  for (const wanted of [language?.split('-')[0]?.toLowerCase(), preset?.[1]]) {
    const id = `free-${wanted}-${gender}`;
    if (wanted !== undefined && BY_ID.has(id)) return id;
  }
  return `free-en-${gender}`;
}
