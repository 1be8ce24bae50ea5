import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { inspect, type InspectOptions } from 'node:util';
import { Agent, FormData, request, type Dispatcher } from 'undici';
import { detectAudioFormat, SNIFF_BYTES, type AudioFormat } from '../audio/codecs/format.ts';
import { redactSecrets, silentLogger, type Logger } from '../log.ts';
import {
  AudioBodyStream,
  audioBound,
  DEFAULT_AUDIO_LIMITS,
  discard,
  readCapped,
  readHead,
  type AudioLimits,
  type Head,
} from './body.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Call, WireWatch } from './call.ts';
import {
  BadRequestError,
  ConnectionError,
  OversizedResponseError,
  TimeoutError,
  UndeliveredError,
  UnexpectedResponseError,
  VoiceApiError,
  type TimeoutPhase,
  type UsageInfo,
} from './errors.ts';
import { withoutEchoes, withoutSecretRuns } from './echoes.ts';
import {
  errorForStatus,
  hasServiceHeaders,
  header,
  KeyState,
  parseServiceMessage,
  requestIdOf,
  usageOf,
  type KeyStateSnapshot,
  type ResponseHeaders,
} from './response.ts';
import {
  answerCharge,
  isRetryable,
  retryDelayMs,
  serviceAnswered,
  transportCharge,
  type RetryPolicy,
} from './retry.ts';
import {
  CloneVoiceRequestSchema,
  EmotionTtsRequestSchema,
  TtsRequestSchema,
  validateRequest,
  type CloneVoiceRequest,
  type EmotionTtsRequest,
  type TtsRequest,
} from './schemas.ts';

/**
 * Milliseconds. undici runs the connect, headers and body-idle timers on its coarse "fast timers" (ticks of
 * about half a second), so those may fire up to about a second late; the total timeout is the client's own.
 */
