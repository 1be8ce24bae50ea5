// A pitch shift keeping the length: resampled by the ratio (as tape played faster), then stretched back to length
// (time-stretch.ts). Linear interpolation suffices for a few semitones of speech.
import { MAX_SPEED, MIN_SPEED, timeStretch } from './time-stretch.ts';

/** The widest shift, in semitones: an octave each way. */
export const MAX_PITCH_SEMITONES = 12;

/** `channels` played `speed` times as fast (time-stretch.ts) and `semitones` higher (lower when negative). */
export function stretchAndShift(
  channels: readonly Float32Array[],
  sampleRate: number,
  speed: number,
  semitones: number,
): Float32Array[] {
  if (semitones === 0) return timeStretch(channels, sampleRate, speed);
  if (!(Math.abs(semitones) <= MAX_PITCH_SEMITONES))
    throw new RangeError(`pitch ${semitones} is outside ±${MAX_PITCH_SEMITONES} semitones`);
  const ratio = 2 ** (semitones / 12);
  const resampled = channels.map((channel) => resample(channel, ratio));
  // The resampled audio already plays `ratio` times as fast; the stretch makes up the rest of `speed`.
  const rest = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed / ratio));
  return timeStretch(resampled, sampleRate, rest);
}

/** `channel` read `ratio` times as fast (linear interpolation): `ratio` times higher, 1/`ratio` as long. */
function resample(channel: Float32Array, ratio: number): Float32Array {
  const out = new Float32Array(Math.max(1, Math.round(channel.length / ratio)));
  for (let i = 0; i < out.length; i++) {
    const x = i * ratio;
    const j = Math.floor(x);
    const a = channel[j] ?? 0;
    out[i] = a + ((channel[j + 1] ?? a) - a) * (x - j);
  }
  return out;
}
