// One error class per failure class of the Voice API: callers branch with `instanceof`, never on message text.
// Messages are for humans and never hold the API key: the client redacts it from anything the service sends back.

/** Usage figures from `X-RateLimit-*` headers; every field is optional because services differ. */
export interface UsageInfo {
  limit?: number;
  used?: number;
  remaining?: number;
  /** When the counted window (for this service: the month) starts over. */
  resetAt?: Date;
}

/** Usage figures plus `Retry-After`, as sent with an error response. */
export interface RateLimitInfo extends UsageInfo {
  /** `Retry-After` (delta-seconds or an HTTP date) as seconds from when the response arrived. */
  retryAfterSeconds?: number;
}

/** What an error's log line shows, by name: a field added later is not logged until it is named here. */
const LOGGED_FIELDS = [
  'name',
  'status',
  'requestId',
  'serviceMessage',
  'rateLimit',
  'fromService',
  'phase',
  'timeoutMs',
  'code',
  'charged',
  'usage',
  'missing',
] as const;

/** What the service may have charged for a call, by the one rule of src/core/api/response.ts: `not-charged` (it never
 * reached the service, or the service itself said so), `maybe-charged` (it may have, and no answer of the service's
 * came back) or `charged` (the service accepted it with its 2xx). */
export type ChargeAnswer = 'not-charged' | 'maybe-charged' | 'charged';

export interface VoiceApiErrorDetails {
  status?: number;
  requestId?: string;
  serviceMessage?: string;
  rateLimit?: RateLimitInfo;
  cause?: unknown;
  charge?: ChargeAnswer;
  /** The answer is provably the service's own (response.ts `serviceAnswered`: its headers and its JSON error body). */
  fromService?: boolean;
}

export class VoiceApiError extends Error {
  /** HTTP status when the service answered; undefined for local, timeout, connection and abort failures. */
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** What the service said, from a JSON, text or HTML body (tags stripped, length capped). */
  readonly serviceMessage: string | undefined;
  readonly rateLimit: RateLimitInfo | undefined;
  /** The answer is provably the service's own (its headers and its JSON error body, response.ts `serviceAnswered`),
   * whatever its status: its words are the service's to tell, even where its status (a 502, a 504) proves no charge
   * either way. */
  readonly fromService: boolean;
  #charge: ChargeAnswer | undefined;

  constructor(message: string, details: VoiceApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.requestId = details.requestId;
    this.serviceMessage = details.serviceMessage;
    this.rateLimit = details.rateLimit;
    this.fromService = details.fromService === true;
    this.#charge = details.charge;
  }

  /** What the service may have charged for the call this error ended (response.ts, the retry rule); undefined for an
   * error no call has ended yet (a request refused before it was sent is `not-charged`). */
  get charge(): ChargeAnswer | undefined {
    return this.#charge;
  }

  /** The client says what the call cost once it knows: the first answer stands, a later one changes nothing. */
  chargedAs(charge: ChargeAnswer): this {
    this.#charge ??= charge;
    return this;
  }