export interface Timeouts {
  /** TCP (and TLS) connection set-up. */
  connectMs: number;
  /** From the request being sent to the response headers. */
  headersMs: number;
  /** Longest silence between two chunks of the body (not counted while the caller applies back-pressure). */
  bodyIdleMs: number;
  /**
   * The whole call: every attempt, the waits between them, and the body until its last byte arrived — but not
   * the time the caller spends not reading (back-pressure: a player reading in real time is not the service
   * being slow).
   */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({
  connectMs: 5_000,
  headersMs: 20_000,
  bodyIdleMs: 15_000,
  totalMs: 120_000,
});
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;

export interface VoiceApiClientOptions {
  /** e.g. `https://api.example.com`; endpoints live under `/v1` below it. */
  baseUrl: string;
  apiKey: string;
  /** Retries after the first attempt; default 2. */
  maxRetries?: number;
  timeouts?: Partial<Timeouts>;
  logger?: Logger;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Counts each HTTP exchange (retries too) by status (0: no answer) and time to the response headers. */
  metrics?: Pick<Metrics, 'voiceApiRequest'> | undefined;
  /** How much audio a request's text may bring (body.ts); DEFAULT_AUDIO_LIMITS otherwise. */
  audioLimits?: Partial<AudioLimits>;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /**
   * Called when the service accepts the request (its 2xx status: it has charged it), before any of its body is read,
   * and awaited: the caller writes the charge down first, so that nothing it was charged depends on the body
   * arriving. At most once per call, since nothing is retried after a 2xx. What it throws ends the call.
   */
  accepted?: ((acceptance: Acceptance) => Promise<unknown>) | undefined;
  /**
   * Called once when a call ends without the service's acceptance, and awaited (what it
   * throws is ignored): `not-charged` when every attempt had a definite answer that charges nothing (a status other
   * than 2xx, a connection that never opened, an attempt never begun), `unknown` when an attempt left and no answer
   * came back (reset, timeout, cut by the caller): the service may have charged it. Retried attempts are one call.
   */
  unaccepted?: ((charged: ChargedAnswer) => Promise<unknown>) | undefined;
  /**
   * Given the call's control once, before its first attempt: how the caller says that nobody waits for the answer any more
   * (CallControl `letGo`).
   */
  control?: ((control: CallControl) => void) | undefined;
}

/** What a caller may do to its call while it runs. */
export interface CallControl {
  /**
   * Nobody waits for the answer any more. Before the service's answer has begun (no status received) the call is
   * cut, its connection closed: the service bills at its 2xx, so a request closed while it waits there uncharged is
   * billed nothing; whether it was charged an instant before cannot be known, so it ends as any call cut unanswered
   * (`maybe-charged`, `unaccepted` hears `unknown`, never sent again). Once a status has arrived the call ends by that
   * answer: a 2xx (charged) is read to its end as if nothing happened, any other status ends the call with no
   * further attempt. Returns true when the call will end without the service's acceptance, false when it was
   * accepted and goes on. The rule: src/core/api/retry.ts.
   */
  letGo(): boolean;
}

/** Whether a call that never saw the service's acceptance may have been charged. */
export type ChargedAnswer = 'not-charged' | 'unknown';

/** What one call has told the service so far, for `unaccepted`. */
interface CallProgress {
  /** Some attempt may have reached the service without its answer reaching us. */
  unanswered: boolean;
  /** The service accepted an attempt (its 2xx). */
  accepted: boolean;
}

/** What a 2xx status says before its body: the service accepted (and charged) the request. */
export interface Acceptance {
  status: number;
  requestId?: string | undefined;
  usage?: UsageInfo | undefined;
}

export interface AudioResponse {
  /** Detected from the bytes, whatever Content-Type said. */
  format: AudioFormat;
  /**
   * The whole body, first bytes included, still arriving. Read it to the end or destroy() it: the call (its
   * connection, abort listener) stays open until then. Failures arrive as typed errors on this stream:
   * ConnectionError (reset), TimeoutError ('body-idle' or 'total'), AbortedError. Never retried.
   */
  body: Readable;
  requestId?: string | undefined;
  usage?: UsageInfo | undefined;
}

export interface CloneVoiceResponse {
  /** From the `X-Voice-Id` header; usable as `voice_id` in tts(). */
  voiceId: string;
  /** Present when the service answered with audio of `text` in the new voice (otherwise it sent JSON or nothing). */
  audio?: AudioResponse;
  /**
   * The service sent audio, but it broke off before its first bytes could be used. The voice exists and was paid
   * for; speaking its text again would be a second payment, so the caller says so instead.
   */
  audioLost?: true;
  requestId?: string;
  usage?: UsageInfo;
}

export interface AccessCheck {
  requestId?: string;
  /** The key's usage, when the service sends X-RateLimit-* headers. */
  usage?: UsageInfo;
}

type Operation = 'tts' | 'emotion-tts' | 'voice-clone';

interface Outgoing {
  operation: Operation;
  /** The text spoken: what bounds the audio that may come back. */
  text: string;
  /** The member's words it carries (its text, its tone): never kept from what comes back (echoes.ts). */
  said: readonly string[];
  /** Built again for every attempt, so that a multipart body can be re-sent. */
  body: () => { payload: string | FormData; contentType?: string };
  accept: string;
}

interface Finished<T> {
  value: T | Promise<T>;
  /** A stream now belongs to the caller, and the call ends when it closes. */
  handedOver: boolean;
}

interface Received {
  status: number;
  headers: ResponseHeaders;
  head: Head;
  format: AudioFormat | undefined;
  source: Readable;
  /** The member's words the request carried (Outgoing.said). */
  said: readonly string[];
  /** A clone's body broke before its head arrived: the voice exists (X-Voice-Id), its audio does not. */
  broken?: true;
}

const ERROR_BODY_CAP = 64 * 1024;
/** A clone's JSON answer names a voice in a few hundred bytes; one past this is not the service's answer. */
const CLONE_JSON_CAP = 64 * 1024;
const REF_AUDIO_FORMATS: readonly AudioFormat[] = ['wav', 'mp3', 'm4a'];
const CONTENT_TYPES: Partial<Record<AudioFormat, string>> = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4' };
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
};

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Leaves out undefined fields, for results whose optional fields are absent rather than undefined. */
function withDefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function positive(value: number | undefined, fallback: number, name: string, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new TypeError(`VoiceApiClient: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/**
 * The Voice API client: one object shared by every command, one keep-alive connection pool. Requests are
 * validated locally, failures become typed errors (errors.ts), transient ones are retried, and audio comes
 * back as a stream whose format was sniffed from its first bytes.
 */
export class VoiceApiClient {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #timeouts: Timeouts;
  readonly #retry: RetryPolicy;
  readonly #logger: Logger;
  readonly #agent: Agent;
  readonly #calls = new Set<Call>();
  readonly #metrics: Pick<Metrics, 'voiceApiRequest'> | undefined;
  readonly #audioLimits: AudioLimits;
  readonly #keyState = new KeyState();
  #closed = false;

  /** What the service last said about the key (401, 429, 5xx, accepted) and when: the owner console's. */
  get keyState(): KeyStateSnapshot {
    return this.#keyState.snapshot;
  }

  /**
   * Tells keys apart without revealing them: 16 hex digits of a salted SHA-256. Kept with a used-up month so
   * that a start under another key clears it (quota/used-up-month.ts).
   */
  get keyFingerprint(): string {
    return createHash('sha256').update('saybot-key-fingerprint\0').update(this.#apiKey).digest('hex').slice(0, 16);
  }

  constructor(options: VoiceApiClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError('VoiceApiClient: baseUrl must be an absolute http(s) URL');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
      throw new TypeError('VoiceApiClient: baseUrl must be an http(s) URL without credentials');
    }
    // A key with spaces or control characters cannot go into a header; say so without echoing it.
    if (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError('VoiceApiClient: apiKey must be a non-empty string of visible ASCII characters');
    }
    this.#apiKey = options.apiKey;
    this.#metrics = options.metrics;
    this.#baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.#origin = url.origin;
    const t = options.timeouts ?? {};
    this.#timeouts = {
      connectMs: positive(t.connectMs, DEFAULT_TIMEOUTS.connectMs, 'timeouts.connectMs'),
      headersMs: positive(t.headersMs, DEFAULT_TIMEOUTS.headersMs, 'timeouts.headersMs'),
      bodyIdleMs: positive(t.bodyIdleMs, DEFAULT_TIMEOUTS.bodyIdleMs, 'timeouts.bodyIdleMs'),
      totalMs: positive(t.totalMs, DEFAULT_TIMEOUTS.totalMs, 'timeouts.totalMs'),
    };
    const a = options.audioLimits ?? {};
    this.#audioLimits = {
      secondsPerCharacter: positive(
        a.secondsPerCharacter,
        DEFAULT_AUDIO_LIMITS.secondsPerCharacter,
        'audioLimits.secondsPerCharacter',
      ),
      minSeconds: positive(a.minSeconds, DEFAULT_AUDIO_LIMITS.minSeconds, 'audioLimits.minSeconds'),
      maxBytes: positive(a.maxBytes, DEFAULT_AUDIO_LIMITS.maxBytes, 'audioLimits.maxBytes'),
    };
    const maxRetries = positive(options.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries', true);
    this.#retry = {
      maxRetries: Math.floor(maxRetries),
      baseDelayMs: positive(options.retryBaseDelayMs, DEFAULT_RETRY_BASE_DELAY_MS, 'retryBaseDelayMs', true),
      maxDelayMs: positive(options.retryMaxDelayMs, DEFAULT_RETRY_MAX_DELAY_MS, 'retryMaxDelayMs', true),
    };
    this.#logger = (options.logger ?? silentLogger).child({ component: 'voice-api' });
    this.#agent = new Agent({
      connect: { timeout: this.#timeouts.connectMs },
      headersTimeout: this.#timeouts.headersMs,
      bodyTimeout: this.#timeouts.bodyIdleMs,
      keepAliveTimeout: 10_000,
    });
  }

  /** `POST /v1/tts`: speech for `text` in a preset or cloned voice. */
  async tts(request: TtsRequest, options: CallOptions = {}): Promise<AudioResponse> {
    const json = JSON.stringify(validateRequest(TtsRequestSchema, request, 'tts'));
    const said = [request.text, request.tone_instruction ?? ''];
    return this.#execute(this.#jsonRequest('tts', json, request.text, said), options, (r, call) =>
      this.#finishAudio(r, call, request.text),
    );
  }

  /** `POST /v1/emotion-tts`: speech with an emotion intensity (`exaggeration`, 0..1). */
  async emotionTts(request: EmotionTtsRequest, options: CallOptions = {}): Promise<AudioResponse> {
    const json = JSON.stringify(validateRequest(EmotionTtsRequestSchema, request, 'emotion-tts'));
    return this.#execute(this.#jsonRequest('emotion-tts', json, request.text, [request.text]), options, (r, call) =>
      this.#finishAudio(r, call, request.text),
    );
  }

  /**
   * `POST /v1/voice-clone` (multipart): creates a voice from a 3-60 s WAV, MP3 or M4A sample. A reference
   * clip whose bytes are recognisably another format is refused locally.
   */
  async cloneVoice(request: CloneVoiceRequest, options: CallOptions = {}): Promise<CloneVoiceResponse> {
    const valid = validateRequest(CloneVoiceRequestSchema, request, 'voice-clone');
    const sniffed = detectAudioFormat(valid.ref_audio.data.subarray(0, SNIFF_BYTES));
    if (sniffed !== undefined && !REF_AUDIO_FORMATS.includes(sniffed)) {
      throw new BadRequestError(
        `Invalid voice-clone request (not sent): ref_audio: is ${sniffed.toUpperCase()}; the service accepts WAV, MP3 or M4A`,
      );
    }
    const type = valid.ref_audio.contentType ?? (sniffed && CONTENT_TYPES[sniffed]) ?? 'application/octet-stream';
    const { filename } = valid.ref_audio;
    const { text } = valid;
    // Our own copy, made once (a clip may be megabytes, and each copy holds the main thread): the caller may reuse
    // its buffer, and every attempt's body streams from this one.
    const clip = new Blob([valid.ref_audio.data], { type });
    const outgoing: Outgoing = {
      operation: 'voice-clone',
      text,
      said: [text],
      body: () => {
        const form = new FormData();
        form.append('text', text);
        form.append('ref_audio', clip, filename);
        return { payload: form };
      },
      accept: 'audio/*, application/json;q=0.9, */*;q=0.1',
    };
    return this.#execute(outgoing, options, (r, call) => this.#finishClone(r, call, text));
  }

  /**
   * Checks that the service is reachable and takes the key, without spending characters: a tts request without
   * `text`, which the service must refuse. A 400 means the key got past authentication (the service checks
   * the key before the body, as the sandbox does); 401, 403 and the rest throw their typed errors. It cannot
   * tell a spent monthly quota: look at `usage.remaining`, sent when the service sends usage headers.
   */
  async checkAccess(options: CallOptions = {}): Promise<AccessCheck> {
    const probe = this.#jsonRequest('tts', JSON.stringify({ voice_id: 'voice-b-ko-f-01' }), '', []);
    try {
      return await this.#execute(probe, { signal: options.signal }, ({ headers, source }) => {
        discard(source);
        return { value: withDefined({ requestId: requestIdOf(headers), usage: usageOf(headers) }), handedOver: false };
      });
    } catch (error) {
      if (!(error instanceof BadRequestError) || error.status !== 400) throw error;
      const { retryAfterSeconds: _, ...usage } = error.rateLimit ?? {};
      return withDefined({ requestId: error.requestId, usage: Object.keys(usage).length > 0 ? usage : undefined });
    }
  }

  /** Cuts calls still in flight (ConnectionError) and closes the connection pool. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const call of this.#calls) call.fail(this.#closedError());
    await this.#agent.destroy();
  }

  toString(): string {
    return `VoiceApiClient(${this.#baseUrl})`;
  }

  /** What JSON.stringify and util.inspect show: never the key. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.#baseUrl,
      maxRetries: this.#retry.maxRetries,
      timeouts: { ...this.#timeouts },
      closed: this.#closed,
    };
  }

  [inspect.custom](_depth: number, options: InspectOptions, inspectFn: typeof inspect): string {
    return `VoiceApiClient ${inspectFn(this.toJSON(), options)}`;
  }

  #jsonRequest(operation: Operation, json: string, text: string, said: readonly string[]): Outgoing {
    const body = () => ({ payload: json, contentType: 'application/json' });
    return { operation, text, said, body, accept: 'audio/*' };
  }

  #closedError(): ConnectionError {
    return new ConnectionError('The Voice API client was closed', 'CLIENT_CLOSED');
  }

  /**
   * Runs attempts until one succeeds, fails for good, or the call is cut. `finish` turns a 2xx into the
   * result; once it hands a stream to the caller the call ends when that stream closes, not here.
   */
  async #execute<T>(
    outgoing: Outgoing,
    options: CallOptions,
    finish: (received: Received, call: Call) => Finished<T>,
  ): Promise<T> {
    const call = new Call(options.signal, this.#timeouts.totalMs, (c) => this.#calls.delete(c));
    this.#calls.add(call);
    let handedOver = false;
    const progress: CallProgress = { unanswered: false, accepted: false };
    try {
      if (this.#closed) throw this.#closedError();
      options.control?.({ letGo: () => call.letGoOf() });
      return await this.#attempts(outgoing, options, finish, call, progress, (over) => (handedOver = over));
    } catch (error) {
      // What the call may have cost, on the error the caller words (retry.ts: the one rule).
      if (error instanceof VoiceApiError)
        error.chargedAs(progress.accepted ? 'charged' : progress.unanswered ? 'maybe-charged' : 'not-charged');
      if (!progress.accepted)
        await options.unaccepted?.(progress.unanswered ? 'unknown' : 'not-charged').catch(() => undefined);
      throw error;
    } finally {
      if (!handedOver) call.end();
    }
  }

  /** The attempts of one call, until one succeeds, fails for good, or the call is cut. */
  async #attempts<T>(
    outgoing: Outgoing,
    options: CallOptions,
    finish: (received: Received, call: Call) => Finished<T>,
    call: Call,
    progress: CallProgress,
    handOver: (handedOver: boolean) => void,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        call.check();
        call.unanswered();
        const finished = finish(await this.#attempt(outgoing, call, options.accepted, progress), call);
        handOver(finished.handedOver);
        return await finished.value;
      } catch (thrown) {
        // Network and undici failures carry a code; anything else is a bug here, shown as it is and not retried.
        if (call.reason === undefined && !(thrown instanceof VoiceApiError) && errorCode(thrown) === undefined)
          throw thrown;
        // A charged request stays what it is even when the call was cut meanwhile: its spend must be recorded.
        const error =
          thrown instanceof UndeliveredError ? thrown : (call.reason ?? this.#asVoiceApiError(thrown, call, 'request'));
        const context = {
          operation: outgoing.operation,
          attempt,
          status: error.status,
          requestId: error.requestId,
          error: error.name,
        };
        // This attempt's answer is over: a let-go from here cuts the wait, and nothing is attempted again.
        call.unanswered();
        const wait = this.#retryWait(error, attempt, call);
        if (wait === undefined) {
          this.#logger.debug(context, 'Voice API call failed');
          throw error;
        }
        this.#logger.warn({ ...context, delayMs: wait }, 'Voice API call failed; retrying');
        await call.sleep(wait);
      }
    }
  }

  #retryWait(error: VoiceApiError, attempt: number, call: Call): number | undefined {
    if (call.reason !== undefined || call.letGo || !isRetryable(error) || attempt > this.#retry.maxRetries)
      return undefined;
    const wait = retryDelayMs(error, attempt, this.#retry);
    // A wait that would outlast the total timeout only delays the same outcome.
    return wait === undefined || wait >= call.remainingMs() ? undefined : wait;
  }

  /** One HTTP exchange, up to the sniffed head of a 2xx body. Throws typed errors for everything else. */
  async #attempt(
    outgoing: Outgoing,
    call: Call,
    accepted: CallOptions['accepted'],
    progress: CallProgress,
  ): Promise<Received> {
    const { payload, contentType } = outgoing.body();
    let response: Dispatcher.ResponseData;
    const started = performance.now();
    const observe = (status: number) =>
      this.#metrics?.voiceApiRequest(outgoing.operation, status, (performance.now() - started) / 1000);
    const wire = new WireWatch();
    try {
      response = await request(`${this.#baseUrl}/v1/${outgoing.operation}`, {
        method: 'POST',
        dispatcher: this.#agent.compose(wire.interceptor),
        signal: call.signal,
        headers: {
          authorization: `Bearer ${this.#apiKey}`,
          accept: outgoing.accept,
          'user-agent': 'SayBot-VoiceApiClient/1',
          ...(contentType === undefined ? {} : { 'content-type': contentType }),
        },
        body: payload,
      });
    } catch (error) {
      observe(0);
      // Sent, or maybe sent, and no answer: the service may have accepted (and charged) it meanwhile. Nothing of it
      // written (let go of while its connection opened, or never connected): nothing to charge.
      const charge = wire.left ? transportCharge(errorCode(error)) : 'not-charged';
      if (charge === 'maybe-charged') progress.unanswered = true;
      throw this.#asVoiceApiError(error, call, 'request').chargedAs(charge);
    }
    const { statusCode: status, headers, body: source } = response;
    // Its answer has begun: it ends by it, whoever lets go of it now (CallControl `letGo`).
    call.answered();
    observe(status);
    // The key's state for the owner counts an answer as the service's by the retry rule's proof (retry.ts): for a
    // refusal, its headers and (for a status a gateway also sends) its error body, read first.
    const record = (fromService: boolean) =>
      this.#keyState.record(status, outgoing.operation, requestIdOf(headers), fromService);
    if (status < 200 || status >= 300) {
      // Who answered decides whether it may have been charged: the service itself, or a gateway in front of it.
      const bytes = await readCapped(source, ERROR_BODY_CAP).catch((error: unknown) => {
        const charge = answerCharge(status, headers, undefined);
        record(charge === 'not-charged');
        if (charge === 'maybe-charged') progress.unanswered = true;
        throw this.#asVoiceApiError(error, call, 'request').chargedAs(charge);
      });
      const charge = answerCharge(status, headers, bytes);
      record(charge === 'not-charged');
      if (charge === 'maybe-charged') progress.unanswered = true;
      call.check();
      const said = this.#serviceMessage(bytes, outgoing.said);
      throw errorForStatus(status, headers, said, Date.now(), serviceAnswered(headers, bytes)).chargedAs(charge);
    }
    record(hasServiceHeaders(headers));
    // Charged from here: the caller writes it down before a byte of the body is read (and nothing is retried).
    progress.accepted = true;
    call.accepted();
    try {
      await accepted?.(withDefined({ status, requestId: requestIdOf(headers), usage: usageOf(headers) }));
    } catch (error) {
      discard(source);
      throw error;
    }
    if (outgoing.operation === 'voice-clone' && header(headers, 'x-voice-id') === undefined) {
      // Liberal in what we accept: some services put the new voice's ID only in a JSON body.
      const bytes = await readCapped(source, CLONE_JSON_CAP + 1);
      call.check();
      if (bytes.length > CLONE_JSON_CAP) {
        // An answer cut short cannot be trusted to name the voice that was made (and charged).
        throw new OversizedResponseError(
          `The Voice API answered ${status} to voice cloning without the X-Voice-Id header and with a body over ${CLONE_JSON_CAP} bytes, which is not a voice's answer; its characters were charged`,
          withDefined({
            status,
            requestId: requestIdOf(headers),
            usage: usageOf(headers),
            missing: 'voice-id' as const,
          }),
        );
      }
      const voiceId = voiceIdFromJson(bytes) ?? voiceIdFromPartialJson(bytes);
      if (voiceId === undefined) {
        // The service made (and charged) a voice we cannot name: cloning again would make and pay for a second one.
        throw new UndeliveredError(
          `The Voice API answered ${status} to voice cloning without the X-Voice-Id header (nor a voice_id in the ${bytes.length} bytes of its body received), so the new voice cannot be used; its characters were charged`,
          withDefined({
            status,
            requestId: requestIdOf(headers),
            usage: usageOf(headers),
            missing: 'voice-id' as const,
          }),
        );
      }
      return {
        status,
        headers: { ...headers, 'x-voice-id': voiceId },
        head: { bytes, ended: true },
        format: undefined,
        source: Readable.from([]),
        said: outgoing.said,
      };
    }
    let head: Head;
    try {
      head = await readHead(source, SNIFF_BYTES);
    } catch (error) {
      discard(source);
      // After a 2xx the service has charged the request: a broken body is not retried (that would pay twice).
      if (outgoing.operation === 'voice-clone') {
        return {
          status,
          headers,
          head: { bytes: Buffer.alloc(0), ended: true },
          format: undefined,
          source: Readable.from([]),
          said: outgoing.said,
          broken: true,
        };
      }
      const cause = this.#asVoiceApiError(error, call, 'body');
      throw new UndeliveredError(
        `The Voice API accepted the request (${status}) but its audio broke off before it could be used (${cause.message}); its characters were charged`,
        withDefined({ status, requestId: requestIdOf(headers), usage: usageOf(headers), cause }),
      );
    }
    const format = detectAudioFormat(head.bytes.subarray(0, SNIFF_BYTES));
    return { status, headers, head, format, source, said: outgoing.said };
  }

  #finishAudio(received: Received, call: Call, text: string): Finished<AudioResponse> {
    const { head, format, source } = received;
    if (format === undefined) return { value: this.#notAudio(received, call), handedOver: false };
    return { value: this.#audioResponse(format, head, source, call, received, text), handedOver: true };
  }

  #finishClone(received: Received, call: Call, text: string): Finished<CloneVoiceResponse> {
    const { headers, head, format, source } = received;
    const voiceId = header(headers, 'x-voice-id') ?? '';
    const requestId = requestIdOf(headers);
    const usage = usageOf(headers);
    const meta: CloneVoiceResponse = withDefined({ voiceId, requestId, usage });
    if (received.broken) return { value: { ...meta, audioLost: true }, handedOver: false };
    if (format !== undefined) {
      return {
        value: { ...meta, audio: this.#audioResponse(format, head, source, call, received, text) },
        handedOver: true,
      };
    }
    // JSON, text or nothing: the voice exists all the same, and the body holds nothing we need.
    const drained = head.ended ? Promise.resolve() : readCapped(source, ERROR_BODY_CAP).then(() => call.check());
    return { value: drained.then(() => meta), handedOver: false };
  }

  /** The audio handed to the caller, cut (and charged, undelivered) once it goes past what `text` can take. */
  #audioResponse(
    format: AudioFormat,
    head: Head,
    source: Readable,
    call: Call,
    received: Received,
    text: string,
  ): AudioResponse {
    const { status, headers } = received;
    const requestId = requestIdOf(headers);
    const usage = usageOf(headers);
    const bound = audioBound(this.#audioLimits, text, format, head.bytes);
    const body = new AudioBodyStream(head, source, {
      // Past the 2xx: whatever cuts the audio, the service has charged it.
      mapError: (error) => (call.reason ?? this.#asVoiceApiError(error, call, 'body')).chargedAs('charged'),
      waiting: (waiting) => (waiting ? call.pauseClock() : call.resumeClock()),
      done: () => call.networkDone(),
      maxBytes: bound.maxBytes,
      tooLarge: () => {
        this.#logger.warn(
          {
            code: 'api-audio-too-long',
            status,
            requestId,
            maxBytes: bound.maxBytes,
            maxSeconds: bound.maxSeconds,
            format,
          },
          'Voice API audio went past what its text can take: cut',
        );
        return new OversizedResponseError(
          `The Voice API answered ${status} with more audio than ${text.length} characters can take (over ${bound.maxBytes} bytes, about ${Math.round(bound.maxSeconds)} s); it was cut there, and its characters were charged`,
          withDefined({ status, requestId, usage }),
        );
      },
    });
    call.handOver(body);
    body.once('close', () => call.end());
    return withDefined({ format, body, requestId, usage });
  }

  async #notAudio({ status, headers, head, source, said }: Received, call: Call): Promise<never> {
    const rest = head.ended ? Buffer.alloc(0) : await readCapped(source, ERROR_BODY_CAP);
    call.check();
    const bytes = Buffer.concat([head.bytes, rest]);
    const type = header(headers, 'content-type') ?? 'no content type';
    const what = bytes.length === 0 ? 'an empty body' : `${bytes.length} bytes of ${type} that are not audio`;
    throw new UnexpectedResponseError(`The Voice API answered ${status} with ${what}`, {
      status,
      requestId: requestIdOf(headers),
      serviceMessage: this.#serviceMessage(bytes, said),
    });
  }

  /** What the service said, with the key (whole or any run of it) and the member's words taken out in case it echoes them. */
  #serviceMessage(bytes: Uint8Array, said: readonly string[]): string | undefined {
    const message = parseServiceMessage(bytes);
    return message === undefined
      ? undefined
      : withoutEchoes(withoutSecretRuns(redactSecrets(message, [this.#apiKey]), this.#apiKey), said);
  }

  /** Maps a transport failure; `stage` says whether audio had already been handed to the caller. */
  #asVoiceApiError(error: unknown, call: Call, stage: 'request' | 'body'): VoiceApiError {
    if (call.reason !== undefined) return call.reason;
    if (error instanceof VoiceApiError) return error;
    const code = errorCode(error);
    const timeout = (phase: TimeoutPhase, ms: number, what: string): TimeoutError =>
      new TimeoutError(`The Voice API timed out: ${what} within ${ms} ms`, phase, ms, { cause: error });
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return timeout('connect', this.#timeouts.connectMs, `could not connect to ${this.#origin}`);
      case 'UND_ERR_HEADERS_TIMEOUT':
        return timeout('headers', this.#timeouts.headersMs, 'no response headers');
      case 'UND_ERR_BODY_TIMEOUT':
        return timeout('body-idle', this.#timeouts.bodyIdleMs, 'the response body stopped arriving');
    }
    const reason = (code !== undefined && CONNECTION_REASONS[code]) || (code ?? 'network failure');
    const message =
      stage === 'body'
        ? `The connection to the Voice API broke while the audio was arriving (${reason})`
        : `Could not get a response from the Voice API at ${this.#origin} (${reason})`;
    return new ConnectionError(message, code, { cause: error });
  }
}

/**
 * A `voice_id` from the part of a JSON body that arrived before it broke off: the ID is all that matters, and it
 * is whole once its closing quote arrived.
 */
function voiceIdFromPartialJson(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(bytes.subarray(0, ERROR_BODY_CAP));
  return /"(?:voice_id|voiceId)"\s*:\s*"([\x21\x23-\x7e]{1,200})"/.exec(text)?.[1];
}

/** `voice_id` (or `voiceId`, `id`) at the top of a JSON body, or under `voice` / `data`. */
function voiceIdFromJson(bytes: Uint8Array): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
  const pick = (o: unknown): string | undefined => {
    if (o === null || typeof o !== 'object') return undefined;
    const record = o as Record<string, unknown>;
    for (const key of ['voice_id', 'voiceId', 'id']) {
      const v = record[key];
      if (typeof v === 'string' && /^[\x21-\x7e]{1,200}$/.test(v)) return v;
    }
    return undefined;
  };
  const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return pick(value) ?? pick(record['voice']) ?? pick(record['data']);
}
