// What the Voice API's answers say: headers, the service's words, the typed error for a status, and the key's
// state for the owner (KeyState).
import {
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  UnexpectedResponseError,
  type RateLimitInfo,
  type UsageInfo,
  type VoiceApiError,
  type VoiceApiErrorDetails,
} from './errors.ts';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** Longest `Retry-After` the client waits for; a longer one is surfaced instead of slept through. */
export const MAX_RETRY_AFTER_SECONDS = 60;

const SERVICE_MESSAGE_MAX_CHARS = 500;
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-correlation-id', 'x-trace-id'];

export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * Whether the headers of an answer with `status` are the service's own: its request ID (`X-Request-Id`) or its usage
 * figures (both `X-RateLimit-Used` and `X-RateLimit-Remaining`, which only the account's keeper knows). A gateway
 * answering in its place sends neither (a cloud gateway's own request ID has its own name, such as `x-amzn-RequestId`).
 * A 429 is the service's only by its request ID: a rate limiter in front of it sends X-RateLimit-* figures of its own,
 * under the same names (its "299,995 left" is not the month's).
 */
export function hasServiceHeaders(headers: ResponseHeaders, status?: number): boolean {
  if (header(headers, 'x-request-id') !== undefined) return true;
  if (status === 429) return false;
  return header(headers, 'x-ratelimit-used') !== undefined && header(headers, 'x-ratelimit-remaining') !== undefined;
}

export function requestIdOf(headers: ResponseHeaders): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = header(headers, name);
    if (value !== undefined) return value.slice(0, 200);
  }
  return undefined;
}

function nonNegativeNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** An HTTP date or an ISO date; not anything Date.parse accepts ("-3" is the year 3 BC to it). */
function parseDate(text: string): number | undefined {
  if (!/[a-z]/i.test(text) && !/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

/** Delta-seconds or an HTTP date, as seconds from `now` (never negative). */
export function parseRetryAfter(text: string | undefined, now = Date.now()): number | undefined {
  if (text === undefined) return undefined;
  const seconds = nonNegativeNumber(text);
  if (seconds !== undefined) return seconds;
  const at = parseDate(text);
  return at === undefined ? undefined : Math.max(0, (at - now) / 1000);
}

/** `X-RateLimit-Reset` as a date, epoch seconds or milliseconds, or seconds from now: the magnitude tells which. */
export function parseResetAt(text: string | undefined, now = Date.now()): Date | undefined {
  if (text === undefined) return undefined;
  const n = nonNegativeNumber(text);
  if (n !== undefined) {
    if (n >= 1e12) return new Date(n);
    if (n >= 1e9) return new Date(n * 1000);
    return new Date(now + n * 1000);
  }
  const at = parseDate(text);
  return at === undefined ? undefined : new Date(at);
}

function defined<T extends object>(record: T): T | undefined {
  const entries = Object.entries(record).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as T);
}

export function usageOf(headers: ResponseHeaders, now = Date.now()): UsageInfo | undefined {
  return defined<UsageInfo>({
    limit: nonNegativeNumber(header(headers, 'x-ratelimit-limit')),
    used: nonNegativeNumber(header(headers, 'x-ratelimit-used')),
    remaining: nonNegativeNumber(header(headers, 'x-ratelimit-remaining')),
    resetAt: parseResetAt(header(headers, 'x-ratelimit-reset'), now),
  });
}

/** `Retry-After-Ms` or `Retry-After`, as seconds from `now`. */
function retryAfterOf(headers: ResponseHeaders, now: number): number | undefined {
  const retryAfterMs = nonNegativeNumber(header(headers, 'retry-after-ms'));
  return retryAfterMs !== undefined ? retryAfterMs / 1000 : parseRetryAfter(header(headers, 'retry-after'), now);
}

export function rateLimitOf(headers: ResponseHeaders, now = Date.now()): RateLimitInfo | undefined {
  return defined<RateLimitInfo>({ ...usageOf(headers, now), retryAfterSeconds: retryAfterOf(headers, now) });
}

/**
 * Whether a 429 names a wait the client keeps (`Retry-After` up to MAX_RETRY_AFTER_SECONDS): a rate limit's, which
 * refused the request before doing anything (RFC 6585), whoever sent it; tried again after it.
 */
export function waitsBriefly(headers: ResponseHeaders, now = Date.now()): boolean {
  const wait = retryAfterOf(headers, now);
  return wait !== undefined && wait <= MAX_RETRY_AFTER_SECONDS;
}

function collapse(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  return flat.length > SERVICE_MESSAGE_MAX_CHARS ? `${flat.slice(0, SERVICE_MESSAGE_MAX_CHARS - 1)}…` : flat;
}

const ENTITIES: Record<string, string> = {
  '&nbsp;': ' ',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};

function stripHtml(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const body = /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ?? html;
  const text = body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(nbsp|lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity);
  // Error pages often repeat the title as the first heading.
  const flatTitle = title === undefined ? '' : title.replace(/\s+/g, ' ').trim();
  const flatBody = text.replace(/\s+/g, ' ').trim();
  return flatTitle !== '' && !flatBody.startsWith(flatTitle) ? `${flatTitle}: ${flatBody}` : flatBody;
}

function messageFromJson(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    // FastAPI-style `detail: [{ loc, msg }]`
    const parts = value.map((item) => messageFromJson(item)).filter((m): m is string => m !== undefined);
    return parts.length === 0 ? undefined : parts.join('; ');
  }
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['error', 'message', 'detail', 'msg', 'error_description']) {
    const found = messageFromJson(record[key]);
    if (found !== undefined) {
      const loc = Array.isArray(record['loc']) ? record['loc'].join('.') : undefined;
      return loc === undefined ? found : `${loc}: ${found}`;
    }
  }
  return undefined;
}

