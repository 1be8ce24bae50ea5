// A cap that only the audio can prove (seconds: a scene's 600 s) is checked before anything is paid on the plan's
// estimate (estimateSpeechSeconds, the per-language rate the queue bounds use), with a margin for voices slower than
// that rate; audio that still proves longer is cut at the cap where it is made, never thrown away once paid
// (scene-file.ts, scene-mix.ts).
import { estimateSpeechSeconds } from './queue-bounds.ts';

/**
 * The share of a seconds cap kept back for audio slower than the estimate: an estimate passes up to
 * cap / (1 + ESTIMATE_MARGIN), 545 s of a 600 s scene. The estimate reads English at 15 characters a second and
 * Korean, Japanese and Chinese at 7, which errs long for most voices; a slower voice past the margin is cut.
 */
export const ESTIMATE_MARGIN = 0.1;

/** The longest estimate a cap of `cap` seconds lets through. */
export function estimateCeiling(cap: number): number {
  return cap / (1 + ESTIMATE_MARGIN);
}

/** A plan estimated over its cap (with the margin): refused before anything is held or paid. */
export class OverSecondsCapError extends Error {
  /** The plan's estimate, seconds. */
  readonly estimate: number;
  /** The cap the audio would have to prove, seconds. */
  readonly cap: number;

  constructor(estimate: number, cap: number) {
    super(`estimated at ${estimate.toFixed(1)} s, over ${estimateCeiling(cap).toFixed(1)} s (a cap of ${cap} s)`);
    this.name = 'OverSecondsCapError';
    this.estimate = estimate;
    this.cap = cap;
  }
}

/** Throws OverSecondsCapError when `estimate` seconds, with the margin, would pass `cap`. */
export function checkEstimatedSeconds(estimate: number, cap: number): void {
  if (estimate > estimateCeiling(cap)) throw new OverSecondsCapError(estimate, cap);
}

/** A plan's estimate: each line's pause before it and its text at the assumed rate. */
export function estimatePlanSeconds(lines: ReadonlyArray<{ text: string; pauseBefore: number }>): number {
  return lines.reduce((sum, line) => sum + line.pauseBefore + estimateSpeechSeconds(line.text), 0);
}