  /** The fields chosen for logs (a subclass's among them), the message and the charge: never a body or a header. */
  toJSON(): Record<string, unknown> {
    const fields = this as unknown as Record<string, unknown>;
    const logged = LOGGED_FIELDS.filter((name) => name in fields).map((name) => [name, fields[name]]);
    return { ...Object.fromEntries(logged), message: this.message, charge: this.#charge };
  }
}

/** 400, 413, 415 and 422 from the service, or a request that failed local validation (no status then). */
export class BadRequestError extends VoiceApiError {}

/** 401: the API key is invalid or deactivated. */
export class AuthenticationError extends VoiceApiError {}

/** 403: typically a plan without API access. */
export class PermissionDeniedError extends VoiceApiError {}

/** 429 meaning the monthly character quota is used up. Never retried: only the next month helps. */
export class QuotaExceededError extends VoiceApiError {}

/** 429 that is a short rate limit (see `classify429` in response.ts); never retried (the retry rule there). */
export class RateLimitedError extends VoiceApiError {}

/** 5xx, and 408 (the service gave up waiting for us): the service failed, trying later may work. */
export class ServerError extends VoiceApiError {}

export type TimeoutPhase = 'headers' | 'body-idle' | 'total';

export class TimeoutError extends VoiceApiError {
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  constructor(message: string, phase: TimeoutPhase, timeoutMs: number, details: VoiceApiErrorDetails = {}) {
    super(message, details);
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

/** The connection failed: refused, unreachable, not opened within the connect timeout, reset before the headers or in
 * the middle of the body. */
export class ConnectionError extends VoiceApiError {
  /** The system or undici error code, e.g. ECONNREFUSED or UND_ERR_SOCKET. */
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined, details: VoiceApiErrorDetails = {}) {
    super(message, details);
    this.code = code;
  }
}

/** A response the client cannot use: a 2xx that is not audio, a clone without `X-Voice-Id`, 404 and the like. */
export class UnexpectedResponseError extends VoiceApiError {}

/** The service answered 2xx, so it has charged the request, but what the caller needed (the audio's first bytes,
 * the new voice's ID) never arrived. Never retried: a retry would pay again, and for a clone make a second voice.
 * Whoever records spends records this one as spent and undelivered. */
export class UndeliveredError extends VoiceApiError {
  readonly charged = true;
  /** The usage figures of the 2xx's headers. */
  readonly usage: UsageInfo | undefined;
  /** What never arrived: the audio (or all of it), or the new voice's ID (a clone answered 2xx without naming the
   * voice it made: it may exist at the service, paid for, with no ID to use it by). */
  readonly missing: 'audio' | 'voice-id';

  constructor(
    message: string,
    details: VoiceApiErrorDetails & { usage?: UsageInfo; missing?: 'audio' | 'voice-id' } = {},
  ) {
    super(message, { ...details, charge: 'charged' });
    this.usage = details.usage;
    this.missing = details.missing ?? 'audio';
  }
}

/** A 2xx whose body went past what its request can take (audio far longer than its text, a clone's JSON answer of
 * megabytes): a service fault or a proxy that never ends. Cut there, its memory let go; charged all the same. */
export class OversizedResponseError extends UndeliveredError {}

/** The caller's AbortSignal fired. */
export class AbortedError extends VoiceApiError {}

const CONNECTION_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  UND_ERR_SOCKET: 'connection closed by the server',
  ERR_STREAM_PREMATURE_CLOSE: 'the response ended early',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the response ended before its announced length',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  // Not opened in time, nothing of the request left: a connection that failed (sent again), not a slow answer.
  UND_ERR_CONNECT_TIMEOUT: 'no connection within the connect timeout',
};

/** A transport failure's system or undici code (ECONNREFUSED, UND_ERR_SOCKET), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What a transport failure's code says happened, in words for a message; undefined for a code not known here. */
export function connectionReason(code: string | undefined): string | undefined {
  return code === undefined ? undefined : CONNECTION_REASONS[code];
}

/** A transport failure typed (one already typed as it is); `stage`: whether audio was handed to the caller yet. */
export function transportError(
  error: unknown,
  stage: 'request' | 'body',
  timeouts: Record<'headersMs' | 'bodyIdleMs', number>,
  origin: string,
): VoiceApiError {
  if (error instanceof VoiceApiError) return error;
  const code = errorCode(error);
  const timeout = (phase: TimeoutPhase, ms: number, what: string): TimeoutError =>
    new TimeoutError(`The Voice API timed out: ${what} within ${ms} ms`, phase, ms, { cause: error });
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
      return timeout('headers', timeouts.headersMs, 'no response headers');
    case 'UND_ERR_BODY_TIMEOUT':
      return timeout('body-idle', timeouts.bodyIdleMs, 'the response body stopped arriving');
  }
  const reason = connectionReason(code) ?? code ?? 'network failure';
  const message =
    stage === 'body'
      ? `The connection to the Voice API broke while the audio was arriving (${reason})`
      : `Could not get a response from the Voice API at ${origin} (${reason})`;
  return new ConnectionError(message, code, { cause: error });
}
