// What a paid call's failure says about the month: the service's own 429 "quota exceeded" marks the month used up
// before the caller hears of it, unless the service says characters are left (only this request is too long for
// them: that is what the caller is told); any other answer's usage figures may show that a used-up month is over.
// Only the service may say the month is used up: a 429 whose answer the retry rule (src/core/api/retry.ts) does not
// prove the service's own, with its usage figures (a rate-limiting proxy's page, a gateway's JSON without the
// service's figures), is a refusal on the way, worded as what SayBot knows, and marks nothing, as a gateway's 401 or
// 403 does.
import { QuotaExceededError, VoiceApiError } from '../api/errors.ts';
import { accountRefusalProven } from '../api/retry.ts';
import type { Logger } from '../log.ts';
import type { Accounting } from './accounting.ts';
import { nextMonthStart } from './calendar.ts';
import { Refusal } from '../refusal.ts';

/** Runs one API call of `characters` under the month's quota policy. */
export async function callUnderQuota<T>(
  accounting: Accounting | undefined,
  log: Logger,
  characters: number,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const left = error instanceof VoiceApiError ? error.rateLimit?.remaining : undefined;
    const proven = error instanceof QuotaExceededError && accountRefusalProven(error);
    if (proven && left !== undefined && left > 0 && left < characters) {
      const reset = error.rateLimit?.resetAt;
      throw new Refusal(
        { code: 'quota-too-few-left', left, needed: characters, resetAt: reset ?? nextMonthStart(new Date()) },
        { cause: error, level: 'warn' },
      );
    }
    if (saysMonthUsedUp(error))
      await accounting
        ?.quotaExceeded(error)
        .catch((e: unknown) => log.error({ err: e }, 'could not record the used-up quota'));
    else if (error instanceof VoiceApiError) await accounting?.observeUsage(error.rateLimit);
    throw error;
  }
}

/**
 * Whether a failure is the service itself saying the month is used up: its own 429 (the retry rule proved the answer
 * the service's: its headers and its JSON error body; accountRefusalProven) whose figures, if it sends any, leave
 * nothing.
 */
export function saysMonthUsedUp(error: unknown): error is QuotaExceededError {
  if (!(error instanceof QuotaExceededError) || !accountRefusalProven(error)) return false;
  const left = error.rateLimit?.remaining;
  return left === undefined || left === 0;
}
