// What SayBot takes from an engine for an answer (src/core/engines/engine-clients.ts says what is asked of each).
// Every exchange (EngineExchange) has a deadline for the headers, one for the whole body (the longest line streamed
// as it plays) and one for a stalled body; no redirect is followed; 3xx/4xx (refused) are told apart from 5xx and no
// connection (failed); a body is read only to its bound (a JSON answer to JSON_CAP_BYTES, a WAV to the most audio a
// line can be: MAX_FREE_LINE_SECONDS at its own rate, plus a margin), a declared size past it refused unread, an
// endless one cut at its bound or its deadline. A WAV is checked at the door (its header, its first samples) and
// streams on, never gathered into one buffer here. Every failure is an EngineError in domain terms, worded for the
// member by the integration; its message, for the log and the doctor, names the engine and what went wrong, never the
// key, the text or a body.
import type { EngineName } from '../voice-catalogue/voices.ts';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { discard } from '../api/audio-body.ts';
import { connectionReason, errorCode } from '../api/errors.ts';
import { parseWavHeader, MAX_WAV_HEADER_BYTES } from '../audio/codecs/wav.ts';
import { MAX_FREE_LINE_SECONDS } from '../characters.ts';

/** Milliseconds. */
export interface EngineDeadlines {
  /** TCP (and TLS) connection set-up. */
  connectMs: number;
  /** From the request sent to the answer's headers: an engine on a CPU renders the whole line before answering. */
  headersMs: number;
  /** From the headers to the body's last byte, where its length is not declared: an engine may stream its audio as it
   * renders, at the pace it plays. A WAV that declares its samples has as long as they play, and a stall more. */
  bodyMs: number;
  /** The body with no byte for this long: stalled. */
  stallMs: number;
}

/** A JSON answer (a catalogue, an audio query) past this is not the engine's answer. */
export const JSON_CAP_BYTES = 2 * 1024 * 1024;
/** Accepted WAV rates and channels: what speech engines make (VOICEVOX 24 kHz mono, Kokoro 24 kHz mono). */
const MIN_RATE = 8_000;
const MAX_RATE = 48_000;
const MAX_CHANNELS = 2;
/** Bytes besides the samples: the header and chunks around the data. */
const WAV_MARGIN_BYTES = 64 * 1024;

export const DEFAULT_ENGINE_DEADLINES: Readonly<EngineDeadlines> = Object.freeze({
  connectMs: 5_000,
  headersMs: 60_000,
  // The longest line an engine may send, streamed as it plays, and a margin.
  bodyMs: (MAX_FREE_LINE_SECONDS + 30) * 1000,
  stallMs: 30_000,
});

/** The most a line's WAV can be at the highest rate accepted, before its header says its own. */
export const MAX_WAV_BYTES = MAX_FREE_LINE_SECONDS * MAX_RATE * MAX_CHANNELS * 2 + WAV_MARGIN_BYTES;
const WAV_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'application/octet-stream']);

/** What a 404 answers where the engine may not have the endpoint (a speech server's voice list). */
export const NOT_LISTED: unique symbol = Symbol('not listed');

interface EngineRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
}

/** A 2xx answer, its body under its deadline. */
interface Answer {
  headers: Headers;
  /** The body's chunks as they come; a failure told as the engine's (or the caller's abort reason). */
  chunks(): AsyncGenerator<Buffer>;
  /** The body's deadline set again: `ms` from now. */
  deadline(ms: number): void;
  /** Done with it: its deadline cleared, what is left of its body dropped. */
  close(): void;
}

/** A line's WAV, checked at the door: its bytes as they arrive (header first), its rate and channels. */
interface Wav {
  body: Readable;
  sampleRate: number;
  channels: number;
}

/** An engine's exchanges, each under its deadlines and the caller's signal, its answer checked; rejects with an
 * EngineError, or the caller's abort reason when the caller aborted. Its own pool of connections. Each API's client
 * (below) is one. */
export class EngineExchange {
  readonly engine: EngineName;
  readonly #agent: Agent;
  readonly #deadlines: EngineDeadlines;

