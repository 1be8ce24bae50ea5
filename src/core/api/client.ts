// The Voice API client: one keep-alive pool, each paid request's wire shape checked before it is sent (an invalid one
// never is), sent once per `send` (a resend is the paid call's decision, paid-call.ts `resend`), returned at the
// service's status (Sent: its 2xx, or what a call without one saw), and a 2xx answer read to its audio (audio-body.ts).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { inspect, type InspectOptions } from 'node:util';
import { Agent, FormData, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { detectAudioFormat, SNIFF_BYTES, type AudioFormat } from '../audio/codecs/format.ts';
import { countCharacters } from '../characters.ts';
import { redactSecrets, silentLogger, type Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import {
  BadRequestError,
  errorCode,
  ConnectionError,
  OversizedResponseError,
  transportError,
  UndeliveredError,
  UnexpectedResponseError,
  VoiceApiError,
  type UsageInfo,
} from './errors.ts';
import { withoutEchoes, withoutSecretRuns } from './echoes.ts';
import {
  answered,
  Call,
  errorForStatus,
  header,
  KeyState,
  type KeyStateSnapshot,
  parseServiceMessage,
  requestIdOf,
  type ResponseHeaders,
  type RetryPolicy,
  serviceAnswered,
  type NotOk,
  usageOf,
} from './response.ts';
import {
  AudioBodyStream,
  DEFAULT_AUDIO_LIMITS,
  audioBound,
  discard,
  ERROR_BODY_CAP,
  readCapped,
  readHead,
  voiceIdFromJson,
  voiceIdFromPartialJson,
  type AudioLimits,
  type Head,
} from './audio-body.ts';

// A paid request's wire shape, checked before anything is sent. The requests' field names are the wire names (as the
// OpenAI SDK does), so a request reads like the API docs; objects are strict: a misspelt field (`voiceId`) fails here
// instead of being silently dropped.
const text = z
  .string({ error: 'is required and must be a string' })
  .refine((s) => s.trim().length > 0, 'must not be empty');
const voiceId = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty');
const optionalText = z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional();

const TtsRequestSchema = z.strictObject({
  text,
  voice_id: voiceId,
  language: optionalText,
  output_format: z.enum(['wav', 'mp3'], { error: 'must be "wav" or "mp3"' }).optional(),
  tone_instruction: optionalText,
});

const EmotionTtsRequestSchema = z.strictObject({
  text,
  /** Note: `voice`, not `voice_id`, on this endpoint. Default on the service: voice-b-ko-f-01. */
  voice: voiceId.optional(),
  exaggeration: z
    .number({ error: 'must be a number' })
    .min(0, 'must be between 0 and 1')
    .max(1, 'must be between 0 and 1')
    .optional(),
});

const CloneVoiceRequestSchema = z.strictObject({
  text,
  ref_audio: z.strictObject({
    // Any Uint8Array, Buffer included, whatever its backing buffer (z.instanceof would demand an ArrayBuffer one).
    data: z
      .custom<Uint8Array>((d) => d instanceof Uint8Array, { error: 'must be a Uint8Array or Buffer' })
      .refine((d) => d.byteLength > 0, 'must not be empty'),
    filename: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty'),
    /** Sent as the part's Content-Type; detected from the bytes when omitted. */
    contentType: z.string().min(1).optional(),
  }),
});

export type TtsRequest = z.input<typeof TtsRequestSchema>;
export type EmotionTtsRequest = z.input<typeof EmotionTtsRequestSchema>;
export type CloneVoiceRequest = z.input<typeof CloneVoiceRequestSchema>;

/** A request checked locally; an invalid one becomes a BadRequestError before any HTTP call. */
function validateRequest<S extends z.ZodType>(schema: S, value: unknown, operation: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? 'request' : issue.path.join('.');
    return `${where}: ${issue.message}`;
  });
  throw new BadRequestError(`Invalid ${operation} request (not sent): ${problems.join('; ')}`);
}

