// The voices a member picks, told apart by their IDs: the service's preset voices (`voice-b-<language>-<f|m>-<NN>`),
// eSpeak NG's free voices (`free-<language>-<f|m>`), the owner's engines' (`voicevox:<style id>`, `speech:<name>`);
// any other ID is a voice cloned on the service; what an ID says, never whether it may be used here
// (src/core/sourcing/voice-choice.ts). Also the languages a request may name.

/** A preset voice ID: `voice-b-<language>-<f|m>-<NN>` (voice-api.md, "Voices"). */
export const PRESET_VOICE_ID = /^voice-b-([a-z]{2,3})-([fm])-(\d{2})$/;

export interface PresetVoice {
  id: string;
  language: string;
  gender: 'f' | 'm';
  /** What the service says of it (English; shown in the catalogue). */
  character: string;
}

/** The six presets the service documents; the other 35 are unpublished (an operator may list them later). */
export const DOCUMENTED_VOICES: readonly PresetVoice[] = [
  { id: 'voice-b-ko-f-01', language: 'ko', gender: 'f', character: 'bright, friendly female' },
  { id: 'voice-b-ko-m-01', language: 'ko', gender: 'm', character: 'calm male narrator' },
  { id: 'voice-b-ja-f-01', language: 'ja', gender: 'f', character: 'bright, energetic female' },
  { id: 'voice-b-ja-m-01', language: 'ja', gender: 'm', character: 'calm male' },
  { id: 'voice-b-en-f-01', language: 'en', gender: 'f', character: 'friendly female' },
  { id: 'voice-b-en-m-01', language: 'en', gender: 'm', character: 'young male narrator' },
];

/** The documented voices, then the operator's extra ones (an extra that repeats a documented ID is dropped). */
export function catalogueVoices(extra: readonly PresetVoice[] = []): PresetVoice[] {
  const known = new Set(DOCUMENTED_VOICES.map((v) => v.id));
  return [...DOCUMENTED_VOICES, ...extra.filter((v) => !known.has(v.id) && (known.add(v.id), true))];
}

export function isPresetVoiceId(id: string): boolean {
  return PRESET_VOICE_ID.test(id);
}

/** Languages the `language` autocomplete offers (the service's 82 are unpublished); any such code is taken. */
export const LANGUAGE_CODES: readonly string[] = (
  'ko en ja zh es fr de it pt ru ar hi bn id ms th vi tr pl nl sv no da fi cs sk hu ro bg el uk he fa ur ta te mr gu ' +
  'kn ml pa fil sw af ca hr sr sl lt lv et is ga cy'
).split(' ');

export const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function languageName(code: string, locale: string | null | undefined): string {
  try {
    return new Intl.DisplayNames([locale ?? 'en', 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

// eSpeak NG's voices, free voices spoken by SayBot itself (free-voice-engine.ts), never by the Voice API, so they cost
// no characters (as an engine's do). A voice per language SayBot speaks and a female and a male variant of each, named `free-<language>-
// <f|m>` so that members can pick one as they pick a preset voice.
export interface EspeakVoice {
  /** What members choose (`/say voice:free-en-f`). */
  readonly id: string;
  /** The language it reads (ISO 639-1). */
  readonly language: string;
  /** eSpeak NG's voice and variant (`en-us+f3`). */
  readonly espeak: string;
}

const voice = (language: string, espeak: string, female: string, male: string): EspeakVoice[] => [
  { id: `free-${language}-f`, language, espeak: `${espeak}+${female}` },
  { id: `free-${language}-m`, language, espeak: `${espeak}+${male}` },
];

export const ESPEAK_VOICES: readonly EspeakVoice[] = [
  ...voice('en', 'en-us', 'f3', 'm3'),
  ...voice('ko', 'ko', 'f2', 'm3'),
  ...voice('ja', 'ja', 'f2', 'm3'),
  ...voice('zh', 'cmn', 'f2', 'm3'),
  ...voice('es', 'es', 'f3', 'm3'),
  ...voice('fr', 'fr', 'f3', 'm3'),
  ...voice('de', 'de', 'f3', 'm3'),
];

const BY_ID = new Map(ESPEAK_VOICES.map((free) => [free.id, free]));

/** eSpeak NG's voice of this ID, if it is one (a voice SayBot speaks itself); undefined: not eSpeak NG's. */
export function espeakVoice(id: string): EspeakVoice | undefined {
  return BY_ID.get(id);
}

/** Whether a voice costs no characters: eSpeak NG's or an engine's. */
export const isFreeVoice = (id: string): boolean => BY_ID.has(id) || engineOf(id) !== undefined;

// The owner's engines' voices: what an ID says (a pure test, usable anywhere without the engines).
/** Which engine: `voicevox` (VOICEVOX_URL) or `speech` (SPEECH_SERVER_URL). Also the voice ID's prefix. */
export type EngineName = 'voicevox' | 'speech';

/** A VOICEVOX style ID: a whole number (AivisSpeech's are 32-bit). */
export const STYLE_ID = /^\d{1,10}$/;
/** A speech server's voice name: Kokoro's `af_heart`, a mix `af_bella+af_sky`, a weighted `af_bella(2)+af_sky(1)`. */
export const SPEECH_VOICE_NAME = /^[A-Za-z0-9_.+()-]{1,64}$/;

interface EngineVoiceId {
  engine: EngineName;
  /** The style ID or the voice name: what the engine is sent. */
  engineVoice: string;
}

/** The engine an ID names (`voicevox:<style id>`, `speech:<name>`) and what it is sent; undefined: not an engine's voice.
 * Its shape alone: whether its engine offers it is src/core/sourcing/voice-choice.ts' `requireVoice` to say. */
export function engineOf(id: string): EngineVoiceId | undefined {
  const colon = id.indexOf(':');
  if (colon < 0) return undefined;
  const prefix = id.slice(0, colon);
  const rest = id.slice(colon + 1);
  if (prefix === 'voicevox' && STYLE_ID.test(rest) && Number(rest) <= 0xffff_ffff)
    return { engine: 'voicevox', engineVoice: rest };
  if (prefix === 'speech' && SPEECH_VOICE_NAME.test(rest)) return { engine: 'speech', engineVoice: rest };
  return undefined;
}
