// The one rule for when a paid request may be sent again, for every endpoint (tts, emotion-tts, voice-clone: each
// is paid, and a clone makes a voice): only when it provably never reached the service (no connection was opened)
// or the service itself answered that nothing was charged (a status below 500, which refuses the request before
// anything is made, or a 5xx other than 502/504 in the service's own JSON error shape). Everything else may have
// reached the service and been charged with its answer lost: a 502/503/504 from a gateway, any 5xx whose body is
// not the service's (HTML, text, empty), a reset or a timeout after the request left, a call cut while an attempt
// was out. Such a call is never sent again: it stays spent on the books (the `unaccepted` hook hears `unknown`), its
// error says `maybe-charged`, and the member is told it may have been charged. After a 2xx nothing is sent again
// either: the service has charged it. The client (client.ts) marks each error it throws with this answer.
import { ConnectionError, RateLimitedError, ServerError, type ChargeAnswer, type VoiceApiError } from './errors.ts';
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

/** Statuses that only a gateway sends, about an upstream (the service) that may have had the request. */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/** Whether an attempt that failed with this system or undici code may have reached the service. */
export function mayHaveReachedService(code: string | undefined): boolean {
  return !NEVER_CONNECTED.has(code ?? '');
}

/** What an attempt that failed in transport (before any status) may have cost. */
export function transportCharge(code: string | undefined): ChargeAnswer {
  return mayHaveReachedService(code) ? 'maybe-charged' : 'not-charged';
}

/**
 * Whether an error body is the service's own: a JSON object saying what went wrong (`error`, `message` or
 * `detail`, the shapes part 2 of the API notes names). A proxy's page (HTML), plain text or nothing is not.
 */
export function isServiceErrorBody(body: Uint8Array | undefined): boolean {
  if (body === undefined || body.length === 0) return false;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return ['error', 'message', 'detail'].some((key) => key in value);
}

/**
 * What an answer with `status` and `body` (undefined: it broke before it was read) says was charged: a 2xx was; a
 * status below 500 refused the request before anything was made (whoever sent it); a 5xx was not only when it is
 * the service's own answer (its JSON error shape, and not 502/504, which speak for an upstream).
 */
export function answerCharge(status: number, body: Uint8Array | undefined): ChargeAnswer {
  if (status >= 200 && status < 300) return 'charged';
  if (status < 500) return 'not-charged';
  if (GATEWAY_STATUSES.has(status)) return 'maybe-charged';
  return isServiceErrorBody(body) ? 'not-charged' : 'maybe-charged';
}

/**
 * Which failures are worth another attempt: only those that charged nothing (the rule above) and may pass if tried
 * again: the service's own 5xx or 408 (ServerError), a short rate limit, a connection that never opened. Never
 * 400/401/403 or the quota 429 (the same again), timeouts, unexpected responses or aborts.
 */
export function isRetryable(error: VoiceApiError): boolean {
  if (error.charge !== 'not-charged') return false;
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
