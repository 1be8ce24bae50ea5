// Speed and volume in steps a listener can tell apart: every distinct value is a cache entry and a render, so values
// closer than heard (~5 % tempo, 0.5 dB, half loudness's JND) fold to one; the zero step needs no work (changesAudio).
import type { AudioEffects } from './effect-types.ts';
import { MAX_VOLUME_DB, MIN_VOLUME_DB } from './gain.ts';
import { MAX_PITCH_SEMITONES } from './pitch-shift.ts';
import { MAX_SPEED, MIN_SPEED } from './time-stretch.ts';

export const SPEED_STEP = 0.05;
export const VOLUME_STEP_DB = 0.5;

/** `value` on the nearest multiple of `step`, within min..max, as a short decimal (1.1, not 1.1000000000000001). */
function onStep(value: number, step: number, min: number, max: number): number {
  const stepped = Math.round(value / step) * step;
  // Two decimals hold every step here; `+ 0` turns -0 into 0, so it prints and keys like 0.
  return Number(Math.min(max, Math.max(min, stepped)).toFixed(2)) + 0;
}

export function quantiseSpeed(speed: number): number {
  return onStep(speed, SPEED_STEP, MIN_SPEED, MAX_SPEED);
}

export function quantiseVolumeDb(volumeDb: number): number {
  return onStep(volumeDb, VOLUME_STEP_DB, MIN_VOLUME_DB, MAX_VOLUME_DB);
}

/** A pitch shift in whole semitones (a semitone is well above what a listener notices), within an octave. */
export function quantisePitch(semitones: number): number {
  return onStep(semitones, 1, -MAX_PITCH_SEMITONES, MAX_PITCH_SEMITONES);
}

export function quantiseEffects(effects: AudioEffects): AudioEffects {
  const pitch = quantisePitch(effects.pitch ?? 0);
  return {
    speed: quantiseSpeed(effects.speed),
    volumeDb: quantiseVolumeDb(effects.volumeDb),
    ...(pitch === 0 ? {} : { pitch }),
  };
}

/** Speed 1 at 0 dB unshifted changes nothing: such a part is served as the service sent it, with no work at all. */
export function changesAudio(effects: AudioEffects | undefined): effects is AudioEffects {
  return effects !== undefined && (effects.speed !== 1 || effects.volumeDb !== 0 || (effects.pitch ?? 0) !== 0);
}
