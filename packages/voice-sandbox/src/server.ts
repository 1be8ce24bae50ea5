import { spokenWords, wordsAvailable } from './words.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { silentLogger, type SandboxLogger } from './log.ts';
import { billableCharacters } from './billing.ts';
import { CloneRegistry, referencePitchHz } from './clone.ts';
import { ENDPOINT_PATHS, FaultQueue, type Endpoint, type Fault, type FaultKind } from './faults.ts';
import { keyHint, KeyStore, planHasApiAccess, type KeyAccount, type NewKey, type Plan } from './keys.ts';
import { ApiError, badRequest, parseCloneBody, parseEmotionBody, parseTtsBody } from './requests.ts';
import {
  damageMp3,
  encodeMp3,
  encodeWav,
  MP3_DAMAGES,
  MP3_SAMPLE_RATES,
  toneSamples,
  WAV_HEADER_FORMS,
  type Mp3Damage,
  type WavHeaderForm,
} from './synth.ts';
import { presetVoice } from './voices.ts';

export interface Pacing {
  /** Wait before the status and headers of a successful response, as a service does while synthesising. */
  startDelayMs: number;
  /**
   * Time to send the body / length of the audio in it (a real-time factor): 1 sends a 3 s clip over 3 s, 0.5
   * over 1.5 s, 0 as fast as possible. Above 0 the body goes out with Transfer-Encoding: chunked.
   */
  realtimeFactor: number;
  /** Bytes a write; the body goes out in pieces of this size. */
  chunkBytes: number;
  /**
   * WAV output carries the header of a streaming synthesiser (sizes 0xFFFFFFFF and a LIST chunk before data).
   * The short form of `variants.wavHeader` ('streamed' / 'exact'); default true.
   */
  streamedWavHeader: boolean;
}

/**
 * What the Voice API document leaves open, chosen per sandbox (or per test with setVariants). The defaults are
 * what a real streaming service does: WAV headers written before the length is known, sent chunked.
 */
export interface Variants {
  /** WAV header form (synth.ts WavHeaderForm); default 'streamed'. */
  wavHeader: WavHeaderForm;
  /** Output sample rate (one MP3 can carry: 8000..48000); default 24000. */
  sampleRate: number;
  /**
   * Content-Type of audio: 'accurate' (audio/wav, audio/mpeg; emotion-tts application/octet-stream as the
   * document leaves it open), 'generic' (application/octet-stream everywhere) or 'missing' (no header). Default 'accurate'.
   */
  contentType: 'accurate' | 'generic' | 'missing';
  /** 'auto': chunked when paced or the WAV header is streamed, else Content-Length; or always one of them. */
  transfer: 'auto' | 'chunked' | 'length';
  /**
   * What a voice clone answers with besides X-Voice-Id: WAV of its text, JSON {"voice_id"}, or nothing; or
   * 'json-only': JSON {"voice_id"} and no X-Voice-Id header at all. Default 'audio'.
   */
  cloneBody: 'audio' | 'json' | 'empty' | 'json-only';
  /** Body of an error answer: JSON {"error":{code,message}} (default), an HTML page, plain text, or empty. */
  errorBody: 'json' | 'html' | 'text' | 'empty';
  /** MP3 output whole ('none', default), ending inside its last frame, or short of frames its Info header counts. */
  mp3Damage: Mp3Damage;
}

export const DEFAULT_VARIANTS: Readonly<Variants> = Object.freeze({
  wavHeader: 'streamed',
  sampleRate: 24_000,
  contentType: 'accurate',
  transfer: 'auto',
  cloneBody: 'audio',
  errorBody: 'json',
  mp3Damage: 'none',
});

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Output sample rate; one MP3 can carry (8000..48000). Default 24000. Same as variants.sampleRate. */
  sampleRate?: number;
  /** Audio length per character of text; default 0.06 s. */
  secondsPerCharacter?: number;
  /** MP3 output bitrate (CBR, mono): 64, 80, 96, 112, 128 or 160; default 64. */
  mp3Kbps?: number;
  pacing?: Partial<Pacing>;
  /** Send X-RateLimit-Limit/Used/Remaining/Reset; default true. */
  usageHeaders?: boolean;
  /** What a voice clone answers with besides X-Voice-Id: WAV of `text` (default) or JSON {"voice_id"}. Same as variants.cloneBody. */
  cloneResponse?: 'audio' | 'json';
  /** What the document leaves open; see Variants. */
  variants?: Partial<Variants>;
  /** The Creator-plan key `testKey` holds; default a random one. */
  testKey?: string;
  /** Longest text a request may carry, in characters; longer gets 400 text_too_long. Default 5000. */
  maxTextCharacters?: number;
  /** Request records kept (`requests`), the newest; default all, as tests read them back (the playground keeps 500). */
  maxRecords?: number;
  /** The clock monthly usage follows; tests move it to cross a month. */
  now?: () => Date;
  /** One line per request (key hints only, never keys). Default: silent. */
  logger?: SandboxLogger;
  /**
   * What speech sounds like: 'tones' (default), a sine at the voice's pitch for the text's length, which tests measure;
   * or 'words', the text spoken by eSpeak NG (when the optional espeak-ng package is installed; tones otherwise) in the
   * request's language and the voice's gender, so that a person hears words (the demo, the playground).
   */
  speech?: 'tones' | 'words';
}

