import { ConnectionError, RateLimitedError, ServerError, type VoiceApiError } from './errors.ts';
import { MAX_RETRY_AFTER_SECONDS } from './response.ts';

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Which failures are worth another attempt: connection failures (before any audio reached the caller),
 * 408/5xx (ServerError) and short rate limits. Never 400/401/403, the quota 429, timeouts (a service that was
 * too slow once is likely to be slow again, and the caller's total budget is better spent surfacing it),
 * unexpected responses or aborts.
 */
export function isRetryable(error: VoiceApiError): boolean {
  return error instanceof ConnectionError || error instanceof ServerError || error instanceof RateLimitedError;
}

/**
 * The wait before retry number `retry` (1-based), or undefined when the error must surface instead:
 * `Retry-After` when the service sent one (up to 60 s; a longer one is not slept through), otherwise capped
 * exponential backoff with full jitter.
 */
export function retryDelayMs(
  error: VoiceApiError,
  retry: number,
  policy: RetryPolicy,
  random = Math.random,
): number | undefined {
  const retryAfter = error.rateLimit?.retryAfterSeconds;
  if (retryAfter !== undefined) {
    return retryAfter > MAX_RETRY_AFTER_SECONDS ? undefined : Math.ceil(retryAfter * 1000);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * ceiling);
}
