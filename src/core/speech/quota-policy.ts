// What a paid call's failure says about the month: a 429 "quota exceeded" marks the month used up before the
// caller hears of it, unless the service says characters are left (only this request is too long for them: that is
// what the caller is told); any other answer's usage figures may show that a used-up month is over.
import { QuotaExceededError, VoiceApiError } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import type { Accounting } from '../quota/accounting.ts';
import { nextMonthStart } from '../quota/calendar.ts';
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
    if (error instanceof QuotaExceededError && left !== undefined && left > 0 && left < characters) {
      const reset = error.rateLimit?.resetAt;
      throw new Refusal(
        { code: 'quota-too-few-left', left, needed: characters, resetAt: reset ?? nextMonthStart(new Date()) },
        { cause: error, level: 'warn' },
      );
    }
    if (error instanceof QuotaExceededError)
      await accounting
        ?.quotaExceeded(error)
        .catch((e: unknown) => log.error({ err: e }, 'could not record the used-up quota'));
    else if (error instanceof VoiceApiError) await accounting?.observeUsage(error.rateLimit);
    throw error;
  }
}
