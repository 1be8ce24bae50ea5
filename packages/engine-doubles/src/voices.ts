// The doubles' voices. Every VOICEVOX style and every speech-server voice speaks at a pitch of its own, so that a test
// listening to the audio alone can tell which one spoke: 20 Hz apart, VOICEVOX styles from 760 Hz and speech-server
// voices from 1060 Hz, above the Voice API sandbox's presets (110-735 Hz) and the fixture tones (220, 330, 440 Hz), so
// that a line of one engine is never taken for another's.

/** The first VOICEVOX style's pitch; each next style in the list 20 Hz higher. */
export const VOICEVOX_BASE_HZ = 760;
/** The first speech-server voice's pitch; each next voice in the list 20 Hz higher. */
export const SPEECH_BASE_HZ = 1060;
const STEP_HZ = 20;
/** Voices a list may hold: the ladder stays below the 2 kHz a pitch detector reads. */
export const MOST_VOICES = 40;

export interface VoicevoxStyle {
  readonly name: string;
  /** VOICEVOX's style ID, the `speaker` query parameter of /audio_query and /synthesis. */
  readonly id: number;
  /** Default: its place in the list (VOICEVOX_BASE_HZ + 20 Hz a style before it). */
  readonly pitchHz?: number;
}

export interface VoicevoxSpeaker {
  readonly name: string;
  readonly speaker_uuid: string;
  readonly styles: readonly VoicevoxStyle[];
  /** Which eSpeak NG variant speaks it when the double speaks words; default 'f'. */
  readonly gender?: 'f' | 'm';
}

const uuid = (n: number) => `d0b1e5a0-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Three made-up speakers (not VOICEVOX's real characters, whose credits the double must not seem to claim). */
export const DEFAULT_VOICEVOX_SPEAKERS: readonly VoicevoxSpeaker[] = Object.freeze([
  {
    name: 'ダブル葵',
    speaker_uuid: uuid(1),
    gender: 'f',
    styles: [
      { name: 'ノーマル', id: 0 },
      { name: 'あまあま', id: 1 },
      { name: 'ツンツン', id: 2 },
      { name: 'ささやき', id: 3 },
    ],
  },
  {
    name: 'ダブル蓮',
    speaker_uuid: uuid(2),
    gender: 'm',
    styles: [
      { name: 'ノーマル', id: 10 },
      { name: '元気', id: 11 },
    ],
  },
  {
    name: 'ダブル雫',
    speaker_uuid: uuid(3),
    gender: 'f',
    styles: [
      { name: 'ノーマル', id: 20 },
      { name: 'ひそひそ', id: 21 },
      { name: '眠そう', id: 22 },
    ],
  },
]);

/** A speech-server voice: its name alone (its pitch then by its place in the list), or with a pitch. */
export type SpeechVoice = string | { readonly id: string; readonly pitchHz: number };

/** Kokoro's voice names (language and gender in the first two letters: a American, b British, j Japanese, ...). */
export const DEFAULT_SPEECH_VOICES: readonly SpeechVoice[] = Object.freeze([
  'af_heart',
  'af_bella',
  'af_nicole',
  'am_adam',
  'am_michael',
  'bf_emma',
  'bm_george',
  'jf_alpha',
  'jm_kumo',
  'zf_xiaobei',
  'zm_yunxi',
  'ef_dora',
]);

const ladder = (base: number, index: number) => base + STEP_HZ * (index % MOST_VOICES);

/** The pitch a VOICEVOX style speaks at before its query's pitchScale (`speakers`: the double's list). */
export function voicevoxStylePitchHz(
  styleId: number,
  speakers: readonly VoicevoxSpeaker[] = DEFAULT_VOICEVOX_SPEAKERS,
): number | undefined {
  let index = 0;
  for (const speaker of speakers) {
    for (const style of speaker.styles) {
      if (style.id === styleId) return style.pitchHz ?? ladder(VOICEVOX_BASE_HZ, index);
      index += 1;
    }
  }
  return undefined;
}

/** A pitch shifted as VOICEVOX shifts it: each mora's pitch is the natural log of its F0, times 2^pitchScale. */
export const voicevoxShiftedHz = (hz: number, pitchScale: number): number =>
  pitchScale === 0 ? hz : Math.exp(Math.log(hz) * 2 ** pitchScale);

/** The speaker a style belongs to. */
export function voicevoxSpeakerOf(styleId: number, speakers: readonly VoicevoxSpeaker[]): VoicevoxSpeaker | undefined {
  return speakers.find((speaker) => speaker.styles.some((style) => style.id === styleId));
}

export const speechVoiceId = (voice: SpeechVoice): string => (typeof voice === 'string' ? voice : voice.id);

/** The pitch a speech-server voice speaks at (`voices`: the double's list). */
export function speechVoicePitchHz(
  voice: string,
  voices: readonly SpeechVoice[] = DEFAULT_SPEECH_VOICES,
): number | undefined {
  const index = voices.findIndex((v) => speechVoiceId(v) === voice);
  const found = voices[index];
  if (found === undefined) return undefined;
  return typeof found === 'string' ? ladder(SPEECH_BASE_HZ, index) : found.pitchHz;
}

/** Refuses a list a double cannot serve: empty, too long, or naming one voice twice. */
export function checkVoices(ids: readonly (string | number)[], what: string): void {
  if (ids.length === 0) throw new RangeError(`${what}: at least one is needed`);
  if (ids.length > MOST_VOICES) throw new RangeError(`${what}: at most ${MOST_VOICES}`);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new RangeError(`${what}: ${String(twice)} is named twice`);
}
