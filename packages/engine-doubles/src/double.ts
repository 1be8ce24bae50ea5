// What both doubles share: the HTTP server on 127.0.0.1, its bounds (body size, request log, connections, work at
// once), the admin path /__double/ a black-box tester sets faults at, and the faults themselves. Each API (voicevox.ts,
// speech-server.ts) says which requests ask for audio, serves a request, and shapes its own errors.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeMp3, encodeWav, MP3_SAMPLE_RATES, pcmBytes, resample, wavHeader } from './audio.ts';
import { FaultSwitch, type Fault, type FaultName, type FaultSetting } from './faults.ts';
import { RequestLog, type DoubleRequest } from './requests.ts';

export type AudioFormat = 'wav' | 'mp3' | 'pcm';

export const AUDIO_TYPES: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  pcm: 'audio/pcm',
};

/** PCM16 audio, interleaved when `channels` is 2. */
export interface Pcm {
  samples: Int16Array;
  rate: number;
  channels: number;
}

export type Outcome =
  | { kind: 'json'; status: number; body: unknown; headers?: Readonly<Record<string, string>> }
  | {
      kind: 'audio';
      format: AudioFormat;
      /** WAV sizes left unknown (0xFFFFFFFF), as a synthesiser streaming audio writes them. */
      streamedHeader?: boolean;
      /** Makes the audio; run with at most `maxConcurrent` others. */
      make(): Promise<Pcm>;
    };

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Uint8Array;
  headers: IncomingMessage['headers'];
  record: DoubleRequest;
}

export interface Api {
  /** Whether a request asks for audio: the audio faults meet only these. */
  isAudio(method: string, path: string): boolean;
  serve(request: ApiRequest): Promise<Outcome>;
  /** The API's own error body for a status (a fault's `status:<code>`, 413, 503 when busy). */
  error(status: number, message: string): unknown;
  /** The sample rate the API speaks at, for the `endless` and `huge` faults' audio. */
  sampleRate: number;
}

export interface DoubleOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Request records kept (`requests`), the newest; default 1000. */
  maxRequests?: number;
  /** Lines synthesised at once; default 4. */
  maxConcurrent?: number;
  /** Lines waiting for their turn; past this a request is answered 503 in the API's error shape. Default 64. */
  maxWaiting?: number;
  /** Open connections at most (more are refused by the server); default 1024. */
  maxConnections?: number;
  /** The fault set from the start (`down`: an engine down when its client starts); default none. */
  fault?: FaultSetting | FaultName;
}

/** What both doubles return. */
export interface EngineDouble {
  /** The base URL a client is given (VOICEVOX: http://127.0.0.1:P; speech server: http://127.0.0.1:P/v1). */
  readonly url: string;
  /** The double's one fault (also at POST /__double/fault). */
  readonly faults: FaultSwitch;
  /** What was received, oldest first, at most `maxRequests` (the double's own /__double/ requests are not kept). */
  readonly requests: readonly DoubleRequest[];
  /** Requests received since the start or clearRequests(), kept or not. */
  readonly requestsReceived: number;
  clearRequests(): void;
  /** Answers now the requests a `slow:` fault still delays: a test holds one with a long delay until its event. */
  hurry(): void;
  /** What it speaks: 'words' when they were asked for and eSpeak NG is installed, else 'tones'. */
  readonly speech: 'tones' | 'words';
  /** Stops listening and ends every open connection (endless and huge bodies too). */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json';
const ADMIN_PREFIX = '/__double/';
const ADMIN_BODY_LIMIT = 4096;
/** A body past its limit is read this far (dropped), so that the 413 reaches a client still sending, then cut. */
const DRAIN_FACTOR = 8;
/** The declared size of a `huge` body. */
export const HUGE_BYTES = 200_000_000;
/** An `endless` body sends this much audio time, every this much real time. */
const TRICKLE_MS = 100;

class Busy extends Error {}

/** At most `most` jobs at once, `waiting` more in line; past that, Busy. */
class Work {
  #running = 0;
  readonly #line: Array<() => void> = [];
  readonly #most: number;
  readonly #waiting: number;

