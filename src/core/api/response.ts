// What the Voice API's answers say: headers, the service's words, the typed error for a status, the key's state for
// the owner (KeyState); the retry rule below (sent again, by the paid call, only if it provably never left); and one
// call, one attempt (Call), its timers, its let-go and its facts (NotOk), never what it cost.
import { DecoratorHandler, type Dispatcher } from 'undici';
import {
  AbortedError,
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  type VoiceApiError,
  errorCode,
  type RateLimitInfo,
  type UsageInfo,
  type VoiceApiErrorDetails,
} from './errors.ts';

export type ResponseHeaders = Record<string, string | string[] | undefined>;
type Heard = { used: number | undefined; characters: number };

/** Longest `Retry-After` of a short rate limit (classify429); a longer one names the month. */
const MAX_RETRY_AFTER_SECONDS = 60;

const SERVICE_MESSAGE_MAX_CHARS = 500;
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-correlation-id', 'x-trace-id'];

export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Whether the headers of an answer with `status` are the service's own (the retry rule below). A cloud gateway's own
 * request ID has its own name (`x-amzn-RequestId`); a rate limiter's "299,995 left" is not the month's. */
function hasServiceHeaders(headers: ResponseHeaders, status?: number): boolean {
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

/** A 429 is a quota error (the API's only documented meaning) unless clearly a short rate limit: `Retry-After` at most
 * 60 s, no quota wording, and not nothing remaining with a reset more than 60 s away. */
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

/** The typed error for a non-2xx answer; `fromService`: provably the service's own (response.ts `serviceAnswered`). */
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
  const usage = gateway429 ? undefined : usageOf(headers, now);
  const rateLimit = defined<RateLimitInfo>({ ...usage, retryAfterSeconds: retryAfterOf(headers, now) });
  const details: VoiceApiErrorDetails = { status, requestId, serviceMessage, rateLimit, fromService };
  const id = requestId === undefined ? '' : `, request ${requestId}`;
  const tail = `(HTTP ${status}${id})${serviceMessage === undefined ? '' : `: ${serviceMessage}`}`;
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

/** The last answer of each kind, and the last 2xx; absent: none since start. */
export type KeyStateSnapshot = Partial<Record<'lastRefused' | 'lastLimited' | 'lastFailed' | 'lastOk', KeyAnswer>>;

export class KeyState {
  #state: KeyStateSnapshot = {};
  readonly #now: () => number;
  /** The month's use (`X-RateLimit-Used`) of the last answer taken as the service's word: `answered`'s `since`. */
  used: number | undefined;

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
    else if (status >= 200 && status < 300) this.#state = { ...this.#state, lastOk: answer() };
  }

  /** An answer, and whether it is the service's word: a 2xx, or one proven its own with its figures not risen. */
  heard(status: number, operation: string, headers: ResponseHeaders, word: boolean): void {
    this.record(status, operation, requestIdOf(headers), word);
    if (word) this.used = usageOf(headers)?.used ?? this.used;
  }

  get snapshot(): KeyStateSnapshot {
    return this.#state;
  }
}

// The retry rule, for every paid endpoint (tts, emotion-tts, voice-clone, which makes a voice), on the facts a call
// returns here and decided by the paid call (paid-call.ts `resend`): a request is sent again only when it provably
// never left (no connection opened, NEVER_CONNECTED, or none of it written), as nothing on an answer proves whose it is: a proxy that let the request through (billed) may answer in the service's place, any
// status, with the service's headers forwarded and a JSON error of its own, and sent again it is paid twice. Every
// answer is told as it is, in the service's words when its headers and JSON error say so (serviceAnswered). A call
// ended without a 2xx returns what it saw (NotOk, `answered`), never what it cost: the paid call decides that
// (paid-call.ts `chargeOf`), and what ends it past its 2xx (its `read`). A call nobody waits for any more is broken off only
// before any status (CallOptions `letGo`).
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Transport failures that mean the request never reached the service (no connection was opened), so nothing can
 * have been charged. Every other failure after an attempt began (a reset, a socket closed, a timeout) may have come
 * after the service took and charged it: its answer is lost, not its charge. */
const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether an error body is the service's own: a JSON object saying what went wrong (`error`, `message` or
 * `detail`, the shapes part 2 of the API notes names). A proxy's page (HTML), plain text or nothing is not. */
function isServiceErrorBody(body: Uint8Array | undefined): boolean {
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

/** Statuses a gateway or proxy also sends of its own accord (a timeout, a rate limit, a failure): from the service
 * they come with its error body. Not 401 and 403: the service's own come with any body (HTML, text, empty: the API
 * notes), and its headers prove them; an auth proxy's or a firewall's has none of its headers, so is maybe charged. */
const GATEWAY_ALSO_SENDS = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** What an answer that is not a 2xx proves: `proven` the service's own (what only it sends: its headers, and for a
 * status a gateway also sends, its JSON error body); its month's use (`X-RateLimit-Used`) `risen` by the request's
 * `characters` `since` the figure heard before it left (KeyState `used`), as a proxy that let it through forwards it;
 * for a 429, leaving it room (else the month's own refusal, whose figures a sibling's charge or the owner's use
 * elsewhere moved: booked spent, it would never mark the month). No figures, none heard yet, or fallen never rise. */
