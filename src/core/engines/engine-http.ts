// One HTTP exchange with an owner's engine, every answer checked: a deadline for the headers and one for the whole
// body, no redirect followed, 3xx/4xx (refused) told apart from 5xx and no connection (failed), and a body read only up
// to its bound: a JSON answer to JSON_CAP_BYTES, a WAV to the most audio a line can be (MAX_LINE_SECONDS at the
// WAV's own rate, plus a margin), a declared size past its bound refused before a byte of it is read. An endless body
// is cut at its bound or its deadline, whichever comes first, with nothing more held.
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { parseWavHeader, MAX_WAV_HEADER_BYTES } from '../audio/codecs/wav.ts';
import { EngineError } from './engine-errors.ts';
import type { EngineName } from './engine-types.ts';

/** Milliseconds. */
export interface EngineDeadlines {
  /** TCP (and TLS) connection set-up. */
  connectMs: number;
  /** From the request sent to the answer's headers: an engine on a CPU renders the whole line before answering. */
  headersMs: number;
  /** From the headers to the body's last byte. */
  bodyMs: number;
}

export const DEFAULT_ENGINE_DEADLINES: Readonly<EngineDeadlines> = Object.freeze({
  connectMs: 5_000,
  headersMs: 60_000,
  bodyMs: 30_000,
});

/** A JSON answer (a catalogue, an audio query) past this is not the engine's answer. */
export const JSON_CAP_BYTES = 2 * 1024 * 1024;
/** Accepted WAV rates and channels: what speech engines make (VOICEVOX 24 kHz mono, Kokoro 24 kHz mono). */
const MIN_RATE = 8_000;
const MAX_RATE = 48_000;
const MAX_CHANNELS = 2;
/** Bytes besides the samples: the header and chunks around the data. */
const WAV_MARGIN_BYTES = 64 * 1024;
/** The most a line's WAV can be at the highest rate accepted, before its header says its own. */
/**
 * The most audio one engine line may be, seconds: the free voice's cap on a line (MAX_LINE_SECONDS, which a test
 * holds it equal to), named here so that the engines depend on nothing of eSpeak NG's.
 */
export const MAX_LINE_SECONDS = 120;

export const MAX_WAV_BYTES = MAX_LINE_SECONDS * MAX_RATE * MAX_CHANNELS * 2 + WAV_MARGIN_BYTES;
const WAV_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'application/octet-stream']);

/** What a 404 answers where the engine may not have the endpoint (a speech server's voice list). */
export const NOT_LISTED: unique symbol = Symbol('not listed');

export interface EngineRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
}

/** The pool one engine's requests go through: its deadlines, and no redirect followed. */
export function engineAgent(deadlines: EngineDeadlines): Agent {
  return new Agent({
    connect: { timeout: deadlines.connectMs },
    headersTimeout: deadlines.headersMs,
    bodyTimeout: deadlines.bodyMs,
    keepAliveTimeout: 10_000,
    maxRedirections: 0,
  });
}

const CONNECTION_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'no connection within its deadline',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within its deadline',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
};

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function ignore(): void {}

/** Drops a body nobody reads; undici reports destroying an unfinished one as an error, expected here. */
function drop(body: Readable): void {
  body.on('error', ignore);
  body.destroy();
}

/**
 * One exchange with an engine: its deadlines and the caller's signal, a checked answer read with `read`. Rejects
 * with an EngineError, or the caller's abort reason when the caller aborted.
 */
export class EngineExchange {
  readonly #engine: EngineName;
  readonly #agent: Agent;
  readonly #deadlines: EngineDeadlines;

  constructor(engine: EngineName, agent: Agent, deadlines: EngineDeadlines) {
    this.#engine = engine;
    this.#agent = agent;
    this.#deadlines = deadlines;
  }