  constructor(most: number, waiting: number) {
    this.#most = most;
    this.#waiting = waiting;
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#most) {
      if (this.#line.length >= this.#waiting) throw new Busy('too many lines waiting');
      await new Promise<void>((resolve) => this.#line.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await job();
    } finally {
      const next = this.#line.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}

const positiveInt = (value: number | undefined, name: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number from 1`);
  return value;
};

/** Reads a body up to `limit` bytes; undefined when it was longer. */
async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    else if (size > limit * DRAIN_FACTOR) break;
  }
  return size > limit ? undefined : Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': String(bytes.length), ...headers });
  res.end(bytes);
}

/** What nginx answers when the service behind it failed. */
const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

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

/** Sleeps; false when the signal aborted meanwhile. */
/** Waits `ms`, or less once `hurry` aborts: false when `signal` ended it (no answer to give). */
async function pause(ms: number, signal: AbortSignal, hurry?: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal: hurry === undefined ? signal : AbortSignal.any([signal, hurry]) });
    return true;
  } catch {
    return !signal.aborted;
  }
}

/** `pcm` as `format` bytes (MP3 at the nearest rate it can carry below or at the PCM's). */
async function encode(pcm: Pcm, format: AudioFormat, streamedHeader = false): Promise<Uint8Array> {
  switch (format) {
    case 'wav': {
      const wav = encodeWav(pcm.samples, pcm.rate, pcm.channels);
      if (streamedHeader) wav.set(wavHeader(pcm.rate, pcm.channels, undefined));
      return wav;
    }
    case 'pcm':
      return pcmBytes(pcm.samples);
    case 'mp3': {
      const mono = pcm.channels === 1 ? pcm.samples : pcm.samples.filter((_, i) => i % 2 === 0);
      const rate = [...MP3_SAMPLE_RATES].reverse().find((r) => r <= pcm.rate) ?? 8000;
      return encodeMp3(resample(mono, pcm.rate, rate), rate);
    }
  }
}

/** Silence as `format`: a header (WAV) and a piece to repeat; the WAV header declares `dataBytes` or leaves it open. */
async function silence(
  format: AudioFormat,
  rate: number,
  pieceMs: number,
  dataBytes: number | undefined,
): Promise<{ head: Uint8Array; piece: Uint8Array }> {
  const samples = new Int16Array(Math.round((rate * pieceMs) / 1000));
  if (format === 'mp3') return { head: new Uint8Array(), piece: await encode({ samples, rate, channels: 1 }, 'mp3') };
  return {
    head: format === 'wav' ? wavHeader(rate, 1, dataBytes) : new Uint8Array(),
    piece: pcmBytes(samples),
  };
}

class Double implements EngineDouble {
  readonly url: string;
  readonly faults = new FaultSwitch();
  readonly speech: 'tones' | 'words';
  readonly #server: Server;
  readonly #api: Api;
  readonly #log: RequestLog;
  readonly #work: Work;
  readonly #bodyLimit: number;
  readonly #closing = new AbortController();
  #hurry = new AbortController();
  #closed: Promise<void> | undefined;

  constructor(server: Server, url: string, api: Api, options: DoubleOptions & DoubleSettings) {
    this.#server = server;
    this.url = url;
    this.#api = api;
    this.speech = options.speech;
    this.#bodyLimit = options.bodyLimit;
    this.#log = new RequestLog(positiveInt(options.maxRequests, 'maxRequests', 1000));
    if (options.fault !== undefined) this.faults.set(options.fault);
    this.#work = new Work(
      positiveInt(options.maxConcurrent, 'maxConcurrent', 4),
      positiveInt(options.maxWaiting, 'maxWaiting', 64),
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.#handle(req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) sendJson(res, 500, this.#api.error(500, 'the double failed'));
        else res.destroy();
      });
    });
  }

  get requests(): readonly DoubleRequest[] {
    return this.#log.all;
  }

  get requestsReceived(): number {
    return this.#log.total;
  }

  clearRequests(): void {
    this.#log.clear();
  }

  hurry(): void {
    this.#hurry.abort();
    this.#hurry = new AbortController();
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#closing.abort();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://double.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path.startsWith(ADMIN_PREFIX)) return this.#admin(req, res, method, path);

    const record = this.#log.add(req, path);
    res.on('finish', () => (record.status = res.statusCode));
    const taken = this.faults.take(path, this.#api.isAudio(method, path));
    const fault = taken?.fault;
    if (taken !== undefined) record.fault = taken.name;
    if (fault?.kind === 'down') {
      req.socket.destroy();
      return;
    }
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished && !this.#closing.signal.aborted) record.closed = true;
      gone.abort();
    });
    const signal = AbortSignal.any([gone.signal, this.#closing.signal]);
    const body = await readBody(req, this.#bodyLimit);
    if (body === undefined) {
      sendJson(res, 413, this.#api.error(413, `the body must not exceed ${this.#bodyLimit} bytes`), {
        Connection: 'close',
      });
      return;
    }
    if (fault?.kind === 'slow' && !(await pause(fault.ms, signal, this.#hurry.signal))) return;
    if (fault?.kind === 'html-error') {
      res.writeHead(502, { 'Content-Type': 'text/html', 'Content-Length': String(NGINX_502.length) });
      res.end(NGINX_502);
      return;
    }
    if (fault?.kind === 'status') {
      sendJson(res, fault.status, this.#api.error(fault.status, `the engine answered ${fault.status} (a fault)`));
      return;
    }

    const outcome = await this.#api.serve({
      method,
      path,
      query: url.searchParams,
      body,
      headers: req.headers,
      record,
    });
    if (outcome.kind === 'json') {
      sendJson(res, outcome.status, outcome.body, { ...outcome.headers });
      return;
    }
    await this.#audio(res, record, outcome, fault, signal);
  }

  async #audio(
    res: ServerResponse,
    record: DoubleRequest,
    outcome: Extract<Outcome, { kind: 'audio' }>,
    fault: Fault | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const type = AUDIO_TYPES[outcome.format];
    if (fault?.kind === 'not-audio') {
      sendJson(res, 200, { status: 'ok', message: 'queued' });
      return;
    }
    if (fault?.kind === 'empty') {
      const head = outcome.format === 'wav' ? wavHeader(this.#api.sampleRate, 1, 0) : new Uint8Array();
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(head.length) });
      record.bodyBytes = head.length;
      res.end(head);
      return;
    }
    if (fault?.kind === 'endless' || fault?.kind === 'huge') {
      const endless = fault.kind === 'endless';
      const dataBytes = endless ? undefined : HUGE_BYTES;
      const { head, piece } = await silence(outcome.format, this.#api.sampleRate, TRICKLE_MS, dataBytes);
      const total = endless ? undefined : head.length + HUGE_BYTES;
      res.writeHead(200, { 'Content-Type': type, ...(total === undefined ? {} : { 'Content-Length': String(total) }) });
      await this.#stream(res, record, head, piece, total, endless ? TRICKLE_MS : 0, signal);
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = await this.#work.run(async () => {
        const pcm = await outcome.make();
        if (fault?.kind === 'wrong-format') return encode(pcm, outcome.format === 'mp3' ? 'wav' : 'mp3');
        if (fault?.kind === 'wrong-rate') {
          const rate = pcm.rate === 16_000 ? 22_050 : 16_000;
          const channels = pcm.channels;
          const mono = channels === 1 ? pcm.samples : pcm.samples.filter((_, i) => i % 2 === 0);
          return encode({ samples: resample(mono, pcm.rate, rate), rate, channels: 1 }, outcome.format);
        }
        return encode(pcm, outcome.format, outcome.streamedHeader);
      });
    } catch (error) {
      if (!(error instanceof Busy)) throw error;
      sendJson(res, 503, this.#api.error(503, 'the engine is busy; try again'));
      return;
    }
    if (res.destroyed) return;
    if (fault?.kind === 'truncated') {
      res.writeHead(200, { 'Content-Type': type });
      const half = bytes.subarray(0, Math.ceil(bytes.length / 2));
      record.bodyBytes = half.length;
      res.end(half);
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(bytes.length) });
    if (fault?.kind === 'paced' && outcome.format !== 'mp3') {
      await this.#paced(res, record, bytes, fault.percent, signal);
      return;
    }
    record.bodyBytes = bytes.length;
    res.end(bytes);
  }

