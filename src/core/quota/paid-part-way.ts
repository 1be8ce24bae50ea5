// A request paid for part-way: a refusal's own words ("nothing was spent") are true of the part refused, false of the
// request, so a refusal (or the service failing) after earlier parts were charged is told as PaidPartWayError (failure-words.ts), and audio
// charged then cut (or stalled in voice) as CutAfterPayingError, with all the order paid.
import {
  AbortedError,
  AuthenticationError,
  ConnectionError,
  OversizedResponseError,
  PermissionDeniedError,
  QuotaExceededError,
  ServerError,
  TimeoutError,
  UndeliveredError,
  VoiceApiError,
} from '../api/errors.ts';
import { Refusal } from '../refusal.ts';
import { RenderStoppedError } from '../order-errors.ts';
import { AudioStalledError } from '../voice/audio-stalled.ts';

type RestRefusal = Refusal | QuotaExceededError | AuthenticationError | PermissionDeniedError | ServerError;

export class PaidPartWayError extends Error {
  readonly paid: number;
  override readonly cause: RestRefusal;

  constructor(paid: number, cause: RestRefusal) {
    super(`${paid} characters were paid for before the rest was refused or failed: ${cause.message}`, { cause });
    this.name = 'PaidPartWayError';
    this.paid = paid;
    this.cause = cause;
  }
}

/** A request whose audio the service charged, then broke off before all of it arrived, and all that it paid. */
export class CutAfterPayingError extends Error {
  /** Charged for the request's parts: the part cut, and any fetched ahead. */
  readonly paid: number;
  override readonly cause: VoiceApiError | AudioStalledError;

  constructor(paid: number, cause: VoiceApiError | AudioStalledError) {
    super(`${paid} characters were paid for, then the audio broke off: ${cause.message}`, { cause });
    this.name = 'CutAfterPayingError';
    this.paid = paid;
    this.cause = cause;
  }
}

/** Audio charged (its 2xx) that broke off, or never came; not an answer too big to take (its own words). */
export function cutAfterCharge(error: unknown): error is VoiceApiError {
  if (error instanceof OversizedResponseError) return false;
  if (error instanceof UndeliveredError) return error.missing === 'audio';
  return (
    error instanceof VoiceApiError &&
    error.charge === 'charged' &&
    (error instanceof ConnectionError || error instanceof TimeoutError)
  );
}

/** Refused after `paid`: PaidPartWayError; charged and cut: CutAfterPayingError; anything else as it is. */
export function afterPaying(error: unknown, paid: number, unconfirmed = 0): unknown {
  if (error instanceof RenderStoppedError) return new RenderStoppedError(Math.max(0, paid), Math.max(0, unconfirmed));
  if (paid > 0 && (cutAfterCharge(error) || error instanceof AudioStalledError))
    return new CutAfterPayingError(paid, error);
  // The service failing (its 5xx, not charged) says "nothing was charged" of the part, not of what was paid before.
  const failed = error instanceof ServerError && error.charge === 'not-charged';
  if (paid <= 0 || !(refusesRest(error) || failed)) return error;
  return new PaidPartWayError(paid, error);
}

/** A refusal of the rest, nothing of it charged: for money (a Refusal, a 429 quota) or of the key (401, 403). */
function refusesRest(error: unknown): error is RestRefusal {
  if (error instanceof Refusal) return true;
  const refusedByService =
    error instanceof QuotaExceededError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError;
  return refusedByService && error.charge === 'not-charged';
}

/** Parts paid before this failure are delivered: not after a let-go (AbortedError: a /stop, a right taken away). */
export function leavesPaidParts(error: unknown): boolean {
  return refusesRest(error) || (error instanceof VoiceApiError && !(error instanceof AbortedError));
}
