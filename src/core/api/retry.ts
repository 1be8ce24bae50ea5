// The one rule for when a paid request may be sent again, for every endpoint (tts, emotion-tts, voice-clone: each
// is paid, and a clone makes a voice): only when it provably never reached the service (no connection was opened)
// or the service itself answered that nothing was charged. The proof that an answer is the service's own is what
// only the service sends: its own headers (its `X-Request-Id`, or its usage figures `X-RateLimit-Used` and
// `X-RateLimit-Remaining`), which a gateway answering in its place does not have; and, for a status a gateway also
// sends of its own accord (408, 429, any 5xx), its error body as well (a JSON object with `error`, `message` or
// `detail`, the shapes of the API notes). 502 and 504 speak for an upstream and never prove anything. A 429 is the
// service's only by its request ID (a rate limiter in front of it sends X-RateLimit-* figures of its own, under the
// same names), and one that names a wait the client keeps (`Retry-After`) is a rate limit's, whoever sent it: it
// refused the request before doing anything (RFC 6585), so it is tried again after that wait. Everything
// else may have reached the service and been charged with its answer lost, whatever its status (4xx included): a
// gateway's page (HTML, text, empty), a gateway's own JSON without the service's headers, a 502/504, a reset or a
// timeout after the request left, a call cut while an attempt was out. Such a call is never sent again: it stays
// spent on the books (the `unaccepted` hook hears `unknown`), its error says `maybe-charged`, and the member is told
// it may have been charged (never "quota used up" or "busy": that would take a stranger's word for the service's).
// After a 2xx nothing is sent again either: the service has charged it, and whatever cuts the call afterwards (the
// idle timer, the total timeout, the caller) ends a charged call (call.ts `accepted`). A call nobody waits for any
// more (its caller's CallControl `letGo`) is closed only while the service has not begun to answer (no status): the
// service bills at its 2xx, so closing then may save the whole charge, but whether it charged an instant before the
// close cannot be known, so it is such a call cut unanswered (`maybe-charged`, spent on the books, never sent again,
// never told to the member as not charged). Once a status has arrived it is not closed: a 2xx is read to its end and
// recorded as charged, any other answer ends the call with no further attempt. The client (client.ts) marks each
// error it throws with this answer.
// A refusal that names the key, the plan or the month (401, 403, the quota 429) is taken at the service's word only
// when the same proof holds (accountRefusalProven):
// anything else refused is told as what SayBot knows (the service or something in front of it refused), never marks
// the key or the month, and is charged as the rule above says.
import {
  AuthenticationError,
  ConnectionError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  type ChargeAnswer,
  type VoiceApiError,
} from './errors.ts';
import { MAX_RETRY_AFTER_SECONDS, hasServiceHeaders, waitsBriefly, type ResponseHeaders } from './response.ts';

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
 * Statuses a gateway or proxy also sends of its own accord (a timeout, a rate limit, a failure): from the service
 * they come with its error body. Not 401 and 403: the service's own come with any body (HTML, text, empty: the API
 * notes), and its headers prove them; an auth proxy's or a firewall's has none of its headers, so is maybe charged.
 */
const GATEWAY_ALSO_SENDS = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/**
 * What an answer with `status`, `headers` and `body` (undefined: it broke before it was read) says was charged: a
 * 2xx was; any other status was not only when it is provably the service's own answer (the rule above). Whatever
 * else answered may have let the request reach the service first.
 */
export function answerCharge(status: number, headers: ResponseHeaders, body: Uint8Array | undefined): ChargeAnswer {
  if (status >= 200 && status < 300) return 'charged';
  if (status === 429 && waitsBriefly(headers)) return 'not-charged';
  if (GATEWAY_STATUSES.has(status) || !hasServiceHeaders(headers, status)) return 'maybe-charged';
  if (GATEWAY_ALSO_SENDS(status) && !isServiceErrorBody(body)) return 'maybe-charged';
  return 'not-charged';
}

/**
 * Whether an error answer is provably the service's own, whatever its status: its headers and its JSON error body.
 * For a 502 or 504 this proves who speaks, never what was charged (the service may speak for an upstream of its own
 * that had the request): its words are told as the service's, its charge stays `maybe-charged` (answerCharge).
 */
export function serviceAnswered(status: number, headers: ResponseHeaders, body: Uint8Array | undefined): boolean {
  return hasServiceHeaders(headers, status) && isServiceErrorBody(body);
}

/**
 * Whether a refusal of the key (401), the plan (403) or the month (the quota 429) is the service's own word on it: its
 * answer proven by the rule (`not-charged`: its headers and its error body). Usage figures are not asked for: the
 * service documents them as optional, and its own 429 without them is still its month used up. Anything else that
 * refused so (a gateway's page, a proxy's JSON without the service's headers) says only that the service or something
 * in front of it refused.
 */
export function accountRefusalProven(error: VoiceApiError): boolean {
  if (error.charge !== 'not-charged') return false;
  return (
    error instanceof QuotaExceededError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError
  );
}

/** A 401, 403 or 429 whose word on the key, the plan or the month is not proven the service's (accountRefusalProven). */
export function refusedOnTheWay(error: VoiceApiError): boolean {
  const refusal =
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError ||
    error instanceof QuotaExceededError ||
    (error instanceof RateLimitedError && error.charge !== 'not-charged');
  return refusal && !accountRefusalProven(error);
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