export type RequestOutcome =
  | 'complete'
  | 'reset'
  | 'stalled'
  | 'paused'
  | 'held'
  | 'waiting'
  | 'reset-after-charge'
  | 'gateway-after-charge'
  | 'closed-before-response'
  | 'client-aborted';

export interface RequestRecord {
  /** The X-Request-Id sent back. */
  readonly id: string;
  readonly method: string;
  readonly path: string;
  /** Which endpoint the path names; absent for unknown paths. */
  readonly endpoint?: Endpoint;
  /** Absent until the status is sent, and for a connection closed before any response. */
  readonly status?: number;
  /** The end of the key (`…a1b2`), never the key. */
  readonly keyHint?: string;
  /**
   * Characters billed: the text's once the service accepted the request (sent its 2xx status), as a service does,
   * whatever happens to the body afterwards (a reset, a stall, a fault); otherwise 0.
   */
  readonly charactersBilled: number;
  readonly voice?: string;
  /** The language the request named (tts only; absent when it named none). */
  readonly language?: string;
  /** The text the request asked to speak, as received (tests check what a front-end sent). */
  readonly text?: string;
  readonly outputFormat?: 'wav' | 'mp3';
  readonly exaggeration?: number;
  /** The voice a clone created. */
  readonly clonedVoiceId?: string;
  readonly errorCode?: string;
  readonly fault?: FaultKind;
  readonly outcome?: RequestOutcome;
  /** Body bytes handed to the socket. */
  readonly bodyBytes: number;
  /** Writes the body took. */
  readonly chunks: number;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly respondedAt?: number;
  readonly finishedAt?: number;
}

export interface Sandbox {
  /** http://127.0.0.1:PORT (no trailing slash; endpoints under /v1). */
  readonly url: string;
  /** An active Creator-plan key. */
  readonly testKey: string;
  /** What it speaks: 'words' when they were asked for and eSpeak NG is installed, else 'tones'. */
  readonly speech: 'words' | 'tones';
  /** Adds a key (random unless given; Creator, active, nothing used by default) and returns it. */
  addKey(k: NewKey): string;
  setKeyActive(key: string, active: boolean): void;
  /** Changes a key's plan, as an operator upgrading in the dashboard. */
  setKeyPlan(key: string, plan: Plan): void;
  /** Sets a key's characters used this month (dashboard use, or a top-up lowering what counts). */
  setKeyUsed(key: string, used: number): void;
  /** Queued; consumed by the next matching request(s). */
  injectFault(fault: Fault): void;
  clearFaults(): void;
  /**
   * Lets every body paused by a 'pause-after' fault go on to its end, every answer a 'hold-after-charge' held, and
   * every request a 'hold-before-charge' kept waiting.
   */
  resumePaused(): void;
  setPacing(p: Partial<Pacing>): void;
  readonly pacing: Readonly<Pacing>;
  /** Changes what the document leaves open (see Variants); fields left out keep their value. */
  setVariants(v: Partial<Variants>): void;
  readonly variants: Readonly<Variants>;
  /** Every request, in arrival order; a record fills in as its request goes on. */
  readonly requests: readonly RequestRecord[];
  /** Characters billed to one key, or to all keys, since the start or the last resetCounters(). */
  charactersBilled(key?: string): number;
  /** Forgets the records and billed characters, and puts every key's monthly usage back where addKey set it. */
  resetCounters(): void;
  /** The pitch a voice speaks at (presets and clones). */
  voicePitchHz(voiceId: string): number | undefined;
  /** How long the audio for `text` lasts: max(0.5, characters × secondsPerCharacter). */
  expectedDurationSeconds(text: string): number;
  /** Stops listening and ends every open connection, stalled and paced ones included. */
  close(): Promise<void>;
}

// Below 64 kbps lamejs resamples high rates down to 22.05 kHz; these are valid for MPEG-1, 2 and 2.5 alike.
const MP3_KBPS = [64, 80, 96, 112, 128, 160];

