// What SayBot does to a part's audio after the service sent it (never sent, so never paid for).

/** A member's speed and volume for one request. */
export interface AudioEffects {
  /** 0.5..2: how many times as fast as the voice speaks; the pitch stays the voice's. */
  speed: number;
  /** -20..+6 dB of gain, limited so that nothing clips (gain.ts). */
  volumeDb: number;
  /** Semitones shifted, length kept (pitch-shift.ts); auto-read's distinct voices use it, not members. */
  pitch?: number;
}

/** Speed 1 at 0 dB unshifted changes nothing: such a part is served as the service sent it, with no work at all. */
export function changesAudio(effects: AudioEffects | undefined): effects is AudioEffects {
  return effects !== undefined && (effects.speed !== 1 || effects.volumeDb !== 0 || (effects.pitch ?? 0) !== 0);
}

/** What joining and mixing write: the formats SayBot can decode, edit and encode (effects.ts). */
export type EditableFormat = 'wav' | 'mp3';

/** One line of a scene to mix (scene-mix.ts). */
export interface SceneMixLine {
  /** The line's audio parts in order, each a whole WAV or MP3 file. */
  parts: Uint8Array[];
  /** Seconds of silence before this line. */
  gapBefore: number;
  /** The speaker's volume (dB), reapplied after evening out (which would undo it). */
  volumeDb?: number;
}

export interface SceneMixInput {
  lines: SceneMixLine[];
  /** The output's format. */
  format: EditableFormat;
}

export interface SceneMixResult {
  data: Uint8Array;
  format: EditableFormat;
  /** The output's length, from its samples. */
  seconds: number;
  /** The audio passed MAX_SCENE_SECONDS and was cut there: `lines` holds only the lines heard, the last one cut. */
  cut: boolean;
  sampleRate: number;
  /** Each line's start and end in the output, seconds, measured on the output timeline (sample-exact before encoding). */
  lines: Array<{ start: number; end: number }>;
  /** Loudness of each line (dBFS, gated RMS; null for a silent line) before and after evening out, and the spread (max - min) of each. */
  loudness: { before: Array<number | null>; after: Array<number | null>; spreadBefore: number; spreadAfter: number };
}
