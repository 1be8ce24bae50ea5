// Work paid for part-way, then refused: a request whose earlier parts the service made and charged, and whose next
// part was then refused for money (the month's quota, a budget, the books) before it was sent, or by the service for
// its key (401: invalid or deactivated; 403: the plan without API access), billing nothing for it. The refusal's own
// words say "sent nothing" or "nothing was spent", true of the part refused and false of the request: so the
// pipeline hands every front-end this instead (once, in src/core/order/pipeline.ts), and failure-words.ts words it as
// paid
// part-way: the characters spent, and why the rest was not sent.
// So too a request whose audio the service charged and then broke off (a part cut mid-body): the cut part's own
// words would name only that part, while the order may have paid for more (the next part, fetched ahead before the
// cut): it is told with all the order paid (CutAfterPayingError). Audio that stopped coming in voice until the voice
// output gave it up (AudioStalledError), before its source said why, is that too once the order paid: its body
// went quiet after the service's 2xx.
import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  OversizedResponseError,
  PermissionDeniedError,
  QuotaExceededError,
  TimeoutError,
  UndeliveredError,
  VoiceApiError,
} from '../api/errors.ts';
import { Refusal } from '../refusal.ts';
import { RenderStoppedError } from '../order-errors.ts';
import { AudioStalledError } from '../voice/audio-stalled.ts';

/** Why the rest of a request paid part-way was not sent. */
export type RestRefusal = Refusal | QuotaExceededError | AuthenticationError | PermissionDeniedError;

export class PaidPartWayError extends Error {
  /** Characters the service accepted (and charged) for the parts before the refusal. */
  readonly paid: number;
  /** Why the rest was not sent: a Refusal, or the service's own "quota exceeded", "key refused" or "no API access". */
  override readonly cause: RestRefusal;

  constructor(paid: number, cause: RestRefusal) {
    super(`${paid} characters were paid for before the rest was refused: ${cause.message}`, { cause });
    this.name = 'PaidPartWayError';
    this.paid = paid;
    this.cause = cause;
  }
}

/** A request whose audio the service charged, then broke off before all of it arrived, and all that it paid. */
export class CutAfterPayingError extends Error {
  /** Characters the service accepted (and charged) for the request's parts: the part cut, and any fetched ahead. */
  readonly paid: number;
  /** The cut: the service's answer, charged, whose audio did not arrive whole (or stopped coming, in voice). */
  override readonly cause: VoiceApiError | AudioStalledError;

  constructor(paid: number, cause: VoiceApiError | AudioStalledError) {
    super(`${paid} characters were paid for, then the audio broke off: ${cause.message}`, { cause });
    this.name = 'CutAfterPayingError';
    this.paid = paid;
    this.cause = cause;
  }
}

/**
 * Audio the service accepted (its 2xx, so charged) that broke off before all of it arrived: the body cut by the
 * network or a timer, or no audio at all after the 2xx. Not an answer too big to take (its own words).
 */
export function cutAfterCharge(error: unknown): error is VoiceApiError {
  if (error instanceof OversizedResponseError) return false;
  if (error instanceof UndeliveredError) return error.missing === 'audio';
  return (
    error instanceof VoiceApiError &&
    error.charge === 'charged' &&
    (error instanceof ConnectionError || error instanceof TimeoutError)
  );
}

/**
 * The failure a request that ended with `error` after paying `paid` characters (and sending `unconfirmed` more that
 * never had the service's answer) is answered with: a refusal for
 * money (a Refusal, or the service's own "quota exceeded" not charged) or of the key (the service's own 401 or 403,
 * not charged) after something was paid becomes a PaidPartWayError, audio charged and cut a CutAfterPayingError with
 * all the request paid; anything else stays as it is (its words already
 * say what the service did, or make no claim of nothing spent).
 */
export function afterPaying(error: unknown, paid: number, unconfirmed = 0): unknown {
  // Stopped by its member: what its parts cost so far is said with it, and what they may have cost.
  if (error instanceof RenderStoppedError) return new RenderStoppedError(Math.max(0, paid), Math.max(0, unconfirmed));
  // Charged, then cut: told with all the request paid, not only the part cut.
  if (paid > 0 && (cutAfterCharge(error) || error instanceof AudioStalledError))
    return new CutAfterPayingError(paid, error);
  if (paid <= 0 || !refusesRest(error)) return error;
  return new PaidPartWayError(paid, error);
}

/**
 * A refusal of what is left of a request, nothing of it charged: for money (a Refusal, or the service's own "quota
 * exceeded") or of the key (the service's own 401 or 403). What was made before it stays the member's.
 */
export function refusesRest(error: unknown): error is RestRefusal {
  if (error instanceof Refusal) return true;
  const refusedByService =
    error instanceof QuotaExceededError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError;
  return refusedByService && error.charge === 'not-charged';
}

/**
 * A later part's failure that leaves the parts paid for before it the member's, to be delivered with its words: a
 * refusal of the rest, or the service failing that part (charged, maybe charged or not). Not an order ended by its
 * member, by rights lost or by a voice deleted: nothing of those is posted.
 */
export function leavesPaidParts(error: unknown): boolean {
  // Aborted is this order let go of (its member's /stop, a right taken away): nothing of it is posted.
  return refusesRest(error) || (error instanceof VoiceApiError && !(error instanceof AbortedError));
}