const pacingSchema = z
  .object({
    startDelayMs: z.number().min(0).max(600_000),
    realtimeFactor: z.number().min(0).max(100),
    chunkBytes: z
      .int()
      .min(1)
      .max(16 * 1024 * 1024),
    streamedWavHeader: z.boolean(),
  })
  .partial()
  .strict();

const optionsSchema = z
  .object({
    host: z.string().min(1),
    port: z.int().min(0).max(65535),
    sampleRate: z
      .int()
      .refine((r) => MP3_SAMPLE_RATES.includes(r), `sampleRate must be one of ${MP3_SAMPLE_RATES.join(', ')}`),
    secondsPerCharacter: z.number().positive().max(10),
    mp3Kbps: z.literal(MP3_KBPS, { error: `mp3Kbps must be one of ${MP3_KBPS.join(', ')}` }),
    usageHeaders: z.boolean(),
    cloneResponse: z.enum(['audio', 'json']),
    testKey: z.string().min(1),
    maxTextCharacters: z.int().min(1),
    maxRecords: z.int().min(1),
    speech: z.enum(['tones', 'words']),
  })
  .partial();

const variantsSchema = z
  .object({
    wavHeader: z.enum(WAV_HEADER_FORMS as [WavHeaderForm, ...WavHeaderForm[]]),
    sampleRate: z
      .int()
      .refine((r) => MP3_SAMPLE_RATES.includes(r), `sampleRate must be one of ${MP3_SAMPLE_RATES.join(', ')}`),
    contentType: z.enum(['accurate', 'generic', 'missing']),
    transfer: z.enum(['auto', 'chunked', 'length']),
    cloneBody: z.enum(['audio', 'json', 'empty', 'json-only']),
    errorBody: z.enum(['json', 'html', 'text', 'empty']),
    mp3Damage: z.enum(MP3_DAMAGES as [Mp3Damage, ...Mp3Damage[]]),
  })
  .partial()
  .strict();

const TTS_AMPLITUDE = 0.4;
const MAX_JSON_BODY = 1024 * 1024;
const MAX_MULTIPART_BODY = 50 * 1024 * 1024;

/** What a successful request will speak, once its body has been validated. */
interface Speech {
  text: string;
  /** Absent for a clone, whose voice does not exist yet. */
  voice?: string;
  pitchHz: number;
  amplitude: number;
  format: 'wav' | 'mp3';
  contentType: string;
  exaggeration?: number;
  language?: string;
}

type MutableRecord = { -readonly [K in keyof RequestRecord]: RequestRecord[K] };

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  record: MutableRecord;
  /** The caller's key when it is known and active: usage headers describe it. */
  account?: KeyAccount;
  fault?: Fault;
  /** Aborts when the connection closes or the sandbox does: waits on this exchange's behalf end early. */
  signal: AbortSignal;
  /** Characters to bill when the 2xx status goes out (acceptance), to `account`. */
  bill?: number;
}

interface Body {
  bytes: Uint8Array;
  /** Seconds of audio in the body: paced, and held back by startDelayMs. */
  audioSeconds?: number;
  /** Sent without Content-Length, as a streaming synthesiser does (a streamed WAV header). */
  chunked?: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function bearerKey(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit the rest is still read (and dropped), so that the 413 reaches a client still sending.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw new ApiError(413, 'payload_too_large', `the body must not exceed ${limit} bytes`);
  return Buffer.concat(chunks);
}

class SandboxServer implements Sandbox {
  readonly url: string;
  readonly testKey: string;
  readonly #server: Server;
  readonly #keys: KeyStore;
  readonly #clones = new CloneRegistry();
  readonly #faults = new FaultQueue();
  readonly #records: MutableRecord[] = [];
  readonly #closing = new AbortController();
  /** Fired by resumePaused(): the bodies paused by a 'pause-after' fault, the answers and requests held, go on. */
  #resume = new AbortController();
  readonly #logger: SandboxLogger;
  readonly #secondsPerCharacter: number;
  readonly #mp3Kbps: number;
  /** Speech as words (eSpeak NG) rather than tones: SandboxOptions.speech. */
  readonly #words: boolean;
  get speech(): 'words' | 'tones' {
    return this.#words ? 'words' : 'tones';
  }
  readonly #usageHeaders: boolean;
  readonly #maxTextCharacters: number;
  readonly #maxRecords: number;
  #pacing: Omit<Pacing, 'streamedWavHeader'> = { startDelayMs: 0, realtimeFactor: 0, chunkBytes: 4096 };
  #variants: Variants = { ...DEFAULT_VARIANTS };
  #closed: Promise<void> | undefined;