  constructor(engine: EngineName, deadlines: EngineDeadlines) {
    this.engine = engine;
    // Its own pool: its deadlines, and no redirect followed.
    this.#agent = new Agent({
      connect: { timeout: deadlines.connectMs },
      headersTimeout: deadlines.headersMs,
      bodyTimeout: deadlines.stallMs,
      keepAliveTimeout: 10_000,
      maxRedirections: 0,
    });
    this.#deadlines = deadlines;
  }

  async close(): Promise<void> {
    await this.#agent.destroy();
  }

  #fail: Fail = (reason, words, status) => new EngineError(this.engine, reason, words, status);

  /** A JSON answer, at most JSON_CAP_BYTES; with `notFound`, a 404 answers NOT_LISTED instead of failing. */
  async json(req: EngineRequest, what: string, options: { notFound?: boolean } = {}): Promise<unknown> {
    const answered = await this.#open(req, what, options.notFound === true);
    if (answered === NOT_LISTED) return NOT_LISTED;
    try {
      const type = answered.headers['content-type'];
      if (typeof type !== 'string' || !/^application\/([\w.+-]*\+)?json\b/i.test(type))
        throw this.#fail('bad-answer', `${what} answered ${describeType(type)}, not JSON`);
      const tooLarge = () => this.#fail('bad-answer', `${what} answered more than ${JSON_CAP_BYTES} bytes of JSON`);
      if (declaredLength(answered.headers) > JSON_CAP_BYTES) throw tooLarge();
      const chunks: Buffer[] = [];
      let length = 0;
      for await (const chunk of answered.chunks()) {
        length += chunk.length;
        if (length > JSON_CAP_BYTES) throw tooLarge();
        chunks.push(chunk);
      }
      try {
        return JSON.parse(Buffer.concat(chunks, length).toString('utf8')) as unknown;
      } catch {
        throw this.#fail('bad-answer', `${what} answered malformed JSON`);
      }
    } finally {
      answered.close();
    }
  }

  /** A WAV answer: RIFF/WAVE, PCM 16-bit, 8 to 48 kHz, mono or stereo, at most MAX_FREE_LINE_SECONDS of audio. Resolves
   * once its header is checked and its first samples came (no audio, or a header alone, is the engine's bad answer);
   * the rest streams on in `body`, which fails with the engine's error past its bound, its deadline, or short of the
   * samples its header declared. */
  async wav(req: EngineRequest, what: string): Promise<Wav> {
    // A 404 is NOT_LISTED only where asked (json's notFound): here it was refused like any 4xx.
    const answered = (await this.#open(req, what, false)) as Answer;
    const bad = (words: string) => this.#fail('bad-answer', `${what} answered ${words}`);
    const tooLarge = () => bad(`more audio than a line may have (${MAX_FREE_LINE_SECONDS} s)`);
    const chunks = answered.chunks();
    try {
      const type = answered.headers['content-type'];
      const bare = typeof type === 'string' ? type.split(';')[0]!.trim().toLowerCase() : '';
      if (!WAV_TYPES.has(bare)) throw this.#fail('bad-answer', `${what} answered ${describeType(type)}, not WAV audio`);
      if (declaredLength(answered.headers) > MAX_WAV_BYTES) throw tooLarge();
      const head: Buffer[] = [];
      let length = 0;
      let checked: CheckedHeader | undefined;
      while (checked === undefined || length < checked.dataOffset + checked.blockAlign) {
        const next = await chunks.next();
        if (next.done === true)
          throw bad(
            checked !== undefined
              ? 'a WAV with no samples'
              : length === 0
                ? 'no audio at all'
                : 'a WAV cut off within its header',
          );
        head.push(next.value);
        length += next.value.length;
        if (length > (checked?.cap ?? MAX_WAV_BYTES)) throw tooLarge();
        if (checked !== undefined) continue;
        checked = checkHeader(head.length === 1 ? next.value : Buffer.concat(head, length), bad);
        if (checked === undefined) {
          if (length > MAX_WAV_HEADER_BYTES) throw bad('a WAV header longer than any real one');
          continue;
        }
        const most = Math.max(length, declaredLength(answered.headers), checked.dataBytes ?? 0);
        if (most > checked.cap) throw tooLarge();
      }
      const header = checked;
      if (header.dataBytes !== undefined) {
        const playMs = (header.dataBytes / (header.sampleRate * header.blockAlign)) * 1000;
        answered.deadline(Math.ceil(playMs) + this.#deadlines.stallMs);
      }
      const rest = async function* (): AsyncGenerator<Buffer> {
        try {
          yield* head;
          for await (const chunk of chunks) {
            length += chunk.length;
            if (length > header.cap) throw tooLarge();
            yield chunk;
          }
          if (header.dataBytes !== undefined && length < header.dataOffset + header.dataBytes)
            throw bad('a WAV cut off within its samples');
        } finally {
          answered.close();
        }
      };
      const { sampleRate, channels } = header;
      return { body: Readable.from(rest(), { objectMode: false }), sampleRate, channels };
    } catch (error) {
      answered.close();
      throw error;
    }
  }

  /** The request sent and its status checked: its 2xx answer (NOT_LISTED for a 404 where `notFound`). */
  async #open(req: EngineRequest, what: string, notFound: boolean): Promise<Answer | typeof NOT_LISTED> {
    const fail = this.#fail;
    req.signal?.throwIfAborted();
    const own = new AbortController();
    const signal = req.signal === undefined ? own.signal : AbortSignal.any([req.signal, own.signal]);
    const { headersMs, bodyMs } = this.#deadlines;
    const timer = setTimeout(
      () => own.abort(fail('timeout', `${what} did not answer within ${headersMs} ms`)),
      headersMs,
    );
    const failed = (error: unknown) => failure(error, fail, what, req.signal, own.signal);
    try {
      const answered = await request(req.url, {
        dispatcher: this.#agent,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
      });
      const { statusCode: status, body } = answered;
      if (status >= 200 && status < 300) {
        const cut = (ms: number) =>
          setTimeout(() => own.abort(fail('timeout', `${what} did not send its whole answer within ${ms} ms`)), ms);
        let bodyTimer = cut(bodyMs);
        return {
          headers: answered.headers as Headers,
          async *chunks() {
            try {
              for await (const chunk of body as AsyncIterable<Buffer>) yield chunk;
            } catch (error) {
              throw failed(error);
            }
          },
          deadline(ms) {
            clearTimeout(bodyTimer);
            bodyTimer = cut(ms);
          },
          close() {
            clearTimeout(bodyTimer);
            if (!body.readableEnded) discard(body);
          },
        };
      }
      discard(body);
      if (status === 404 && notFound) return NOT_LISTED;
      if (status >= 500) throw fail('failed', `${what} failed (HTTP ${status})`, status);
      if (status >= 300 && status < 400)
        throw fail('refused', `${what} answered a redirect (HTTP ${status}), not followed`, status);
      throw fail('refused', `${what} was refused (HTTP ${status})`, status);
    } catch (error) {
      throw failed(error);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Why a line failed: `down`, the engine's circuit is open (it failed lately), so it fails at once untried;
 * `timeout`, no headers, or not the whole body, within its deadline; `refused`, the engine answered 4xx (or a
 * redirect, never followed), or the line is past what it may be sent; `failed`, no connection, a reset, a 5xx;
 * `bad-answer`, a 2xx that is not the audio asked for (not WAV PCM 16-bit, an HTML page, too large, malformed);
 * `unknown-voice`, the voice is not offered now (not in the engine's catalogue, or the engine is not configured);
 * `busy`, the engine's queue, or this server's share of it, is full. */
export type EngineFailure = 'down' | 'timeout' | 'refused' | 'failed' | 'bad-answer' | 'unknown-voice' | 'busy';

export class EngineError extends Error {
  readonly reason: EngineFailure;
  readonly engine: EngineName;
  /** The engine's HTTP status, when it answered one. */
  readonly status: number | undefined;

  constructor(engine: EngineName, reason: EngineFailure, message: string, status?: number) {
    super(`${ENGINE_TITLES[engine]}: ${message}`);
    this.name = 'EngineError';
    this.engine = engine;
    this.reason = reason;
    this.status = status;
  }

  /** Whether this failure says the engine is unwell (marks it down): no connection, a timeout, a 5xx. */
  get marksDown(): boolean {
    return this.reason === 'failed' || this.reason === 'timeout';
  }
}

/** The engines' names for people (logs, the doctor). */
export const ENGINE_TITLES: Readonly<Record<EngineName, string>> = {
  voicevox: 'VOICEVOX engine',
  speech: 'speech server',
};

/** The undici timeouts, each an engine's deadline passed. */
const TIMEOUT_WORDS: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: 'no connection within its deadline',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within its deadline',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled',
};

/** A failure of an exchange in the engine's words, or the caller's own reason when the caller aborted. */
function failure(error: unknown, fail: Fail, what: string, caller: AbortSignal | undefined, own: AbortSignal): unknown {
  if (caller?.aborted) return caller.reason;
  if (own.aborted) return own.reason;
  if (error instanceof EngineError) return error;
  const code = errorCode(error);
  const timeout = code === undefined ? undefined : TIMEOUT_WORDS[code];
  if (timeout !== undefined) return fail('timeout', `${what}: ${timeout}`);
  return fail('failed', `${what}: ${connectionReason(code) ?? 'no usable answer'}`);
}

type Headers = Record<string, string | string[] | undefined>;
type Fail = (reason: EngineError['reason'], words: string, status?: number) => EngineError;

/** A Content-Type for a message: its media type only, cut short, never a body. */
function describeType(type: unknown): string {
  if (typeof type !== 'string' || type === '') return 'with no Content-Type';
  const mediaType = type.split(';')[0]!.trim();
  return mediaType.slice(0, 40).replace(/[^\w./+-]/g, '?');
}

function declaredLength(headers: Headers): number {
  const value = headers['content-length'];
  const length = typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(length) ? length : -1;
}

interface CheckedHeader {
  sampleRate: number;
  channels: number;
  blockAlign: number;
  dataOffset: number;
  /** The samples' bytes its header declares; undefined where a streaming writer left them open. */
  dataBytes: number | undefined;
  /** The most bytes a line may be at its own rate. */
  cap: number;
}

/** The WAV's header once `head` holds it all (undefined before), checked; a bad one throws `bad`'s error. */
function checkHeader(head: Buffer, bad: (words: string) => EngineError): CheckedHeader | undefined {
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
  const { dataOffset, dataBytes } = parsed.header;
  const cap = Math.ceil(MAX_FREE_LINE_SECONDS * sampleRate * blockAlign) + dataOffset + WAV_MARGIN_BYTES;
  return { sampleRate, channels, blockAlign, dataOffset, dataBytes, cap };
}