  /** `bytes` (WAV or PCM, 16-bit mono) 100 ms of audio a piece, each after the audio time it holds at `percent`. */
  async #paced(
    res: ServerResponse,
    record: DoubleRequest,
    bytes: Uint8Array,
    percent: number,
    signal: AbortSignal,
  ): Promise<void> {
    const piece = Math.round((this.#api.sampleRate * 2 * TRICKLE_MS) / 1000);
    const everyMs = (TRICKLE_MS * 100) / percent;
    record.bodyBytes = 0;
    while (record.bodyBytes < bytes.length) {
      const next = bytes.subarray(record.bodyBytes, record.bodyBytes + piece);
      if (!(await write(res, next))) return;
      record.bodyBytes += next.length;
      if (record.bodyBytes < bytes.length && !(await pause(everyMs, signal))) {
        res.destroy();
        return;
      }
    }
    res.end();
  }

  /** `head`, then `piece` again and again: up to `total` bytes, or forever every `everyMs`; until the client goes. */
  async #stream(
    res: ServerResponse,
    record: DoubleRequest,
    head: Uint8Array,
    piece: Uint8Array,
    total: number | undefined,
    everyMs: number,
    signal: AbortSignal,
  ): Promise<void> {
    if (head.length > 0 && !(await write(res, head))) return;
    record.bodyBytes = head.length;
    while (total === undefined || record.bodyBytes < total) {
      const next = total === undefined ? piece : piece.subarray(0, Math.min(piece.length, total - record.bodyBytes));
      if (!(await write(res, next))) return;
      record.bodyBytes += next.length;
      if (everyMs > 0 && !(await pause(everyMs, signal))) {
        res.destroy();
        return;
      }
      if (signal.aborted) {
        res.destroy();
        return;
      }
    }
    res.end();
  }

  async #admin(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    const body = await readBody(req, ADMIN_BODY_LIMIT);
    if (path === `${ADMIN_PREFIX}fault` && method === 'GET') return sendJson(res, 200, this.faults.current);
    if (path === `${ADMIN_PREFIX}fault` && method === 'POST') {
      try {
        const setting = JSON.parse(Buffer.from(body ?? '').toString('utf8')) as unknown;
        if (setting === null || typeof setting !== 'object') throw new RangeError('send {"fault": "...", "times"?: n}');
        return sendJson(res, 200, this.faults.set(setting as { fault: string }));
      } catch (error) {
        const message = error instanceof RangeError ? error.message : 'send {"fault": "...", "times"?: n}';
        return sendJson(res, 400, { error: message });
      }
    }
    if (path === `${ADMIN_PREFIX}requests` && method === 'GET') {
      return sendJson(res, 200, { total: this.#log.total, requests: this.#log.all });
    }
    if (path === `${ADMIN_PREFIX}requests` && method === 'DELETE') {
      this.#log.clear();
      res.writeHead(204).end();
      return;
    }
    sendJson(res, 404, {
      error: `no such path: ${method} ${path.slice(0, 100)} (GET/POST ${ADMIN_PREFIX}fault, GET/DELETE ${ADMIN_PREFIX}requests)`,
    });
  }
}

/** What each API gives the server besides its routes. */
export interface DoubleSettings {
  speech: 'tones' | 'words';
  /** Longest request body, bytes. */
  bodyLimit: number;
}

/** Listens on 127.0.0.1 (or `host`) and serves `api` there; `urlPath` is appended to the URL handed back. */
export async function startDouble(
  api: Api,
  options: DoubleOptions & DoubleSettings,
  urlPath = '',
): Promise<EngineDouble> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 60_000, headersTimeout: 30_000 });
  server.maxConnections = positiveInt(options.maxConnections, 'maxConnections', 1024);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError('port must be 0..65535');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  try {
    return new Double(server, `http://${shownHost}:${bound}${urlPath}`, api, options);
  } catch (error) {
    server.close();
    throw error;
  }
}

export type { FaultName };
