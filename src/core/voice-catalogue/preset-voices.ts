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

/** The built-in default voice for a Discord locale: Korean, Japanese, else English. */
export function defaultVoiceFor(locale: string | null | undefined): string {
  if (locale === 'ko') return 'voice-b-ko-f-01';
  if (locale === 'ja') return 'voice-b-ja-f-01';
  return 'voice-b-en-f-01';
}

/** Languages the `language` autocomplete offers (the service's 82 are unpublished); any such code is taken. */
export const LANGUAGE_CODES: readonly string[] = [
  'ko',
  'en',
  'ja',
  'zh',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'ru',
  'ar',
  'hi',
  'bn',
  'id',
  'ms',
  'th',
  'vi',
  'tr',
  'pl',
  'nl',
  'sv',
  'no',
  'da',
  'fi',
  'cs',
  'sk',
  'hu',
  'ro',
  'bg',
  'el',
  'uk',
  'he',
  'fa',
  'ur',
  'ta',
  'te',
  'mr',
  'gu',
  'kn',
  'ml',
  'pa',
  'fil',
  'sw',
  'af',
  'ca',
  'hr',
  'sr',
  'sl',
  'lt',
  'lv',
  'et',
  'is',
  'ga',
  'cy',
];

export const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function languageName(code: string, locale: string | null | undefined): string {
  try {
    return new Intl.DisplayNames([locale ?? 'en', 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
