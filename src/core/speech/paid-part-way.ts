// Work paid for part-way, then refused: a request whose earlier parts the service made and charged, and whose next
// part was then refused for money (the month's quota, a budget, the books) before it was sent, or by the service for
// its key (401: invalid or deactivated; 403: the plan without API access), billing nothing for it. The refusal's own
// words say "sent nothing" or "nothing was spent", true of the part refused and false of the request: so the
// pipeline hands every front-end this instead (once, in pipeline.ts), and failure-words.ts words it as paid
// part-way: the characters spent, and why the rest was not sent.
import {
  AbortedError,
  AuthenticationError,
  PermissionDeniedError,
  QuotaExceededError,
  VoiceApiError,
} from '../api/errors.ts';
import { Refusal } from '../refusal.ts';
import { RenderStoppedError } from './errors.ts';

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

/**
 * The failure a request that ended with `error` after paying `paid` characters (and sending `unconfirmed` more that
 * never had the service's answer) is answered with: a refusal for
 * money (a Refusal, or the service's own "quota exceeded" not charged) or of the key (the service's own 401 or 403,
 * not charged) after something was paid becomes a PaidPartWayError; anything else stays as it is (its words already
 * say what the service did, or make no claim of nothing spent).
 */
export function afterPaying(error: unknown, paid: number, unconfirmed = 0): unknown {
  // Stopped by its member: what its parts cost so far is said with it, and what they may have cost.
  if (error instanceof RenderStoppedError) return new RenderStoppedError(Math.max(0, paid), Math.max(0, unconfirmed));
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