  /** A JSON answer, at most JSON_CAP_BYTES; with `notFound`, a 404 answers NOT_LISTED instead of failing. */
  async json(req: EngineRequest, what: string, options: { notFound?: boolean } = {}): Promise<unknown> {
    return this.#exchange<unknown>(
      req,
      what,
      async (body, headers, fail) => {
        const type = headers['content-type'];
        if (typeof type !== 'string' || !/^application\/([\w.+-]*\+)?json\b/i.test(type))
          throw fail('bad-answer', `${what} answered ${describeType(type)}, not JSON`);
        const bytes = await readAll(body, JSON_CAP_BYTES, headers, () =>
          fail('bad-answer', `${what} answered more than ${JSON_CAP_BYTES} bytes of JSON`),
        );
        try {
          return JSON.parse(bytes.toString('utf8')) as unknown;
        } catch {
          throw fail('bad-answer', `${what} answered malformed JSON`);
        }
      },
      options.notFound === true,
    );
  }

  /** A WAV answer: RIFF/WAVE, PCM 16-bit, 8 to 48 kHz, mono or stereo, at most MAX_LINE_SECONDS of audio. */
  async wav(req: EngineRequest, what: string): Promise<Wav> {
    const wav = await this.#exchange<Wav>(req, what, async (body, headers, fail) => {
      const type = headers['content-type'];
      const bare = typeof type === 'string' ? type.split(';')[0]!.trim().toLowerCase() : '';
      if (!WAV_TYPES.has(bare)) throw fail('bad-answer', `${what} answered ${describeType(type)}, not WAV audio`);
      const tooLarge = () =>
        fail('bad-answer', `${what} answered more audio than a line may have (${MAX_LINE_SECONDS} s)`);
      if (declaredLength(headers) > MAX_WAV_BYTES) throw tooLarge();
      return readWav(body, headers, tooLarge, (words) => fail('bad-answer', `${what} answered ${words}`));
    });
    // A 404 is NOT_LISTED only where asked (json's notFound): here it was refused like any 4xx.
    return wav as Wav;
  }

  async #exchange<T>(
    req: EngineRequest,
    what: string,
    read: (body: Readable, headers: Headers, fail: Fail) => Promise<T>,
    notFound = false,
  ): Promise<T | typeof NOT_LISTED> {
    const engine = this.#engine;
    const fail: Fail = (reason, words, status) => new EngineError(engine, reason, words, status);
    req.signal?.throwIfAborted();
    const own = new AbortController();
    const signal = req.signal === undefined ? own.signal : AbortSignal.any([req.signal, own.signal]);
    const { headersMs, bodyMs } = this.#deadlines;
    let timer = setTimeout(
      () => own.abort(fail('timeout', `${what} did not answer within ${headersMs} ms`)),
      headersMs,
    );
    try {
      const answer = await request(req.url, {
        dispatcher: this.#agent,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
      });
      clearTimeout(timer);
      timer = setTimeout(
        () => own.abort(fail('timeout', `${what} did not send its whole answer within ${bodyMs} ms`)),
        bodyMs,
      );
      const { statusCode: status, body } = answer;
      if (status === 404 && notFound) {
        drop(body);
        return NOT_LISTED;
      }
      if (status < 200 || status >= 300) {
        drop(body);
        if (status >= 500) throw fail('failed', `${what} failed (HTTP ${status})`, status);
        if (status >= 300 && status < 400)
          throw fail('refused', `${what} answered a redirect (HTTP ${status}), not followed`, status);
        throw fail('refused', `${what} was refused (HTTP ${status})`, status);
      }
      try {
        return await read(body, answer.headers as Headers, fail);
      } finally {
        if (!body.readableEnded) drop(body);
      }
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason;
      if (own.signal.aborted) throw own.signal.reason;
      if (error instanceof EngineError) throw error;
      const code = codeOf(error);
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
        throw fail('timeout', `${what}: ${CONNECTION_WORDS[code]}`);
      throw fail('failed', `${what}: ${(code && CONNECTION_WORDS[code]) ?? 'no usable answer'}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

type Headers = Record<string, string | string[] | undefined>;
type Fail = (reason: EngineError['reason'], words: string, status?: number) => EngineError;

/** A checked WAV line. */
export interface Wav {
  bytes: Buffer;
  sampleRate: number;
  channels: number;
}

/** A Content-Type for a message: its media type only, cut short, never a body. */
function describeType(type: unknown): string {
  if (typeof type !== 'string' || type === '') return 'with no Content-Type';
  return (type.split(';')[0] ?? '')
    .trim()
    .slice(0, 40)
    .replace(/[^\w./+-]/g, '?');
}

function declaredLength(headers: Headers): number {
  const value = headers['content-length'];
  const length = typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(length) ? length : -1;
}

/** The body whole, refused past `cap` (declared or arriving) with nothing more held. */
async function readAll(body: Readable, cap: number, headers: Headers, tooLarge: () => EngineError): Promise<Buffer> {
  if (declaredLength(headers) > cap) throw tooLarge();
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > cap) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/**
 * The WAV body read as it arrives: its header first (within MAX_WAV_HEADER_BYTES), checked, then the rest up to the
 * most a line can be at that header's own rate.
 */
async function readWav(
  body: Readable,
  headers: Headers,
  tooLarge: () => EngineError,
  bad: (words: string) => EngineError,
): Promise<Wav> {
  const chunks: Buffer[] = [];
  let length = 0;
  let cap = MAX_WAV_BYTES;
  let format: { sampleRate: number; channels: number } | undefined;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > cap) throw tooLarge();
    chunks.push(chunk);
    if (format !== undefined) continue;
    const head = chunks.length === 1 ? chunk : Buffer.concat(chunks, length);
    const checked = checkHeader(head, bad);
    if (checked === undefined) {
      if (length > MAX_WAV_HEADER_BYTES) throw bad('a WAV header longer than any real one');
      continue;
    }
    format = checked.format;
    cap = checked.cap;
    if (declaredLength(headers) > cap || (checked.dataBytes ?? 0) > cap) throw tooLarge();
    if (length > cap) throw tooLarge();
  }
  if (format === undefined) throw bad(length === 0 ? 'no audio at all' : 'a WAV cut off within its header');
  return { bytes: Buffer.concat(chunks, length), ...format };
}

function checkHeader(
  head: Buffer,
  bad: (words: string) => EngineError,
): { format: { sampleRate: number; channels: number }; cap: number; dataBytes: number | undefined } | undefined {
  let parsed: ReturnType<typeof parseWavHeader>;
  try {
    parsed = parseWavHeader(head);
  } catch {
    throw bad(
      head.subarray(0, 4).toString('latin1') === 'RIFF' ? 'a malformed WAV' : 'something that is not WAV audio',
    );
  }
  if (!('header' in parsed)) return undefined;
  const { sampleRate, channels, bitsPerSample, encoding, blockAlign } = parsed.header.format;
  if (encoding !== 'int' || bitsPerSample !== 16)
    throw bad(`WAV of ${bitsPerSample}-bit ${encoding} samples, not 16-bit PCM`);
  if (channels < 1 || channels > MAX_CHANNELS || sampleRate < MIN_RATE || sampleRate > MAX_RATE)
    throw bad(`WAV of ${channels} channels at ${sampleRate} Hz (SayBot takes 1 or 2 at 8 to 48 kHz)`);
  const cap = Math.ceil(MAX_LINE_SECONDS * sampleRate * blockAlign) + parsed.header.dataOffset + WAV_MARGIN_BYTES;
  return { format: { sampleRate, channels }, cap, dataBytes: parsed.header.dataBytes };
}
