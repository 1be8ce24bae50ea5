// Work paid for part-way, then refused: a request whose earlier parts the service made and charged, and whose next
// part was then refused for money (the month's quota, a budget, the books) before it was sent. The refusal's own
// words say "sent nothing" or "nothing was spent", true of the part refused and false of the request: so the
// pipeline hands every front-end this instead (once, in pipeline.ts), and failure-words.ts words it as paid
// part-way: the characters spent, and why the rest was not sent.
import { QuotaExceededError } from '../api/errors.ts';
import { Refusal } from '../refusal.ts';

export class PaidPartWayError extends Error {
  /** Characters the service accepted (and charged) for the parts before the refusal. */
  readonly paid: number;
  /** Why the rest was not sent: a Refusal, or the service's own "quota exceeded". */
  override readonly cause: Refusal | QuotaExceededError;

  constructor(paid: number, cause: Refusal | QuotaExceededError) {
    super(`${paid} characters were paid for before the rest was refused: ${cause.message}`, { cause });
    this.name = 'PaidPartWayError';
    this.paid = paid;
    this.cause = cause;
  }
}

/**
 * The failure a request that ended with `error` after paying `paid` characters is answered with: a refusal for
 * money (a Refusal, or the service's own "quota exceeded" not charged) after something was paid becomes a
 * PaidPartWayError; anything else stays as it is (its words already say what the service did).
 */
export function afterPaying(error: unknown, paid: number): unknown {
  if (paid <= 0) return error;
  if (error instanceof Refusal) return new PaidPartWayError(paid, error);
  if (error instanceof QuotaExceededError && error.charge === 'not-charged') return new PaidPartWayError(paid, error);
  return error;
}