/** Milliseconds. undici's connect, headers and body-idle timers tick coarsely: up to about a second late. */
export interface Timeouts {
  connectMs: number;
  headersMs: number;
  /** Longest silence between two chunks of the body (not while the caller applies back-pressure). */
  bodyIdleMs: number;
  /** Every attempt, the waits between them and the body to its last byte, less the time the caller is not reading. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({
  connectMs: 5_000,
  headersMs: 20_000,
  bodyIdleMs: 15_000,
  totalMs: 120_000,
});
const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
});

export interface VoiceApiClientOptions {
  /** e.g. `https://api.example.com`; endpoints live under `/v1` below it. */
  baseUrl: string;
  apiKey: string;
  /** Resends after the first attempt, each of a request that never left (the paid call's, paid-call.ts `resend`). */
  maxRetries?: number;
  timeouts?: Partial<Timeouts>;
  logger?: Logger;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Counts each HTTP exchange (resends too) by status (0: no answer) and time to the response headers. */
  metrics?: Pick<Metrics, 'voiceApiRequest'> | undefined;
  /** How much audio a request's text may bring (audioBound); DEFAULT_AUDIO_LIMITS otherwise. */
  audioLimits?: Partial<AudioLimits>;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Aborted once nobody waits for the answer any more. Before any status the call is broken off (maybe charged: the service
   * bills at its 2xx, and may have just then); once a status arrived the call ends by it: a 2xx is read to its end, any
   * other ends the call with no further attempt. */
  letGo?: AbortSignal | undefined;
  /** A resend's (paid-call.ts `resend`, logged): its number, the wait before it, and the end of its first send's total
   * timeout (NotOk `deadline`), one timeout for every attempt. */
  resend?: { retry: number; delayMs: number; deadline: number } | undefined;
}

/** A paid request as the client sends it. */
export type PaidRequest =
  | { endpoint: 'tts'; body: TtsRequest }
  | { endpoint: 'emotion-tts'; body: EmotionTtsRequest }
  | { endpoint: 'voice-clone'; body: CloneVoiceRequest };

/** What a paid request's answer holds once read: audio, or a new voice. */
export type PaidAnswer<R extends PaidRequest> = R extends { endpoint: 'voice-clone' }
  ? CloneVoiceResponse
  : AudioResponse;

/** A call at the service's status: ok (its 2xx: the caller writes it down, then reads the answer, saying how what
 * breaks it off past its 2xx is marked, `pastOk`), or ended without a 2xx, with what it saw (NotOk), never what it
 * cost: the paid call decides that (paid-call.ts). */
export type Sent<T> = { kind: 'ok'; answer: ServiceAnswer; read(pastOk?: Call['pastOk']): Promise<T> } | NotOk;

/** What an answer's headers say of it: the service's request ID and its usage figures. */
interface IdAndUsage {
  requestId?: string | undefined;
  usage?: UsageInfo | undefined;
}

/** The service's 2xx, before its body: it took (and charged) the request. Not an order's `Acceptance`. */
export interface ServiceAnswer extends IdAndUsage {
  status: number;
}

export interface AudioResponse extends IdAndUsage {
  /** Detected from the bytes, whatever Content-Type said. */
  format: AudioFormat;
  /** Read it to the end or destroy() it; its failures are typed errors (errors.ts), never retried. */
  body: Readable;
}

export interface CloneVoiceResponse extends IdAndUsage {
  /** From the `X-Voice-Id` header; usable as `voice_id` in tts(). */
  voiceId: string;
  /** Present when the service answered with audio of `text` in the new voice (otherwise it sent JSON or nothing). */
  audio?: AudioResponse;
  /** The audio broke off before its first bytes: the voice exists, paid; its text again would be paid twice. */
  audioLost?: true;
}

type Operation = 'tts' | 'emotion-tts' | 'voice-clone';

interface Outgoing {
  operation: Operation;
  /** The text spoken: what bounds the audio that may come back. */
  text: string;
  /** The member's words (its text, its tone): never kept from what comes back (echoes.ts). */
  said: readonly string[];
  /** The voice it is said in: its ID is never taken out of what comes back (echoes.ts). */
  voice?: string | undefined;
  /** Built for every attempt, so a multipart body can be re-sent. */
  body: () => { payload: string | FormData; contentType?: string };
  accept: string;
}

/** What a 2xx answer gives the caller; once it holds a stream, the call ends when that stream closes. */
type Finish<T> = (received: Received, call: Call) => T | Promise<T>;

/** A call at the service's 2xx status: charged, its body not read yet. */
interface OkCall {
  status: number;
  headers: ResponseHeaders;
  source: Readable;
  operation: Operation;
  said: readonly string[];
}

const closedError = () => new ConnectionError('The Voice API client was closed', 'CLIENT_CLOSED');