  constructor(server: Server, url: string, options: SandboxOptions) {
    this.#server = server;
    this.url = url;
    this.#keys = new KeyStore(options.now ?? (() => new Date()));
    this.testKey = this.#keys.add({ key: options.testKey, plan: 'creator' });
    this.#logger = options.logger ?? silentLogger;
    this.#secondsPerCharacter = options.secondsPerCharacter ?? 0.06;
    this.#mp3Kbps = options.mp3Kbps ?? 64;
    this.#words = options.speech === 'words' && wordsAvailable();
    this.#usageHeaders = options.usageHeaders ?? true;
    this.#maxTextCharacters = options.maxTextCharacters ?? 5000;
    this.#maxRecords = options.maxRecords ?? Infinity;
    this.setVariants({
      ...(options.sampleRate === undefined ? {} : { sampleRate: options.sampleRate }),
      ...(options.cloneResponse === undefined ? {} : { cloneBody: options.cloneResponse }),
      ...options.variants,
    });
    if (options.pacing) this.setPacing(options.pacing);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.#handle(req, res).catch((error: unknown) => {
        this.#logger.error({ err: error }, 'sandbox: request handling failed');
        res.destroy();
      });
    });
  }

  addKey(k: NewKey): string {
    return this.#keys.add(k);
  }

  setKeyActive(key: string, active: boolean): void {
    this.#keys.setActive(key, active);
  }

  setKeyPlan(key: string, plan: Plan): void {
    this.#keys.setPlan(key, plan);
  }

  setKeyUsed(key: string, used: number): void {
    this.#keys.setUsed(key, used);
  }

  injectFault(fault: Fault): void {
    this.#faults.add(fault);
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  resumePaused(): void {
    this.#resume.abort();
    this.#resume = new AbortController();
  }

  get pacing(): Readonly<Pacing> {
    return { ...this.#pacing, streamedWavHeader: this.#variants.wavHeader !== 'exact' };
  }

  setPacing(p: Partial<Pacing>): void {
    const { streamedWavHeader, ...rest } = pacingSchema.parse(p);
    this.#pacing = { ...this.#pacing, ...rest };
    if (streamedWavHeader !== undefined) this.#variants.wavHeader = streamedWavHeader ? 'streamed' : 'exact';
  }

  get variants(): Readonly<Variants> {
    return { ...this.#variants };
  }

  setVariants(v: Partial<Variants>): void {
    this.#variants = { ...this.#variants, ...variantsSchema.parse(v) };
  }

  get requests(): readonly RequestRecord[] {
    return this.#records;
  }

  charactersBilled(key?: string): number {
    return this.#keys.billed(key);
  }

  resetCounters(): void {
    this.#records.length = 0;
    this.#keys.resetUsage();
  }

  voicePitchHz(voiceId: string): number | undefined {
    return presetVoice(voiceId)?.pitchHz ?? this.#clones.pitchHz(voiceId);
  }

  expectedDurationSeconds(text: string): number {
    return Math.max(0.5, billableCharacters(text) * this.#secondsPerCharacter);
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#closing.abort();
      this.#server.close(() => resolve());
      // Stalled and paced responses would otherwise hold the server open.
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const endpoint = ENDPOINT_PATHS.get(path);
    const record: MutableRecord = {
      id: `req_${randomBytes(8).toString('hex')}`,
      method: req.method ?? 'GET',
      path,
      endpoint,
      charactersBilled: 0,
      bodyBytes: 0,
      chunks: 0,
      startedAt: Date.now(),
    };
    this.#records.push(record);
    if (this.#records.length > this.#maxRecords) this.#records.splice(0, this.#records.length - this.#maxRecords);
    const key = bearerKey(req);
    record.keyHint = key === undefined ? undefined : keyHint(key);
    const closed = new AbortController();
    const exchange: Exchange = { req, res, record, signal: AbortSignal.any([this.#closing.signal, closed.signal]) };
    res.on('close', () => {
      record.finishedAt ??= Date.now();
      if (!res.writableFinished) record.outcome ??= 'client-aborted';
      closed.abort();
    });
    try {
      const account = key === undefined ? undefined : this.#keys.find(key);
      if (account?.active) exchange.account = account;
      await this.#serve(exchange, endpoint);
    } catch (error) {
      if (error instanceof ApiError) {
        await this.#sendError(exchange, error);
      } else if (!res.headersSent && !res.destroyed && !req.socket.destroyed) {
        this.#logger.error({ err: error, requestId: record.id }, 'sandbox: internal error');
        exchange.account = undefined; // what failed may be the usage bookkeeping itself
        await this.#sendError(exchange, new ApiError(500, 'internal_error', 'the sandbox failed; see its log'));
      } else {
        res.destroy();
      }
    }
    this.#logger.info(
      {
        requestId: record.id,
        method: record.method,
        path,
        status: record.status,
        keyHint: record.keyHint,
        characters: record.charactersBilled,
        fault: record.fault,
        outcome: record.outcome,
        ms: (record.finishedAt ?? Date.now()) - record.startedAt,
      },
      'sandbox request',
    );
  }

  async #serve(exchange: Exchange, endpoint: Endpoint | undefined): Promise<void> {
    const { req, record } = exchange;
    if (endpoint === undefined) {
      throw new ApiError(
        404,
        'not_found',
        `no such endpoint: ${record.path} (POST /v1/tts, /v1/emotion-tts or /v1/voice-clone)`,
      );
    }
    if (req.method !== 'POST') {
      throw new ApiError(405, 'method_not_allowed', `${record.path} takes POST only`, { Allow: 'POST' });
    }
    const body = await readBody(req, endpoint === 'voice-clone' ? MAX_MULTIPART_BODY : MAX_JSON_BODY);

    const fault = this.#faults.take(endpoint);
    exchange.fault = fault;
    record.fault = fault?.kind;
    if (fault?.kind === 'close-before-response') {
      record.outcome = 'closed-before-response';
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'response') {
      // A gateway's answer: none of the service's headers (no usage figures, no request ID of the service's), only
      // the fault's own. A 2xx comes only once the service accepted the request, which bills it as it bills every 2xx.
      exchange.account = undefined;
      if (fault.status < 300) {
        const account = this.#authenticate(req);
        const { text } = await this.#speech(endpoint, req, body, account);
        record.text = text;
        record.charactersBilled = billableCharacters(text);
        this.#keys.bill(account, record.charactersBilled);
      }
      const headers: Record<string, string> = { ...fault.headers };
      if (fault.contentType !== undefined) headers['Content-Type'] = fault.contentType;
      const bytes = typeof fault.body === 'string' ? Buffer.from(fault.body) : (fault.body ?? new Uint8Array());
      await this.#send(exchange, fault.status, headers, { bytes });
      return;
    }

    const account = this.#authenticate(req);
    if (fault?.kind === 'service-error' && fault.body !== undefined) {
      const headers: Record<string, string> = { ...fault.headers };
      if (fault.contentType !== undefined) headers['Content-Type'] = fault.contentType;
      await this.#send(exchange, fault.status, headers, { bytes: Buffer.from(fault.body) });
      return;
    }
    if (fault?.kind === 'service-error') {
      const message = fault.message ?? 'the service could not handle the request; nothing was charged';
      throw new ApiError(fault.status, fault.status >= 500 ? 'service_unavailable' : 'request_refused', message, {
        ...fault.headers,
      });
    }
    const speech = await this.#speech(endpoint, req, body, account);
    record.voice = speech.voice;
    record.text = speech.text;
    record.outputFormat = speech.format;
    record.exaggeration = speech.exaggeration;
    record.language = speech.language;

    const characters = billableCharacters(speech.text);
    if (characters > this.#maxTextCharacters) {
      const most = this.#maxTextCharacters;
      throw badRequest('text_too_long', `text has ${characters} characters; at most ${most} are allowed a request`);
    }
    const { limit, used } = this.#keys.usage(account);
    if (used + characters > limit) {
      const left = Math.max(0, limit - used);
      throw new ApiError(
        429,
        'quota_exceeded',
        `this request needs ${characters} characters; ${left} of the plan's ${limit} are left this month`,
      );
    }
    // Billed at acceptance, when the 2xx status is sent (#send), faulted or not: what the body then does changes nothing.
    exchange.bill = characters;

    const variants = this.#variants;
    const headers: Record<string, string> = {};
    const audioType =
      variants.contentType === 'accurate'
        ? speech.contentType
        : variants.contentType === 'generic'
          ? 'application/octet-stream'
          : undefined;
    if (audioType !== undefined) headers['Content-Type'] = audioType;
    if (endpoint === 'voice-clone') {
      const voiceId =
        fault?.kind === 'clone-without-voice-id' ? undefined : this.#clones.add(speech.pitchHz, account.key);
      record.voice = record.clonedVoiceId = voiceId;
      if (voiceId !== undefined && variants.cloneBody !== 'json-only') headers['X-Voice-Id'] = voiceId;
      if (variants.cloneBody === 'json' || variants.cloneBody === 'json-only') {
        headers['Content-Type'] = JSON_TYPE;
        const json = voiceId === undefined ? { status: 'ok' } : { voice_id: voiceId };
        await this.#send(exchange, 200, headers, { bytes: Buffer.from(JSON.stringify(json)) });
        return;
      }
      if (variants.cloneBody === 'empty') {
        delete headers['Content-Type'];
        await this.#send(exchange, 200, headers, { bytes: new Uint8Array() });
        return;
      }
    }
    // A line eSpeak NG cannot make (its thread busy or failing) is answered in tones, as a stand-in should.
    const spoken = this.#words ? await spokenWords(speech).catch(() => undefined) : undefined;
    if (spoken !== undefined) {
      const wordsBytes =
        speech.format === 'mp3' ? await encodeMp3(spoken.samples, spoken.rate, this.#mp3Kbps) : spoken.wav;
      await this.#send(exchange, 200, headers, {
        bytes: wordsBytes,
        audioSeconds: spoken.samples.length / spoken.rate,
      });
      return;
    }
    const seconds = this.expectedDurationSeconds(speech.text);
    const rate = variants.sampleRate;
    const samples = toneSamples({ pitchHz: speech.pitchHz, seconds, amplitude: speech.amplitude, sampleRate: rate });
    const streamedWav = speech.format === 'wav' && variants.wavHeader !== 'exact';
    const bytes =
      speech.format === 'mp3'
        ? damageMp3(await encodeMp3(samples, rate, this.#mp3Kbps), variants.mp3Damage)
        : encodeWav(samples, rate, variants.wavHeader);
    await this.#send(exchange, 200, headers, { bytes, audioSeconds: seconds, chunked: streamedWav });
  }

  #authenticate(req: IncomingMessage): KeyAccount {
    const key = bearerKey(req);
    if (key === undefined) {
      throw new ApiError(401, 'missing_api_key', 'send the API key as Authorization: Bearer <key>');
    }
    const account = this.#keys.find(key);
    if (account === undefined) throw new ApiError(401, 'invalid_api_key', 'the API key is not valid');
    if (!account.active) throw new ApiError(401, 'deactivated_api_key', 'the API key has been deactivated');
    if (!planHasApiAccess(account.plan)) {
      const message = `the ${account.plan} plan is a plan without API access; API access needs Creator or higher`;
      throw new ApiError(403, 'plan_without_api_access', message);
    }
    return account;
  }

  async #speech(endpoint: Endpoint, req: IncomingMessage, body: Uint8Array, account: KeyAccount): Promise<Speech> {
    switch (endpoint) {
      case 'tts': {
        const request = parseTtsBody(body);
        const pitchHz = this.#voicePitchFor(request.voice_id, account);
        const mp3 = request.output_format === 'mp3';
        return {
          text: request.text,
          voice: request.voice_id,
          pitchHz,
          amplitude: TTS_AMPLITUDE,
          format: request.output_format,
          contentType: mp3 ? 'audio/mpeg' : 'audio/wav',
          ...(request.language === undefined ? {} : { language: request.language }),
        };
      }
      case 'emotion-tts': {
        const request = parseEmotionBody(body);
        const pitchHz = this.#voicePitchFor(request.voice, account);
        return {
          text: request.text,
          voice: request.voice,
          pitchHz,
          amplitude: 0.1 + 0.8 * request.exaggeration,
          // Part 1 leaves the content type open; a generic one makes clients detect the format from the bytes.
          format: 'wav',
          contentType: 'application/octet-stream',
          exaggeration: request.exaggeration,
        };
      }
      case 'voice-clone': {
        const request = await parseCloneBody(req.headers['content-type'], body);
        const pitchHz = await referencePitchHz(request.refAudio);
        return { text: request.text, pitchHz, amplitude: TTS_AMPLITUDE, format: 'wav', contentType: 'audio/wav' };
      }
    }
  }

  #voicePitchFor(voiceId: string, account: KeyAccount): number {
    const pitchHz = presetVoice(voiceId)?.pitchHz ?? this.#clones.pitchHz(voiceId, account.key);
    if (pitchHz === undefined) throw badRequest('unknown_voice', `unknown voice: ${voiceId}`);
    return pitchHz;
  }

  #sendError(exchange: Exchange, error: ApiError): Promise<void> {
    exchange.record.errorCode = error.code;
    const { type, body } = errorBody(this.#variants.errorBody, error);
    const headers: Record<string, string> = {
      ...(type === undefined ? {} : { 'Content-Type': type }),
      ...error.headers,
    };
    return this.#send(exchange, error.status, headers, { bytes: Buffer.from(body) });
  }

  /** Sends a response, applying pacing (to audio) and the exchange's fault. */
  async #send(exchange: Exchange, status: number, headers: Record<string, string>, body: Body): Promise<void> {
    const { res, record, fault } = exchange;
    const pacing = this.#pacing;
    const audio = body.audioSeconds !== undefined && status < 300;
    const delayMs = (audio ? pacing.startDelayMs : 0) + (fault?.kind === 'slow-headers' ? fault.headersDelayMs : 0);
    if (delayMs > 0 && !(await pause(delayMs, exchange.signal))) return;
    if (res.destroyed) return;

    const accepting = exchange.bill !== undefined && exchange.account !== undefined && status >= 200 && status < 300;
    if (accepting && fault?.kind === 'hold-before-charge') {
      // At the service, not yet accepted nor billed: billed as usual once resumed.
      record.outcome = 'waiting';
      const resumed = await this.#resumed(exchange.signal);
      delete record.outcome;
      if (!resumed || res.destroyed) {
        record.outcome = 'client-aborted';
        return;
      }
    }
    if (exchange.bill !== undefined && exchange.account !== undefined && status >= 200 && status < 300) {
      this.#keys.bill(exchange.account, exchange.bill);
      record.charactersBilled = exchange.bill;
      if (fault?.kind === 'hold-after-charge') {
        // Charged; its answer has not left yet.
        record.outcome = 'held';
        const resumed = await this.#resumed(exchange.signal);
        delete record.outcome;
        if (!resumed || res.destroyed) {
          record.outcome = 'client-aborted';
          return;
        }
      }
      if (fault?.kind === 'reset-after-charge' || (fault?.kind === 'hold-after-charge' && fault.then === 'reset')) {
        record.outcome = 'reset-after-charge';
        res.socket?.destroy();
        return;
      }
      if (fault?.kind === 'gateway-after-charge') {
        // Charged; a proxy answers in the service's place, with its own page (and the service's headers if it forwards them).
        record.outcome = 'gateway-after-charge';
        const gateway = gatewayPage(fault.status ?? 504, fault.body, fault.contentType);
        const service = fault.serviceHeaders === true ? { 'X-Request-Id': record.id, ...this.#usage(exchange) } : {};
        res.writeHead(gateway.status, {
          ...service,
          ...fault.headers,
          'Content-Type': gateway.type,
          'Content-Length': String(gateway.bytes.length),
        });
        record.status = gateway.status;
        record.respondedAt = Date.now();
        record.bodyBytes = gateway.bytes.length;
        await new Promise<void>((resolve) => res.end(gateway.bytes, resolve));
        return;
      }
    }
    const paced = audio && pacing.realtimeFactor > 0;
    const own: Record<string, string> = fault?.kind === 'response' ? {} : { 'X-Request-Id': record.id };
    const all: Record<string, string> = { ...own, ...this.#usage(exchange), ...headers };
    const transfer = this.#variants.transfer;
    const endless = fault?.kind === 'endless-body' && audio;
    const chunked = endless || transfer === 'chunked' || (transfer === 'auto' && (paced || body.chunked === true));
    if (!chunked) all['Content-Length'] = String(body.bytes.length);
    res.writeHead(status, all);
    record.status = status;
    record.respondedAt = Date.now();

    const cut = fault?.kind === 'reset-after' || fault?.kind === 'stall-after' ? fault.bytes : Infinity;
    const end = Math.min(cut, body.bytes.length);
    let pauseAt = fault?.kind === 'pause-after' ? Math.min(fault.bytes, end) : undefined;
    // The first piece goes out with the headers (startDelayMs is the time to first audio); each later one when
    // the audio before it would have been synthesised at realtimeFactor.
    const sendMs = paced ? (body.audioSeconds ?? 0) * pacing.realtimeFactor * 1000 : 0;
    const msPerByte = body.bytes.length > 0 ? sendMs / body.bytes.length : 0;
    const started = performance.now();
    let sent = 0;
    if (end === 0) res.flushHeaders();
    while (sent < end) {
      if (sent === pauseAt) {
        pauseAt = undefined;
        if (sent === 0) res.flushHeaders();
        record.outcome = 'paused';
        const resumed = await this.#resumed(exchange.signal);
        delete record.outcome;
        if (!resumed) {
          record.outcome = 'client-aborted';
          return;
        }
        if (fault?.kind === 'pause-after' && fault.then === 'reset') {
          record.outcome = 'reset';
          res.socket?.destroy();
          return;
        }
      }
      const next = Math.min(sent + pacing.chunkBytes, end, pauseAt ?? end);
      const due = started + sent * msPerByte - performance.now();
      if (due > 1 && !(await pause(due, exchange.signal))) return;
      if (!(await write(res, body.bytes.subarray(sent, next)))) return;
      record.bodyBytes = next;
      record.chunks += 1;
      sent = next;
    }

    if (endless) {
      await sendForever(res, record);
      return;
    }
    if (fault?.kind === 'stall-after' && end < body.bytes.length) {
      record.outcome = 'stalled';
      return;
    }
    if (fault?.kind === 'reset-after' && end < body.bytes.length) {
      record.outcome = 'reset';
      await flushed(res);
      res.socket?.destroy();
      return;
    }
    await new Promise<void>((resolve) => res.end(resolve));
    record.outcome ??= 'complete';
  }

  /** Waits for resumePaused(); false when the connection or the sandbox closed first. */
  #resumed(signal: AbortSignal): Promise<boolean> {
    const resume = this.#resume.signal;
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        resume.removeEventListener('abort', onResume);
        signal.removeEventListener('abort', onClose);
        resolve(value);
      };
      const onResume = () => done(true);
      const onClose = () => done(false);
      if (signal.aborted) return resolve(false);
      resume.addEventListener('abort', onResume, { once: true });
      signal.addEventListener('abort', onClose, { once: true });
    });
  }

  #usage(exchange: Exchange): Record<string, string> {
    if (!this.#usageHeaders || exchange.account === undefined) return {};
    const usage = this.#keys.usage(exchange.account);
    return {
      'X-RateLimit-Limit': String(usage.limit),
      'X-RateLimit-Used': String(usage.used),
      'X-RateLimit-Remaining': String(usage.remaining),
      'X-RateLimit-Reset': usage.reset.toISOString().slice(0, 10),
    };
  }
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An error's body in the form the variant asks for, as gateways and frameworks in front of services send them. */
const GATEWAY_REASONS: Readonly<Record<number, string>> = {
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};

/** What a reverse proxy (nginx's own page) answers when the service behind it failed it: HTML, not the service's. */
function gatewayPage(
  status: number,
  body?: string,
  contentType?: string,
): { status: number; type: string; bytes: Buffer } {
  const title = `${status} ${GATEWAY_REASONS[status] ?? 'Gateway Error'}`;
  const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  return { status, type: contentType ?? 'text/html', bytes: Buffer.from(body ?? page) };
}

function errorBody(form: Variants['errorBody'], error: ApiError): { type?: string; body: string } {
  switch (form) {
    case 'json':
      return { type: JSON_TYPE, body: JSON.stringify({ error: { code: error.code, message: error.message } }) };
    case 'html': {
      const title = `${error.status} ${escapeHtml(error.code)}`;
      return {
        type: 'text/html; charset=utf-8',
        body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${escapeHtml(error.message)}</p></body></html>`,
      };
    }
    case 'text':
      return { type: 'text/plain; charset=utf-8', body: `${error.code}: ${error.message}` };
    case 'empty':
      return { body: '' };
  }
}

/** Sleeps; false when the signal aborted meanwhile. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the piece has gone to the socket: true, or false when the connection went away first. */
function write(res: ServerResponse, piece: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const onClose = () => resolve(false);
    res.once('close', onClose);
    res.write(piece, (error) => {
      res.off('close', onClose);
      resolve(!error);
    });
  });
}

/** Silence written as fast as the client takes it (socket back-pressure respected), until the client goes. */
const ENDLESS_PIECE = new Uint8Array(64 * 1024);
async function sendForever(
  res: ServerResponse,
  record: { bodyBytes: number; chunks: number; outcome?: RequestOutcome },
): Promise<void> {
  while (!res.destroyed) {
    if (!res.write(ENDLESS_PIECE)) {
      const open = await new Promise<boolean>((resolve) => {
        const onDrain = () => {
          res.off('close', onClose);
          resolve(true);
        };
        const onClose = () => {
          res.off('drain', onDrain);
          resolve(false);
        };
        res.once('drain', onDrain);
        res.once('close', onClose);
      });
      if (!open) break;
    }
    record.bodyBytes += ENDLESS_PIECE.length;
    record.chunks += 1;
  }
  record.outcome ??= 'client-aborted';
}

/** Waits until what has been written (headers included) has reached the socket. */
async function flushed(res: ServerResponse): Promise<void> {
  const socket = res.socket;
  if (!socket || socket.destroyed) return;
  await new Promise<void>((resolve) => socket.write(new Uint8Array(), () => resolve()));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  optionsSchema.parse({ ...options, pacing: undefined, now: undefined, logger: undefined });
  const host = options.host ?? '127.0.0.1';
  const server = createServer({ keepAliveTimeout: 5_000 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  try {
    return new SandboxServer(server, `http://${shownHost}:${port}`, options);
  } catch (error) {
    server.close();
    throw error;
  }
}
