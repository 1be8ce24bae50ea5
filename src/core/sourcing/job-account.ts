// The pipeline's own view of a job (src/core/order/job.ts), as the delivery modules and the part source beside it
// read it: types only, so that the part source needs nothing of the pipeline.
import type { Charge } from '../quota/charge.ts';
import type { QuoteAllowance } from '../quota/quote-ceiling.ts';
import type { ServiceFallback, SpeechRequest } from '../settings/speech-request.ts';

/**
 * What the part source reads and writes of one accepted job: the charge its parts are paid on, what it may still
 * pay for parts counted free at acceptance, the free voice that stood in for a failing service, and the cap a free
 * voice's line was cut at. It lives on the job, so it is let go with it.
 */
export interface JobAccount {
  readonly charge: Charge;
  /**
   * What may still be paid for parts counted free at acceptance (cached or in flight then, evicted or failed since):
   * a confirmed scene's quote's rest, a cache-only request's nothing. Absent: they pass the budgets again, unbounded.
   */
  readonly late?: QuoteAllowance | undefined;
  /** Set by the part source when the service failed and the free voice spoke for it: why, and which voice. */
  freeVoice?: ServiceFallback | undefined;
  /** Set by the part source when a free voice's line proved longer than its cap (seconds) and was cut there. */
  lineCutAt?: number | undefined;
  /**
   * Set by a file's or a voice message's render when a part after paid ones failed (src/core/quota/paid-part-way.ts
   * leavesPaidParts): it holds the parts made, and the front-end says why the rest is missing.
   */
  restFailed?: unknown;
  /**
   * Aborted when its render is ended before it is made (its member's /stop, a right taken away), with what ended it
   * as its reason: the part it waits for is let go of (part-flight.ts Waiters), closed at the service when nobody else
   * waits for it and the service has not begun to answer. Absent: nothing ends its wait but the part's own end.
   */
  readonly ended?: AbortSignal | undefined;
}

/** A request's lines as the pipeline handles them: one for a plain request, one per line for a scene. */
export interface SpokenLine {
  request: SpeechRequest;
  texts: string[];
  pauseBefore: number;
}

/** Voice jobs of one guild accepted but not yet queued on its player (they may be waiting for the join). */
export interface Lane {
  /** Their clips, counted as ahead of the next job. */
  clips: number;
  /** Settles when the last of them has been queued (or has failed): jobs are queued in the order accepted. */
  tail: Promise<void>;
}