export function parseServiceMessage(body: Uint8Array): string | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(body).trim();
  if (text === '') return undefined;
  if (text.startsWith('{') || text.startsWith('[') || text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      const found = messageFromJson(parsed);
      return collapse(found ?? text);
    } catch {
      // Not JSON after all: fall through to text.
    }
  }
  if (/^<(!doctype|html|head|body|\?xml)|<\/[a-z]+>/i.test(text)) return collapse(stripHtml(text));
  return collapse(text);
}

function describe(status: number, requestId: string | undefined, serviceMessage: string | undefined): string {
  const id = requestId === undefined ? '' : `, request ${requestId}`;
  const said = serviceMessage === undefined ? '' : `: ${serviceMessage}`;
  return `(HTTP ${status}${id})${said}`;
}

/**
 * A 429 is a quota error (the API's only documented meaning) unless clearly a short rate limit: `Retry-After` at most
 * 60 s, no quota wording, and not nothing remaining with a reset more than 60 s away.
 */
export function classify429(
  rateLimit: RateLimitInfo | undefined,
  serviceMessage: string | undefined,
  now = Date.now(),
): 'rate-limit' | 'quota' {
  const retryAfter = rateLimit?.retryAfterSeconds;
  if (retryAfter === undefined || retryAfter > MAX_RETRY_AFTER_SECONDS) return 'quota';
  if (/quota|monthly|per month|usage limit|plan limit|character limit/i.test(serviceMessage ?? '')) return 'quota';
  const resetAt = rateLimit?.resetAt;
  const spent =
    rateLimit?.remaining === 0 ||
    (rateLimit?.used !== undefined && rateLimit.limit !== undefined && rateLimit.used >= rateLimit.limit);
  if (spent && resetAt !== undefined && resetAt.getTime() - now > MAX_RETRY_AFTER_SECONDS * 1000) return 'quota';
  return 'rate-limit';
}

/** The typed error for a non-2xx answer; `fromService`: provably the service's own (retry.ts `serviceAnswered`). */
export function errorForStatus(
  status: number,
  headers: ResponseHeaders,
  serviceMessage: string | undefined,
  now = Date.now(),
  fromService = false,
): VoiceApiError {
  const requestId = requestIdOf(headers);
  // A gateway's 429 says nothing of the month: its figures and its words are its own (never the service's count, never
  // kept); only its wait is heard, which makes it a rate limit.
  const gateway429 = status === 429 && !hasServiceHeaders(headers, status);
  const rateLimit = gateway429
    ? defined<RateLimitInfo>({ retryAfterSeconds: retryAfterOf(headers, now) })
    : rateLimitOf(headers, now);
  const details: VoiceApiErrorDetails = { status, requestId, serviceMessage, rateLimit, fromService };
  const tail = describe(status, requestId, serviceMessage);
  if (status === 400 || status === 413 || status === 415 || status === 422)
    return new BadRequestError(`The Voice API rejected the request as invalid ${tail}`, details);
  if (status === 401)
    return new AuthenticationError(
      `The Voice API did not accept the API key: it is invalid or deactivated ${tail}`,
      details,
    );
  if (status === 403)
    return new PermissionDeniedError(
      `The Voice API refused access; the plan may not include API access ${tail}`,
      details,
    );
  if (status === 429)
    return classify429(rateLimit, gateway429 ? undefined : serviceMessage, now) === 'rate-limit'
      ? new RateLimitedError(`The Voice API is rate limiting requests ${tail}`, details)
      : new QuotaExceededError(`The Voice API monthly character quota is used up ${tail}`, details);
  if (status === 408 || status >= 500)
    return new ServerError(`The Voice API failed to handle the request ${tail}`, details);
  return new UnexpectedResponseError(`The Voice API answered with an unexpected status ${tail}`, details);
}

// What the Voice API last said about the key, for the owner: fixed slots, no secret.

export interface KeyAnswer {
  status: number;
  at: Date;
  /** The endpoint: 'tts', 'tts/emotion', 'voices/clone'. */
  operation: string;
  requestId?: string | undefined;
}

/** The last answer of each kind, and the last accepted one; absent: none since start. */
export interface KeyStateSnapshot {
  lastRefused?: KeyAnswer | undefined;
  lastLimited?: KeyAnswer | undefined;
  lastFailed?: KeyAnswer | undefined;
  lastAccepted?: KeyAnswer | undefined;
}

export class KeyState {
  #state: KeyStateSnapshot = {};
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** One answer's status (0 is not kept); a refusal not proven the service's (a gateway's) is a failure on the way. */
  record(status: number, operation: string, requestId: string | undefined, fromService: boolean): void {
    const answer = (): KeyAnswer => ({ status, at: new Date(this.#now()), operation, requestId });
    if (!fromService && status >= 400) this.#state = { ...this.#state, lastFailed: answer() };
    else if (status === 401) this.#state = { ...this.#state, lastRefused: answer() };
    else if (status === 429) this.#state = { ...this.#state, lastLimited: answer() };
    else if (status >= 500 && status <= 599) this.#state = { ...this.#state, lastFailed: answer() };
    else if (status >= 200 && status < 300) this.#state = { ...this.#state, lastAccepted: answer() };
  }

  get snapshot(): KeyStateSnapshot {
    return this.#state;
  }
}
