/**
 * The sandbox's 41 preset voices. The six the Voice API documents keep their documented character; the
 * other 35 are made up in the same ID shape. Each preset speaks a sine at its own pitch, so a test can tell
 * from the audio alone which voice spoke: pitches are at least 15 Hz apart, between 110 and 735 Hz, and at
 * least 10 Hz away from the fixture tones (220, 330, 440 Hz) that tests clone voices from.
 */

export type VoiceGender = 'f' | 'm';

export interface PresetVoice {
  readonly id: string;
  readonly name: string;
  /** ISO 639-1 code, as in the ID. */
  readonly language: string;
  readonly gender: VoiceGender;
  readonly description: string;
  readonly pitchHz: number;
}

/** The voice /v1/emotion-tts uses when the request names none. */
export const DEFAULT_EMOTION_VOICE = 'voice-b-ko-f-01';

/** Pitches no preset may come within 10 Hz of: the tones of the test clips in fixtures/audio. */
export const FIXTURE_TONES_HZ: readonly number[] = [220, 330, 440];

function voice(id: string, name: string, description: string, pitchHz: number): PresetVoice {
  const match = /^voice-b-([a-z]{2})-([fm])-\d{2}$/.exec(id);
  if (!match) throw new Error(`preset voice ID out of shape: ${id}`);
  return { id, name, language: match[1] as string, gender: match[2] as VoiceGender, description, pitchHz };
}

export const PRESET_VOICES: readonly PresetVoice[] = Object.freeze([
  // Male voices take the lower pitches.
  voice('voice-b-ko-m-01', 'Dohyun', 'Korean calm male narrator', 110),
  voice('voice-b-de-m-01', 'Lukas', 'German deep male newsreader', 125),
  voice('voice-b-ru-m-01', 'Dmitri', 'Russian low male storyteller', 140),
  voice('voice-b-ja-m-01', 'Haruto', 'Japanese calm male', 155),
  voice('voice-b-zh-m-01', 'Wei', 'Chinese steady male', 170),
  voice('voice-b-es-m-01', 'Mateo', 'Spanish warm male', 185),
  voice('voice-b-en-m-02', 'Arthur', 'English mature male', 200),
  voice('voice-b-fr-m-01', 'Louis', 'French relaxed male', 230),
  voice('voice-b-ko-m-02', 'Jiho', 'Korean friendly male', 245),
  voice('voice-b-pt-m-01', 'Tiago', 'Portuguese easy-going male', 260),
  voice('voice-b-hi-m-01', 'Arjun', 'Hindi clear male', 275),
  voice('voice-b-en-m-01', 'Ethan', 'English young male narrator', 290),
  voice('voice-b-zh-m-02', 'Jun', 'Chinese lively male', 305),
  voice('voice-b-it-m-01', 'Marco', 'Italian expressive male', 320),
  voice('voice-b-de-m-02', 'Felix', 'German young male', 340),
  voice('voice-b-es-m-02', 'Diego', 'Spanish energetic male', 355),
  voice('voice-b-ja-m-02', 'Sota', 'Japanese youthful male', 370),
  voice('voice-b-ko-m-03', 'Seojun', 'Korean bright young male', 385),
  voice('voice-b-en-m-03', 'Leo', 'English cheerful boy', 400),
  // Female voices take the higher ones.
  voice('voice-b-ar-f-01', 'Layla', 'Arabic calm female', 415),
  voice('voice-b-ko-f-02', 'Sora', 'Korean calm female narrator', 430),
  voice('voice-b-en-f-02', 'Grace', 'English composed female', 450),
  voice('voice-b-de-f-01', 'Hannah', 'German clear female', 465),
  voice('voice-b-zh-f-01', 'Mei', 'Chinese gentle female', 480),
  voice('voice-b-fr-f-01', 'Camille', 'French soft female', 495),
  voice('voice-b-es-f-01', 'Lucia', 'Spanish warm female', 510),
  voice('voice-b-ja-f-02', 'Yui', 'Japanese soft-spoken female', 525),
  voice('voice-b-en-f-01', 'Emma', 'English friendly female', 540),
  voice('voice-b-pt-f-01', 'Beatriz', 'Portuguese cheerful female', 555),
  voice('voice-b-ko-f-03', 'Yuna', 'Korean gentle female', 570),
  voice('voice-b-it-f-01', 'Giulia', 'Italian lively female', 585),
  voice('voice-b-zh-f-02', 'Lin', 'Chinese bright female', 600),
  voice('voice-b-en-f-03', 'Chloe', 'English upbeat female', 615),
  voice('voice-b-ja-f-01', 'Hina', 'Japanese bright, energetic female', 630),
  voice('voice-b-fr-f-02', 'Lea', 'French playful female', 645),
  voice('voice-b-ko-f-01', 'Haneul', 'Korean bright, friendly female', 660),
  voice('voice-b-es-f-02', 'Sofia', 'Spanish lively female', 675),
  voice('voice-b-zh-f-03', 'Xiaoyu', 'Chinese youthful female', 690),
  voice('voice-b-en-f-04', 'Lily', 'English young girl', 705),
  voice('voice-b-ko-f-04', 'Dahye', 'Korean energetic young female', 720),
  voice('voice-b-ja-f-03', 'Sakura', 'Japanese cheerful girl', 735),
]);

const byId = new Map(PRESET_VOICES.map((v) => [v.id, v]));

export function presetVoice(id: string): PresetVoice | undefined {
  return byId.get(id);
}