export interface Answered {
  status: number;
  proven: boolean;
  risen: boolean;
}

export function answered(status: number, headers: ResponseHeaders, body?: Uint8Array, since?: Heard): Answered {
  const proven = hasServiceHeaders(headers, status) && (!GATEWAY_ALSO_SENDS(status) || isServiceErrorBody(body));
  const { used = 0, remaining = Infinity } = usageOf(headers) ?? {};
  const characters = Math.max(1, since?.characters ?? 0);
  const room = status !== 429 || remaining >= characters;
  return { status, proven, risen: used - (since?.used ?? used) >= characters && room };
}

/** What a call ended without a 2xx saw: its error (typed, but for a bug here), whether it `reached` the service (some of
 * it written on an open connection, or answered), its answer if any, and the end of its total timeout (`deadline`,
 * epoch ms), which a resend of it keeps (CallOptions `deadline`). */
export interface NotOk {
  kind: 'not-ok';
  error: unknown;
  reached: boolean;
  answer: Answered | undefined;
  deadline?: number;
}

/** Whether an error answer is provably the service's own, whatever its status: its headers and its JSON error body.
 * For a 502 or 504 this proves who speaks, never what was charged (the service may speak for an upstream of its own
 * that had the request): its words are told as the service's, its charge stays `maybe-charged` (paid-call.ts). */
export function serviceAnswered(status: number, headers: ResponseHeaders, body: Uint8Array | undefined): boolean {
  return hasServiceHeaders(headers, status) && isServiceErrorBody(body);
}

/** Whether a refusal of the key (401), the plan (403) or the month (the quota 429) is the service's own word on it: its
 * answer proven not charged (paid-call.ts `chargeOf`: its headers and its error body). Usage figures are not asked for: the
 * service documents them as optional, and its own 429 without them is still its month used up. Anything else that
 * refused so (a gateway's page, a proxy's JSON without the service's headers) says only that the service or something
 * in front of it refused. */
export function accountRefusalProven(error: VoiceApiError): boolean {
  return refusesTheAccount(error) && error.charge === 'not-charged';
}

/** The service's own 429 that is not its word on the month (a short wait, or its figure leaving enough): busy. */
export function serviceBusy(error: VoiceApiError): boolean {
  return error instanceof RateLimitedError && error.charge === 'not-charged';
}

const refusesTheAccount = (error: VoiceApiError): boolean =>
  error instanceof QuotaExceededError || error instanceof AuthenticationError || error instanceof PermissionDeniedError;

/** A 401, 403 or 429 whose word on the key, the plan or the month is not proven the service's (accountRefusalProven). */
export function refusedOnTheWay(error: VoiceApiError): boolean {
  if (error.charge === 'not-charged') return false;
  return refusesTheAccount(error) || error instanceof RateLimitedError;
}

/** The wait before retry number `retry` (1-based): capped exponential backoff with full jitter. */
export function retryDelayMs(retry: number, policy: RetryPolicy, random = Math.random): number {
  return Math.round(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)));
}

/** One call (one attempt), and its facts by the rule above. `end()` removes every timer and listener (at the
 * stream's close once handed over). */
export class Call {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  readonly #callerSignal: AbortSignal | undefined;
  #letGoSignal: AbortSignal | undefined;
  readonly #totalMs: number;
  readonly #onEnd: (call: Call) => void;
  #deadline: number;
  /** Sent again: its deadline is its first send's (CallOptions `resend`). */
  readonly #resend: boolean;
  #pausedRemaining: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reason: VoiceApiError | undefined;
  /** What carries the audio to the caller (AudioBodyStream), broken off with the call. */
  #stream: { breakOff(error: Error): void } | undefined;
  #ended = false;
  /** Some byte of the attempt under way reached its socket (Noting). */
  #left = false;
  /** The attempt may have reached the service (NotOk `reached`); one that never did may be sent again. */
  reached = false;
  /** The attempt under way's answer, not a 2xx (NotOk `answer`). */
  answer: Answered | undefined;
  /** How the reader of its 2xx's answer marks what breaks the call off past it (Sent `read`, the paid call's rule). */
  pastOk: (<E extends VoiceApiError>(error: E) => E) | undefined;
  /** The attempt under way has its status: it ends by that answer, never broken off by a let-go. */
  answered = false;
  /** Audio is the caller's (handOver): the call stays open, abort still applying, until its stream closes. */
  handedOver = false;