/** A call's answer, or its error once it ended without a 2xx. */
function answerOf<T>(sent: Sent<T>): Promise<T> {
  if (sent.kind === 'ok') return sent.read();
  throw sent.error;
}

interface Received {
  status: number;
  headers: ResponseHeaders;
  head: Head;
  format: AudioFormat | undefined;
  source: Readable;
  said: readonly string[];
  /** A clone's body broke before its head arrived: the voice exists (X-Voice-Id), its audio does not. */
  broken?: true;
}

function bodiless(answer: Pick<Received, 'status' | 'headers' | 'said'>, bytes: Buffer): Received {
  return { ...answer, head: { bytes, ended: true }, format: undefined, source: Readable.from([]) };
}

/** A clone's JSON answer names a voice in a few hundred bytes; one past this is not the service's answer. */
const CLONE_JSON_CAP = 64 * 1024;
const REF_AUDIO_FORMATS: readonly AudioFormat[] = ['wav', 'mp3', 'm4a'];
const CONTENT_TYPES: Partial<Record<AudioFormat, string>> = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4' };
/** Leaves out undefined fields, for results whose optional fields are absent rather than undefined. */
function withDefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function idAndUsage(headers: ResponseHeaders): IdAndUsage {
  return withDefined({ requestId: requestIdOf(headers), usage: usageOf(headers) });
}

/** `defaults` with the numbers given in their place, each checked: positive, or not negative with `allowZero`. */
function numbers<T extends object>(
  given: { [K in keyof T]?: number | undefined },
  defaults: Readonly<T>,
  prefix: string,
  allowZero = false,
): T {
  const fields = Object.entries(defaults) as Array<[keyof T & string, number]>;
  return Object.fromEntries(
    fields.map(([key, fallback]) => {
      const value = given[key] ?? fallback;
      if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0))
        throw new TypeError(
          `VoiceApiClient: ${prefix}${key} must be a ${allowZero ? 'non-negative' : 'positive'} number`,
        );
      return [key, value];
    }),
  ) as T;
}

/** The Voice API client: one keep-alive pool, requests validated locally, failures typed, one attempt per send. */
export class VoiceApiClient {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #timeouts: Timeouts;
  /** The resends a paid call may make of a send (paid-call.ts `resend`): configuration, never applied here. */
  readonly retry: Readonly<RetryPolicy>;
  readonly #logger: Logger;
  readonly #agent: Agent;
  readonly #calls = new Set<Call>();
  readonly #metrics: Pick<Metrics, 'voiceApiRequest'> | undefined;
  readonly #audioLimits: AudioLimits;
  readonly #keyState = new KeyState();
  #closed = false;

  /** What the service last said about the key (401, 429, 5xx, 2xx) and when: the owner console's. */
  get keyState(): KeyStateSnapshot {
    return this.#keyState.snapshot;
  }

