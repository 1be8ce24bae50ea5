import { ConnectionError, RateLimitedError, ServerError, type VoiceApiError } from './errors.ts';
import { MAX_RETRY_AFTER_SECONDS } from './response.ts';

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Transport failures that mean the request never reached the service (no connection was opened), so nothing can
 * have been charged. Every other failure after an attempt began (a reset, a socket closed, a timeout) may have come
 * after the service accepted and charged it: its answer is lost, not its charge.
 */
const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether an attempt that failed with this system or undici code may have reached the service. */
export function mayHaveReachedService(code: string | undefined): boolean {
  return !NEVER_CONNECTED.has(code ?? '');
}

/**
 * Which failures are worth another attempt: a definite answer that charges nothing (408/5xx as ServerError, short
 * rate limits) and a connection that never opened. Never a connection that broke once the request may have left:
 * every request is paid, and the service may have charged it with its answer lost on the way, so sending it again
 * could pay twice while the books hold one spend (the caller counts that attempt as spent and undelivered instead).
 * Never 400/401/403, the quota 429, timeouts (the same: sent, maybe charged; and a service that was too slow once
 * is likely to be slow again), unexpected responses or aborts.
 */
export function isRetryable(error: VoiceApiError): boolean {
  if (error instanceof ConnectionError) return !mayHaveReachedService(error.code);
  return error instanceof ServerError || error instanceof RateLimitedError;
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