  constructor(callerSignal: AbortSignal | undefined, totalMs: number, onEnd: (call: Call) => void, deadline?: number) {
    this.#callerSignal = callerSignal;
    this.#totalMs = totalMs;
    this.#deadline = deadline ?? Date.now() + totalMs;
    this.#resend = deadline !== undefined;
    this.#onEnd = onEnd;
    if (callerSignal?.aborted) {
      this.#onCallerAbort();
      return;
    }
    callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.#arm(this.#deadline - Date.now());
  }

  /** An attempt begins, unless the call was broken off: nothing of it has left, nor has any of its answer arrived. */
  begin(): void {
    this.check();
    this.answered = false;
    this.#left = false;
    this.reached = false;
    this.answer = undefined;
  }

  /** `handler` as it is, the attempt's request noted as it leaves: what an attempt with no answer may have cost. */
  noting(handler: Dispatcher.DispatchHandlers): Dispatcher.DispatchHandlers {
    return new Noting(handler, () => (this.#left = true));
  }

  /** An attempt ended with no status, by `thrown`. One let go of while its connection opens is dropped by undici
   * before it writes anything, and cannot have reached the service, whatever error it ends with. */
  noAnswer(thrown: unknown): void {
    this.reached = this.#left && !NEVER_CONNECTED.has(errorCode(thrown) ?? '');
  }

  /** `error` as what breaks the call off: past its 2xx, marked as its reader said (`pastOk`); before, as it is. */
  breakOff<E extends VoiceApiError>(error: E): E {
    return this.pastOk?.(error) ?? error;
  }

  // A resend's words name the deadline that fires: its first send's, not a total timeout of its own.
  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      const total = this.#totalMs;
      const words = this.#resend
        ? `, sent again, did not finish by its first send's deadline (${new Date(this.#deadline).toISOString()}: the total timeout of ${total} ms from that send)`
        : ` did not finish within its total timeout of ${total} ms`;
      this.fail(new TimeoutError(`The Voice API call${words}`, 'total', total));
    }, ms);
  }

  readonly #onCallerAbort = (): void => {
    this.fail(new AbortedError('The Voice API call was aborted by the caller', { cause: this.#callerSignal?.reason }));
  };

  get reason(): VoiceApiError | undefined {
    return this.#reason;
  }

  get deadline(): number {
    return this.#deadline;
  }

  /** CallOptions `letGo`: nobody waits any more; a call with its status (a 2xx one goes on) ends by that answer. */
  letGoOn(signal: AbortSignal | undefined): void {
    this.#letGoSignal = signal;
    if (signal?.aborted) this.#onLetGo();
    else signal?.addEventListener('abort', this.#onLetGo, { once: true });
  }

  readonly #onLetGo = (): void => {
    if (!this.answered)
      this.fail(
        new AbortedError('nobody waits for the answer any more: the call was closed before the service answered'),
      );
  };

  fail(reason: VoiceApiError): void {
    if (this.#reason !== undefined || this.#ended) return;
    this.#reason = this.breakOff(reason);
    this.#clearTimer();
    this.#controller.abort(reason);
    this.#stream?.breakOff(reason);
  }

  check(): void {
    if (this.#reason !== undefined) throw this.#reason;
  }

  handOver(stream: { breakOff(error: Error): void }): void {
    this.#stream = stream;
    this.handedOver = true;
  }

  /** The caller is not reading (back-pressure): that time does not count against the total timeout. */
  pauseClock(): void {
    if (this.#timer === undefined) return;
    this.#pausedRemaining = Math.max(0, this.#deadline - Date.now());
    this.#clearTimer();
  }

  resumeClock(): void {
    const remaining = this.#pausedRemaining;
    if (remaining === undefined || this.#ended || this.#reason !== undefined) return;
    this.#pausedRemaining = undefined;
    this.#deadline = Date.now() + remaining;
    this.#arm(remaining);
  }

  networkDone(): void {
    this.#clearTimer();
    this.#pausedRemaining = undefined;
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#clearTimer();
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#letGoSignal?.removeEventListener('abort', this.#onLetGo);
    this.#stream = undefined;
    this.#onEnd(this);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** An undici handler that notes the request's body leaving (`leaving`), and changes nothing else. */
class Noting extends DecoratorHandler {
  readonly #inner: Dispatcher.DispatchHandlers;
  readonly #leaving: () => void;

  constructor(handler: Dispatcher.DispatchHandlers, leaving: () => void) {
    super(handler);
    this.#inner = handler;
    this.#leaving = leaving;
  }

  onBodySent(chunk: unknown): void {
    this.#leaving();
    (this.#inner.onBodySent as ((chunk: unknown) => void) | undefined)?.(chunk);
  }

  // DecoratorHandler does not pass this one on; undici calls it once the whole request is written.
  onRequestSent(): void {
    this.#leaving();
    (this.#inner as { onRequestSent?: () => void }).onRequestSent?.();
  }
}