  /** Tells keys apart without revealing them: a start under another key clears a used-up month. */
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
    this.#timeouts = numbers(options.timeouts ?? {}, DEFAULT_TIMEOUTS, 'timeouts.');
    this.#audioLimits = numbers(options.audioLimits ?? {}, DEFAULT_AUDIO_LIMITS, 'audioLimits.');
    const { maxRetries, retryBaseDelayMs: baseDelayMs, retryMaxDelayMs: maxDelayMs } = options;
    const retry = numbers({ maxRetries, baseDelayMs, maxDelayMs }, DEFAULT_RETRY, 'retry ', true);
    this.retry = { ...retry, maxRetries: Math.floor(retry.maxRetries) };
    this.#logger = (options.logger ?? silentLogger).child({ component: 'voice-api' });
    this.#agent = new Agent({
      connect: { timeout: this.#timeouts.connectMs },
      headersTimeout: this.#timeouts.headersMs,
      bodyTimeout: this.#timeouts.bodyIdleMs,
      keepAliveTimeout: 10_000,
    });
  }

  /** A paid request sent, and what it came to at the service's status (`Sent`): ok, its answer read next
   * (`read`), or ended without a 2xx and whether it may have been charged. Nothing is retried after a 2xx. */
  send<R extends PaidRequest>(request: R, options: CallOptions = {}): Promise<Sent<PaidAnswer<R>>> {
    const sent =
      request.endpoint === 'voice-clone' ? this.#sendClone(request.body, options) : this.#sendSpeech(request, options);
    return sent as Promise<Sent<PaidAnswer<R>>>;
  }

  /** `POST /v1/tts`: speech for `text` in a preset or cloned voice. */
  async tts(request: TtsRequest, options: CallOptions = {}): Promise<AudioResponse> {
    return answerOf(await this.send({ endpoint: 'tts', body: request }, options));
  }

  /** `POST /v1/emotion-tts`: speech with an emotion intensity (`exaggeration`, 0..1). */
  async emotionTts(request: EmotionTtsRequest, options: CallOptions = {}): Promise<AudioResponse> {
    return answerOf(await this.send({ endpoint: 'emotion-tts', body: request }, options));
  }

  /** `POST /v1/voice-clone` (multipart): a voice from a 3-60 s WAV, MP3 or M4A sample (another format refused here). */
  async cloneVoice(request: CloneVoiceRequest, options: CallOptions = {}): Promise<CloneVoiceResponse> {
    return answerOf(await this.#sendClone(request, options));
  }

  /** Speech, its text (and tone) never kept from what comes back. */
  #sendSpeech(request: Exclude<PaidRequest, { endpoint: 'voice-clone' }>, options: CallOptions) {
    const { endpoint, body } = request;
    const outgoing = () => {
      const schema = endpoint === 'tts' ? TtsRequestSchema : EmotionTtsRequestSchema;
      const json = JSON.stringify(validateRequest(schema, body, endpoint));
      const said = [body.text, (body as TtsRequest).tone_instruction ?? ''];
      return this.#jsonRequest(endpoint, json, body.text, said, 'voice_id' in body ? body.voice_id : body.voice);
    };
    const audio = (r: Received, call: Call) =>
      r.format === undefined ? this.#notAudio(r, call) : this.#audioResponse(r, r.format, call, body.text);
    return this.#send(outgoing, options, audio);
  }

  #sendClone(request: CloneVoiceRequest, options: CallOptions): Promise<Sent<CloneVoiceResponse>> {
    const outgoing = (): Outgoing => {
      const valid = validateRequest(CloneVoiceRequestSchema, request, 'voice-clone');
      const sniffed = detectAudioFormat(valid.ref_audio.data.subarray(0, SNIFF_BYTES));
      if (sniffed !== undefined && !REF_AUDIO_FORMATS.includes(sniffed)) {
        throw new BadRequestError(
          `Invalid voice-clone request (not sent): ref_audio: is ${sniffed.toUpperCase()}; the service accepts WAV, MP3 or M4A`,
        );
      }
      const type = valid.ref_audio.contentType ?? (sniffed && CONTENT_TYPES[sniffed]) ?? 'application/octet-stream';
      const {
        text,
        ref_audio: { filename },
      } = valid;
      // One copy of our own for every attempt: the caller may reuse its buffer.
      const clip = new Blob([valid.ref_audio.data], { type });
      return {
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
    };
    return this.#send(outgoing, options, (r, call) => this.#finishClone(r, call, request.text));
  }

  /** The key checked without spending: a tts without `text`, whose 400 means the key passed; 401, 403 throw. */
  async checkAccess(options: CallOptions = {}): Promise<IdAndUsage> {
    const probe = this.#jsonRequest('tts', JSON.stringify({ voice_id: 'voice-b-ko-f-01' }), '', []);
    try {
      const sent = await this.#send(
        () => probe,
        { signal: options.signal },
        ({ headers, source }) => {
          discard(source);
          return idAndUsage(headers);
        },
      );
      return await answerOf(sent);
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
    for (const call of this.#calls) call.fail(closedError());
    await this.#agent.destroy();
  }

  toString(): string {
    return `VoiceApiClient(${this.#baseUrl})`;
  }

  /** What JSON.stringify and util.inspect show: never the key. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.#baseUrl,
      maxRetries: this.retry.maxRetries,
      timeouts: { ...this.#timeouts },
      closed: this.#closed,
    };
  }

  [inspect.custom](_depth: number, options: InspectOptions, inspectFn: typeof inspect): string {
    return `VoiceApiClient ${inspectFn(this.toJSON(), options)}`;
  }

  #jsonRequest(operation: Operation, json: string, text: string, said: readonly string[], voice?: string): Outgoing {
    const body = () => ({ payload: json, contentType: 'application/json' });
    return { operation, text, said, voice, body, accept: 'audio/*' };
  }

  /** One attempt, up to the service's 2xx or the call's end without one: what it came to, returned. */
  async #send<T>(build: () => Outgoing, options: CallOptions, finish: Finish<T>): Promise<Sent<T>> {
    const call = new Call(
      options.signal,
      this.#timeouts.totalMs,
      (c) => this.#calls.delete(c),
      options.resend?.deadline,
    );
    this.#calls.add(call);
    let ok: OkCall;
    try {
      const outgoing = build();
      if (this.#closed) throw closedError();
      call.letGoOn(options.letGo);
      const { retry: attempt, delayMs } = options.resend ?? {};
      if (attempt) this.#logger.warn({ operation: outgoing.operation, attempt, delayMs }, 'Voice API call retrying');
      call.begin();
      ok = await this.#attempt(outgoing, call).catch((thrown: unknown) => {
        const error = this.#typed(thrown, call);
        const { status, requestId, name } = error;
        this.#logger.debug({ operation: outgoing.operation, status, requestId, error: name }, 'Voice API call failed');
        throw error;
      });
    } catch (error) {
      call.end();
      return { kind: 'not-ok', error, reached: call.reached, answer: call.answer, deadline: call.deadline };
    }
    const answer = { status: ok.status, ...idAndUsage(ok.headers) };
    const read = (pastOk?: Call['pastOk']) => {
      call.pastOk = pastOk;
      return this.#read(ok, call, finish);
    };
    return { kind: 'ok', answer, read };
  }

  /** A 2xx call's answer read; whatever ends it marked as its reader said. A stream handed over ends the call when it closes. */
  async #read<T>(ok: OkCall, call: Call, finish: Finish<T>): Promise<T> {
    try {
      return await finish(await this.#received(ok, call), call);
    } catch (thrown) {
      const error = thrown instanceof UndeliveredError ? thrown : this.#typed(thrown, call);
      const { status, requestId, name } = error;
      this.#logger.debug({ operation: ok.operation, status, requestId, error: name }, 'Voice API call failed');
      throw call.breakOff(error);
    } finally {
      if (!call.handedOver) call.end();
    }
  }

  /** One HTTP exchange, up to a 2xx status: the service took (and charged) it. Throws typed errors for everything else. */
  async #attempt(outgoing: Outgoing, call: Call): Promise<OkCall> {
    const { payload, contentType } = outgoing.body();
    const before = { used: this.#keyState.used, characters: countCharacters(outgoing.text) };
    let response: Dispatcher.ResponseData;
    const started = performance.now();
    const observe = (status: number) =>
      this.#metrics?.voiceApiRequest(outgoing.operation, status, (performance.now() - started) / 1000);
    try {
      response = await request(`${this.#baseUrl}/v1/${outgoing.operation}`, {
        method: 'POST',
        dispatcher: this.#agent.compose((dispatch) => (opts, handler) => dispatch(opts, call.noting(handler))),
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
      call.noAnswer(error);
      throw this.#asVoiceApiError(error, call, 'request');
    }
    const { statusCode: status, headers, body: source } = response;
    // Its answer has begun: it ends by it, whoever lets go of it now (CallOptions `letGo`).
    call.answered = true;
    observe(status);
    // A 2xx: the caller writes it down before a byte of the body is read (and nothing is retried).
    if (status >= 200 && status < 300) {
      this.#keyState.heard(status, outgoing.operation, headers, true);
      return { status, headers, source, operation: outgoing.operation, said: outgoing.said };
    }
    // Who answered (the service itself, or a gateway in front of it) and its figures: the facts the caller judges by.
    const bytes = await readCapped(source, ERROR_BODY_CAP);
    const answer = (call.answer = answered(status, headers, bytes, before));
    call.reached = true;
    this.#keyState.heard(status, outgoing.operation, headers, answer.proven);
    const said = this.#serviceMessage(bytes, outgoing.said, outgoing.voice);
    const error = errorForStatus(status, headers, said, Date.now(), serviceAnswered(status, headers, bytes));
    call.check();
    throw error;
  }

  /** A 2xx answer up to the sniffed head of its body (a clone's voice ID from JSON where no header names it). */
  async #received(ok: OkCall, call: Call): Promise<Received> {
    const { status, headers, source, operation, said } = ok;
    if (operation === 'voice-clone' && header(headers, 'x-voice-id') === undefined) {
      // Some services put the new voice's ID only in a JSON body.
      const bytes = await readCapped(source, CLONE_JSON_CAP + 1);
      call.check();
      const details = { status, ...idAndUsage(headers), missing: 'voice-id' as const };
      if (bytes.length > CLONE_JSON_CAP) {
        throw new OversizedResponseError(
          `The Voice API answered ${status} to voice cloning without the X-Voice-Id header and with a body over ${CLONE_JSON_CAP} bytes, which is not a voice's answer; its characters were charged`,
          details,
        );
      }
      const voiceId = voiceIdFromJson(bytes) ?? voiceIdFromPartialJson(bytes);
      if (voiceId === undefined) {
        // A voice made (and charged) that we cannot name: cloning again would pay for a second one.
        throw new UndeliveredError(
          `The Voice API answered ${status} to voice cloning without the X-Voice-Id header (nor a voice_id in the ${bytes.length} bytes of its body received), so the new voice cannot be used; its characters were charged`,
          details,
        );
      }
      return bodiless({ status, headers: { ...headers, 'x-voice-id': voiceId }, said }, bytes);
    }
    let head: Head;
    try {
      head = await readHead(source, SNIFF_BYTES);
    } catch (error) {
      discard(source);
      // After a 2xx the service has charged the request: a broken body is not retried (that would pay twice).
      if (operation === 'voice-clone') return { ...bodiless({ status, headers, said }, Buffer.alloc(0)), broken: true };
      const cause = this.#asVoiceApiError(error, call, 'body');
      throw new UndeliveredError(
        `The Voice API accepted the request (${status}) but its audio broke off before it could be used (${cause.message}); its characters were charged`,
        { status, ...idAndUsage(headers), cause },
      );
    }
    const format = detectAudioFormat(head.bytes.subarray(0, SNIFF_BYTES));
    return { status, headers, head, format, source, said };
  }

  #finishClone(received: Received, call: Call, text: string): CloneVoiceResponse | Promise<CloneVoiceResponse> {
    const { headers, head, format, source } = received;
    const voiceId = header(headers, 'x-voice-id') ?? '';
    const meta: CloneVoiceResponse = { voiceId, ...idAndUsage(headers) };
    if (received.broken) return { ...meta, audioLost: true };
    if (format !== undefined) return { ...meta, audio: this.#audioResponse(received, format, call, text) };
    // JSON, text or nothing: the voice exists all the same, and the body holds nothing we need.
    const drained = head.ended ? Promise.resolve() : readCapped(source, ERROR_BODY_CAP).then(() => call.check());
    return drained.then(() => meta);
  }

  /** The audio handed to the caller, broken off (and charged, undelivered) once it goes past what `text` can take. */
  #audioResponse(received: Received, format: AudioFormat, call: Call, text: string): AudioResponse {
    const { status, headers, head, source } = received;
    const requestId = requestIdOf(headers);
    const usage = usageOf(headers);
    const bound = audioBound(this.#audioLimits, text, format, head.bytes);
    const body = new AudioBodyStream(head, source, {
      // Past the 2xx: whatever breaks the audio off is marked as the call's reader said (the paid call: charged).
      mapError: (error) => call.breakOff(this.#asVoiceApiError(error, call, 'body')),
      waiting: (waiting) => (waiting ? call.pauseClock() : call.resumeClock()),
      done: () => call.networkDone(),
      maxBytes: bound.maxBytes,
      tooLarge: () => {
        const { maxBytes, maxSeconds } = bound;
        const fields = { code: 'api-audio-too-long', status, requestId, maxBytes, maxSeconds, format };
        this.#logger.warn(fields, 'Voice API audio went past what its text can take: cut');
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

  /** What the service said, without the key (or any run of it) or the member's words, in case it echoes them. */
  #serviceMessage(bytes: Uint8Array, said: readonly string[], voice?: string): string | undefined {
    const message = parseServiceMessage(bytes);
    return message === undefined
      ? undefined
      : withoutEchoes(withoutSecretRuns(redactSecrets(message, [this.#apiKey]), this.#apiKey), said, voice);
  }

  /** A failure typed, or what broke the call off. Network and undici failures carry a code; anything else is a bug here,
   * thrown as it is (never retried). */
  #typed(thrown: unknown, call: Call): VoiceApiError {
    if (call.reason === undefined && !(thrown instanceof VoiceApiError) && errorCode(thrown) === undefined)
      throw thrown;
    return this.#asVoiceApiError(thrown, call, 'request');
  }

  #asVoiceApiError(error: unknown, call: Call, stage: 'request' | 'body'): VoiceApiError {
    return call.reason ?? transportError(error, stage, this.#timeouts, this.#origin);
  }
}
