// What the sourcing room sees of an order (src/core/order/order.ts) and hands back for each of its parts: types only,
// so that the part source needs nothing of the order's room.
import type { Charge } from '../quota/charge.ts';
import type { QuoteAllowance } from '../quota/money.ts';
import type { ServiceFallback } from '../settings/speech-request.ts';
import type { SpeechAudio } from './part-flight.ts';

/**
 * What the part source reads of one accepted order, never writes: the charge its parts are paid on, what it may still
 * pay for parts counted free at acceptance, the free voice already standing in for its failing service, and the
 * signal that ends its wait. It lives on the order, so it is let go with it.
 */
export interface OrderAccount {
  readonly charge: Charge;
  /**
   * What may still be paid for parts counted free at acceptance (cached or in flight then, evicted or failed since):
   * a confirmed scene's quote's rest, a cache-only request's nothing. Absent: they pass the budgets again, unbounded.
   */
  readonly late?: QuoteAllowance | undefined;
  /**
   * The free voice that stood in once the service failed one of its parts (a FetchedPart's `freeVoice`, which the
   * order records): its later parts go to it at once rather than each after another wait for the service to fail.
   */
  readonly freeVoice?: ServiceFallback | undefined;
  /**
   * Aborted when its render is ended before it is made (its member's /stop, a right taken away), with what ended it
   * as its reason: the part it waits for is let go of (part-flight.ts Waiters), closed at the service when nobody else
   * waits for it and the service has not begun to answer. Absent: nothing ends its wait but the part's own end.
   */
  readonly ended?: AbortSignal | undefined;
}

/**
 * One part's fetch, as PartSource.fetchPart returns it: its audio or its failure, with what the order learns from it
 * (recorded by the order itself, src/core/order/order.ts `learnt`).
 */
export type FetchedPart = ({ audio: SpeechAudio } | { failure: unknown }) & {
  /**
   * The service failed this part before anything was charged and the free voice stood in (FREE_VOICE fallback): why,
   * and which voice. Known before the stand-in's own audio, so a stand-in that then fails or is stopped still says it.
   */
  freeVoice?: ServiceFallback;
  /** A free voice's line whose audio proved longer than its cap (seconds, the audio's own `cutAt`): cut there. */
  cutAt?: number;
};
