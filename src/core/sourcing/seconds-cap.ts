// A cap that only the audio can prove (seconds: a scene's 600 s, a free voice's line's 120 s) is checked before any
// work on the plan's estimate (estimateSpeechSeconds, the per-language rate the queue bounds use), with a margin for
// voices slower than that rate; audio that still proves longer is cut at the cap where it is made, never thrown
// away once paid or made (src/core/order/scene-file.ts, scene-mix.ts; a free line in the free voice's own thread,
// espeak-run.ts),
// and the member is told (the outcome's `cutAt`, `lineCutAt`).
import type { LengthCapped } from '../audio/errors.ts';
import { MAX_FREE_LINE_SECONDS } from '../free-voice/free-voice-engine.ts';
import { estimateFreeLineSeconds } from '../free-voice/free-line-estimate.ts';
import { estimateRequestSeconds } from '../quota/queue-bounds.ts';
import type { SpeechRequest } from '../settings/speech-request.ts';
import type { PartLimit } from '../characters.ts';

/**
 * The share of a seconds cap kept back for audio slower than the estimate: an estimate passes up to
 * cap / (1 + ESTIMATE_MARGIN), 545 s of a 600 s scene. A scene's estimate reads English at 15 characters a second
 * and Korean, Japanese and Chinese at 7, which errs long for most voices; a free line's reads at eSpeak NG's own
 * measured rates (src/core/free-voice/free-line-estimate.ts). A voice slower than its estimate past the margin is cut.
 */
export const ESTIMATE_MARGIN = 0.1;

/** The longest estimate a cap of `cap` seconds lets through. */
export function estimateCeiling(cap: number): number {
  return cap / (1 + ESTIMATE_MARGIN);
}

/** A plan estimated over its cap (with the margin): refused before anything is held, made or paid. */
export class OverSecondsCapError extends Error {
  /** What the cap bounds: a whole scene, or one line of the free voice. */
  readonly capped: LengthCapped;
  /** The plan's estimate, seconds. */
  readonly estimate: number;
  /** The cap the audio would have to prove, seconds. */
  readonly cap: number;

  constructor(capped: LengthCapped, estimate: number, cap: number) {
    super(
      `${capped} estimated at ${estimate.toFixed(1)} s, over ${estimateCeiling(cap).toFixed(1)} s (a cap of ${cap} s)`,
    );
    this.name = 'OverSecondsCapError';
    this.capped = capped;
    this.estimate = estimate;
    this.cap = cap;
  }
}

/** Throws OverSecondsCapError when `estimate` seconds of a `capped`, with the margin, would pass `cap`. */
export function checkEstimatedSeconds(estimate: number, cap: number, capped: LengthCapped): void {
  if (!withinCap(estimate, cap)) throw new OverSecondsCapError(capped, estimate, cap);
}

function withinCap(estimate: number, cap: number): boolean {
  return estimate <= estimateCeiling(cap);
}

/**
 * One line of the free voice (a part: one eSpeak NG job) lasts at most MAX_FREE_LINE_SECONDS. Checked on its
 * estimate at eSpeak NG's own rate (src/core/free-voice/free-line-estimate.ts) before the job is queued, wherever the
 * free voice
 * `voiceId` is to speak it (chosen, standing in for money or for a failing service), so that the thread's time is
 * never spent on a line that would lose most of its audio at the cut.
 */
export function checkFreeLineSeconds(text: string, voiceId: string): void {
  checkEstimatedSeconds(estimateFreeLineSeconds(text, voiceId), MAX_FREE_LINE_SECONDS, 'free-line');
}

/** Whether the free voice `voiceId` may be asked to speak `text` as one line (checkFreeLineSeconds would pass it). */
export function fitsFreeLine(text: string, voiceId: string): boolean {
  return withinCap(estimateFreeLineSeconds(text, voiceId), MAX_FREE_LINE_SECONDS);
}

/**
 * What one part of a text the free voice `voiceId` speaks may hold (splitText): the seconds checkFreeLineSeconds
 * passes, so a long line is split into lines of its own rather than refused.
 */
export function freeLineLimit(voiceId: string): PartLimit {
  return {
    max: estimateCeiling(MAX_FREE_LINE_SECONDS),
    measure: (piece) => estimateFreeLineSeconds(piece, voiceId),
  };
}

/**
 * A plan's estimate of seconds (a scene's, shown at its preview and checked again by the pipeline at "Play it",
 * one function so the two never disagree): each line's pause before it and its whole text as heard (SayBot's own
 * speed counted), before the text is split into parts.
 */
export function estimatePlanSeconds(lines: ReadonlyArray<{ request: SpeechRequest; pauseBefore: number }>): number {
  return lines.reduce(
    (sum, line) => sum + line.pauseBefore + estimateRequestSeconds(line.request, line.request.text),
    0,
  );
}
