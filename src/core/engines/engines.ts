// The owner's speech engines as one object the rest of SayBot asks (the part source's EnginePort,
// src/core/sourcing/engine-port.ts): which voices they offer now, a line spoken by one of them (in its server's fair
// share of the engine's slots, and through its backoff), and how each is doing. Made from the configuration's `engines`
// (src/core/config.ts); with no engine configured it offers nothing and speaks nothing. Each configured engine has its
// own client (below), voice list, slots and backoff; a line never waits behind another engine's. A server's share is
// eSpeak NG's pool's (FairShares, src/core/audio/workers/job-thread.ts), its slot held until the line's streamed
// audio ends.
//
// An engine's voices are fetched at start and every `refreshMs` (ten minutes). A failed fetch keeps the voices of the
// last one that answered (an engine restarting is not an engine without voices); a voice a fetch no longer lists is
// unknown from then on. One fetch at a time; its timer never keeps the process alive.
//
// In this file, a line's way out: Engines; each engine's exchanges over HTTP (EngineExchange), which each API's client
// is (VoicevoxClient, SpeechServerClient: the requests it sends); then SayBot's effects on each engine's controls, the
// failures in words, the WAV checked at the door, and the backoff (EngineCircuit).
import { parseEngineVoiceId, type EngineName } from '../voice-catalogue/voices.ts';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { discard } from '../api/client.ts';
import { connectionReason, errorCode } from '../api/errors.ts';
import type { AudioEffects } from '../audio/effects/effect-types.ts';
import { parseWavHeader, MAX_WAV_HEADER_BYTES } from '../audio/codecs/wav.ts';
import {
  FairShares,
  FREE_LINES_PER_GUILD,
  MAX_FREE_LINE_SECONDS,
  workClassOf,
  type ShareOptions,
} from '../audio/workers/job-thread.ts';
import { estimateSpeechSeconds } from '../characters.ts';
import { silentLogger, type Logger } from '../log.ts';
import type { EnginesConfig, ListedSpeechVoice } from './engine-settings.ts';
import { engineVoiceLanguage, listedNames, speechVoices, voicevoxVoices, type EngineVoice } from './engine-voices.ts';

/**
 * The longest text one line may send: the integration splits longer texts as for the Voice API. VOICEVOX takes the
 * text in its URL's query (1000 kana are about 9 KB escaped, within what its server reads).
 */
const MAX_TEXT_CHARS = 1000;

/** Whose line it is: an engine's slots serve servers in turn and hold each to its share. */
interface EngineOwner {
  /** The server; a DM or a user install passes a key of its own (every line of one key shares one share). */
  guildId: string;
  userId: string;
}

/** A line an engine spoke: its WAV checked at the door (EngineExchange), the effects it rendered, its voice. */
export type EngineSpeech = SpokenWav & { voice: EngineVoice };

/** An engine as the doctor and the owner's console show it. */
export interface EngineStatus {
  engine: EngineName;
  /** Its base URL, never with credentials. */
  url: string;
  /** Whether it answered its last catalogue fetch (made for this status). */
  answers: boolean;
  /** How many voices SayBot offers from it now. */
  voices: number;
  /** Its last failure in words (never a key, a text or a body); undefined: none since it last answered. */
  lastFailure: string | undefined;
  /** Marked down by its circuit: lines fail at once until its backoff ends. */
  down: boolean;
  /** While down: when the next line may try it again (epoch ms). */
  retryAt?: number | undefined;
}

/** Each engine's slots: two lines at once (the owner's CPU), a server's share as at eSpeak NG's pool, bounded waits. */
export const ENGINE_QUEUE: Readonly<EngineQueue> = Object.freeze({
  slots: 2,
  perOwner: FREE_LINES_PER_GUILD,
  maxWaiting: 32,
  maxWaitMs: 120_000,
});

type EngineQueue = Required<Pick<ShareOptions, 'slots' | 'perOwner' | 'maxWaiting' | 'maxWaitMs'>>;

export interface EnginesOptions {
  logger?: Logger;
  deadlines?: Partial<EngineDeadlines>;
  queue?: Partial<EngineQueue>;
  circuit?: Partial<CircuitOptions>;
  catalogue?: { refreshMs?: number };
}

interface Engine {
  client: EngineClient;
  queue: FairShares;
  circuit: EngineCircuit;
  /** Its voices by ID, in the order it lists them. */
  byId: ReadonlyMap<string, EngineVoice>;
  /** Whether the last fetch of its voices answered. */
  answered?: boolean;
  /** The last fetch's failure in words; undefined when it answered. */
  listFailure?: string | undefined;
  /** The last failure of a line, in words; cleared by an answer. */
  lineFailure?: string | undefined;
  fetching?: Promise<boolean> | undefined;
  timer?: NodeJS.Timeout | undefined;
}

export class Engines {
  readonly #engines = new Map<EngineName, Engine>();
  readonly #logger: Logger;
  readonly #refreshMs: number;
  readonly #closing = new AbortController();
  #closed = false;

  constructor(config: EnginesConfig, options: EnginesOptions = {}) {
    this.#logger = (options.logger ?? silentLogger).child({ component: 'engines' });
    this.#refreshMs = options.catalogue?.refreshMs ?? 10 * 60_000;
    const deadlines = { ...DEFAULT_ENGINE_DEADLINES, ...options.deadlines };
    const clients: EngineClient[] = [];
    if (config.voicevoxUrl !== undefined) clients.push(new VoicevoxClient(config.voicevoxUrl, deadlines));
    if (config.speechServer !== undefined) clients.push(new SpeechServerClient(config.speechServer, deadlines));
    for (const client of clients) {
      const engine = client.engine;
      this.#engines.set(engine, {
        client,
        queue: new FairShares({
          ...ENGINE_QUEUE,
          ...options.queue,
          busy: (words) => new EngineError(engine, 'busy', words),
        }),
        circuit: new EngineCircuit(options.circuit),
        byId: new Map(),
      });
    }
  }

  get configured(): readonly EngineName[] {
    return [...this.#engines.keys()];
  }

  /** Fetches every engine's voices now (then refreshed on their own); resolves once each has answered or failed. */
  async start(): Promise<void> {
    await Promise.all([...this.#engines.values()].map((engine) => this.#refresh(engine)));
  }

  /** Every voice the engines offer now, VOICEVOX's first. */
  voices(): readonly EngineVoice[] {
    return [...this.#engines.values()].flatMap((engine) => [...engine.byId.values()]);
  }

  /** Whether the engine of this voice ID is configured and down now (failed lately, or its voices never fetched). */
  down(id: string): boolean {
    const engine = this.#engineOf(id);
    return engine !== undefined && (engine.circuit.down || !engine.answered);
  }

  /** The voice of this ID if an engine offers it now; undefined: not offered (not an engine's ID, or not now). */
  voice(id: string): EngineVoice | undefined {
    return this.#engineOf(id)?.byId.get(id);
  }

  /** The language the voice reads, where known: its engine's word, else what its ID says. */
  language(id: string): string | undefined {
    return this.voice(id)?.language ?? engineVoiceLanguage(id);
  }

  /** Of a member's effects, those this voice's engine renders itself (the rest SayBot applies to its audio). */
  controls(id: string): ReadonlyArray<keyof AudioEffects> {
    return ENGINE_APPLIES[parseEngineVoiceId(id)?.engine ?? 'speech'];
  }

  /** Whether `error` is an engine's failure that eSpeak NG may stand in for (not a server over its share: busy). */
  failed(error: unknown): boolean {
    return error instanceof EngineError && error.reason !== 'busy';
  }

  /**
   * One part's audio for the part source: `synthesize`, its class as SayBot's other audio work's (the seconds it will
   * say, at natural speech's rate, over its speed), its WAV as it arrives.
   */
  async speakLine(
    text: string,
    voiceId: string,
    controls: EngineControls | undefined,
    owner: EngineOwner,
    signal: AbortSignal,
  ): Promise<Readable> {
    const long = workClassOf({ seconds: estimateSpeechSeconds(text) / (controls?.speed ?? 1) }) === 'long';
    return (await this.synthesize(text, voiceId, controls ?? {}, owner, signal, long)).body;
  }

  /**
   * Renders `text` in an engine's voice (named apart from `speak`, which is the pipeline's one door for an order,
   * test/structure/one-way-to-speak.test.ts). Resolves once the engine's answer is checked at its door (its header,
   * its first samples), its audio streaming on in `body`; its slot in the engine's queue is held until that body is
   * over. Rejects with an EngineError (its `reason`: `down` at once while the engine is down, its voice list never
   * fetched included), or with the signal's reason when aborted (waiting, the line leaves the queue; under way, its
   * request is cut and its slot freed). `long`: long work, which never takes the engine's last slot (FairShares).
   */
  async synthesize(
    text: string,
    voiceId: string,
    controls: EngineControls,
    owner: EngineOwner,
    signal?: AbortSignal,
    long = false,
  ): Promise<EngineSpeech> {
    signal?.throwIfAborted();
    const name = parseEngineVoiceId(voiceId)?.engine ?? 'speech';
    const engine = this.#engineOf(voiceId);
    if (engine === undefined || this.#closed)
      throw new EngineError(name, 'unknown-voice', 'no such engine is configured');
    // Down: fails at once, without a place in the queue; its backoff over, its voice list is the probe.
    if (engine.circuit.blocked) throw this.#downError(engine);
    if (!engine.answered && !(await this.#refresh(engine))) throw this.#downError(engine);
    const voice = engine.byId.get(voiceId);
    if (voice === undefined) throw new EngineError(name, 'unknown-voice', 'the voice is not offered now');
    const length = [...text].length;
    if (length === 0 || length > MAX_TEXT_CHARS)
      throw new EngineError(
        name,
        'refused',
        `a line must have 1 to ${MAX_TEXT_CHARS} characters (not sent); it has ${length}`,
      );
    // Lines of no server (a tool, the dashboard) share one owner's share: FairShares holds the owner '' to none.
    const release = await engine.queue.take(owner.guildId === '' ? 'no-server' : owner.guildId, signal, long);
    try {
      const admission = engine.circuit.admit();
      if (admission === 'down') throw this.#downError(engine);
      const spoken = await this.#send(engine, admission, text, voice, controls, owner, signal);
      spoken.body.once('close', release);
      return spoken;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The line sent, its outcome told to the engine's backoff (an abort by the caller says nothing of the engine). */
  async #send(
    engine: Engine,
    admission: Admission,
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    owner: EngineOwner,
    signal: AbortSignal | undefined,
  ): Promise<EngineSpeech> {
    const name = engine.client.engine;
    try {
      const spoken = await engine.client.synthesize(text, voice, controls, signal);
      if (admission === 'probe') this.#logger.info({ engine: name }, 'engine answers again');
      engine.circuit.succeeded();
      engine.lineFailure = undefined;
      return { ...spoken, voice };
    } catch (error) {
      if (!(error instanceof EngineError)) {
        if (admission === 'probe') engine.circuit.released();
        throw error;
      }
      engine.lineFailure = error.message;
      const wasDown = engine.circuit.down;
      if (error.marksDown) engine.circuit.failed();
      else engine.circuit.succeeded();
      const context = { engine: name, reason: error.reason, status: error.status, guildId: owner.guildId };
      if (error.marksDown && !wasDown)
        this.#logger.warn({ ...context, retryAt: engine.circuit.retryAt }, `engine marked down: ${error.message}`);
      else this.#logger.info(context, `engine line failed: ${error.message}`);
      throw error;
    }
  }

  #engineOf(id: string): Engine | undefined {
    const parsed = parseEngineVoiceId(id);
    return parsed === undefined ? undefined : this.#engines.get(parsed.engine);
  }

  #downError(engine: Engine): EngineError {
    const seconds = Math.ceil(engine.circuit.msUntilRetry() / 1000);
    const failure = engine.lineFailure ?? engine.listFailure ?? 'no answer';
    const words = `not tried: it failed lately (${failure}); tried again in ${seconds} s`;
    return new EngineError(engine.client.engine, 'down', words);
  }

  /** Fetches its voices now (sharing a fetch under way), then schedules the next; resolves whether it answered. */
  #refresh(engine: Engine): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    engine.fetching ??= this.#fetch(engine).finally(() => {
      engine.fetching = undefined;
      if (this.#closed) return;
      clearTimeout(engine.timer);
      const wait = engine.answered ? this.#refreshMs : Math.max(engine.circuit.msUntilRetry(), 1);
      engine.timer = setTimeout(() => void this.#refresh(engine), wait).unref();
    });
    return engine.fetching;
  }

  /** A fetch is heard by the engine's backoff: a failed one marks it down, one that answers (the backoff over) up. */
  async #fetch(engine: Engine): Promise<boolean> {
    const name = engine.client.engine;
    try {
      const voices = await engine.client.fetchVoices(this.#closing.signal);
      const before = engine.byId.size;
      engine.byId = new Map(voices.map((voice) => [voice.id, voice]));
      engine.answered = true;
      engine.listFailure = undefined;
      // Within a backoff its lines started, a list answering says nothing of its lines: their probe will tell.
      if (!engine.circuit.blocked) engine.circuit.succeeded();
      if (voices.length !== before) this.#logger.info({ engine: name, voices: voices.length }, 'engine voices fetched');
      return true;
    } catch (error) {
      if (this.#closed) return false;
      engine.answered = false;
      engine.listFailure = error instanceof EngineError ? error.message : 'its voice list could not be read';
      engine.circuit.failed();
      this.#logger.warn(
        { engine: name, reason: error instanceof EngineError ? error.reason : 'failed' },
        `engine voices not fetched: ${engine.listFailure}`,
      );
      return false;
    }
  }

  /** Each engine now: its voice list fetched for this answer. */
  async status(): Promise<EngineStatus[]> {
    return Promise.all(
      [...this.#engines.values()].map(async (engine): Promise<EngineStatus> => {
        const answers = await this.#refresh(engine);
        return {
          engine: engine.client.engine,
          url: engine.client.url,
          answers,
          voices: engine.byId.size,
          lastFailure: engine.listFailure ?? engine.lineFailure,
          down: engine.circuit.down,
          ...(engine.circuit.retryAt === undefined ? {} : { retryAt: engine.circuit.retryAt }),
        };
      }),
    );
  }

  /** Stops the refreshes, refuses what waits, cuts what is under way, closes the connections. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort(new Error('the engines are closed'));
    await Promise.all(
      [...this.#engines.values()].map(async (engine) => {
        clearTimeout(engine.timer);
        engine.queue.clear(new EngineError(engine.client.engine, 'failed', 'SayBot is stopping'));
        await engine.client.close();
      }),
    );
  }

  toString(): string {
    return `Engines(${[...this.#engines.values()].map((e) => `${ENGINE_TITLES[e.client.engine]} ${e.client.url}`).join(', ')})`;
  }
}

// Over HTTP, every exchange with an engine (EngineExchange) is checked: a deadline for the headers, one for the whole
// body (the longest line streamed as it plays) and one for a body with no byte coming (stalled), no redirect followed,
// 3xx/4xx (refused) told apart from 5xx and no connection (failed), and a body read only up to its bound: a JSON
// answer to JSON_CAP_BYTES, a WAV to the most audio a line can be (MAX_FREE_LINE_SECONDS at the WAV's own rate, plus a
// margin), a declared size past its bound refused before a byte of it is read. An endless body is cut at its bound or
// its deadline, whichever comes first, with nothing more held. A WAV is checked at the door (its header, and its first
// samples come) and then streams on as it arrives, never gathered into one buffer here. Every failure is an
// EngineError, in domain terms: the integration words it in the member's language; its message is for the log and the
// doctor (it names the engine and what went wrong, never the key, the text or a body).

/** Milliseconds. */
export interface EngineDeadlines {
  /** TCP (and TLS) connection set-up. */
  connectMs: number;
  /** From the request sent to the answer's headers: an engine on a CPU renders the whole line before answering. */
  headersMs: number;
  /** From the headers to the body's last byte: an engine may stream its audio as it renders, at the pace it plays. */
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
const NOT_LISTED: unique symbol = Symbol('not listed');

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
  /** Done with it: its deadline cleared, what is left of its body dropped. */
  close(): void;
}

/** A line's WAV, checked at the door: its bytes as they arrive (header first), its rate and channels. */
interface Wav {
  body: Readable;
  sampleRate: number;
  channels: number;
}

/**
 * An engine's exchanges, each under its deadlines and the caller's signal, its answer checked; rejects with an
 * EngineError, or the caller's abort reason when the caller aborted. Its own pool of connections. Each API's client
 * (below) is one.
 */
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

  /**
   * A WAV answer: RIFF/WAVE, PCM 16-bit, 8 to 48 kHz, mono or stereo, at most MAX_FREE_LINE_SECONDS of audio. Resolves once
   * its header is checked and its first samples came (no audio, or a header alone, is the engine's bad answer); the
   * rest streams on in `body`, which fails with the engine's error past its bound, its deadline, or short of the
   * samples its header declared.
   */
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
        const words = `${what} did not send its whole answer within ${bodyMs} ms`;
        const bodyTimer = setTimeout(() => own.abort(fail('timeout', words)), bodyMs);
        return {
          headers: answered.headers as Headers,
          async *chunks() {
            try {
              for await (const chunk of body as AsyncIterable<Buffer>) yield chunk;
            } catch (error) {
              throw failed(error);
            }
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

// Each client reads its own voice list (parsed in engine-voices.ts) and maps SayBot's effects onto its engine's own
// controls, so that the engine renders them (better than an effect on its audio); what an engine has no control for,
// SayBot applies to the audio itself (src/core/audio/effects/). SayBot's effects: 0.5..2 times as fast, -12..+12
// semitones, -20..+6 dB (src/core/settings/setting-declarations.ts).
//
// VOICEVOX ENGINE (and what speaks its API: AivisSpeech Engine, SHAREVOX): `GET /speakers`, then a line as
// `POST /audio_query?text=&speaker=` and `POST /synthesis?speaker=` with that query, SayBot's effects set in it
// (voicevoxScales, below). An OpenAI-compatible speech server (Kokoro-FastAPI, speaches, openedai-speech, LocalAI):
// `GET {base}/audio/voices` (which many do not have: 404) and `POST {base}/audio/speech`, with its bearer token when
// the owner set one; it has `speed` (0.25..4) alone: SayBot's speed as it is; pitch and volume are SayBot's to apply.

/** SayBot's effects for one line, each as its member set it (absent: unset). */
type EngineControls = Partial<AudioEffects>;

/** Of SayBot's effects, those each engine renders itself: VOICEVOX all three, a speech server the speed alone. */
const ENGINE_APPLIES: Readonly<Record<EngineName, ReadonlyArray<keyof AudioEffects>>> = Object.freeze({
  voicevox: Object.freeze(['speed', 'pitch', 'volumeDb'] as const),
  speech: Object.freeze(['speed'] as const),
});

type EngineClient = VoicevoxClient | SpeechServerClient;

/** A line's WAV, checked at the door, and the effects its engine rendered (SayBot applies the others). */
type SpokenWav = Wav & { applies: ReadonlyArray<keyof AudioEffects> };

/** Each client's engine is at a base URL, never with credentials (config refuses them). */
export class VoicevoxClient extends EngineExchange {
  readonly url: string;

  constructor(url: string, deadlines: EngineDeadlines) {
    super('voicevox', deadlines);
    this.url = url;
  }

  /** The voices the engine offers now, bounded and cleaned. */
  async fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]> {
    const answer = await this.json({ method: 'GET', url: `${this.url}/speakers`, signal }, 'its voice list');
    if (!Array.isArray(answer))
      throw new EngineError('voicevox', 'bad-answer', 'its voice list (GET /speakers) is not a list of speakers');
    return voicevoxVoices(answer);
  }

  async synthesize(
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    signal?: AbortSignal,
  ): Promise<SpokenWav> {
    const speaker = encodeURIComponent(voice.engineVoice);
    const query = await this.json(
      {
        method: 'POST',
        url: `${this.url}/audio_query?text=${encodeURIComponent(text)}&speaker=${speaker}`,
        headers: { accept: 'application/json' },
        signal,
      },
      'its audio query',
    );
    if (typeof query !== 'object' || query === null || Array.isArray(query))
      throw new EngineError('voicevox', 'bad-answer', 'its audio query is not a query object');
    const wav = await this.wav(
      {
        method: 'POST',
        url: `${this.url}/synthesis?speaker=${speaker}`,
        headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ ...query, ...voicevoxScales(controls) }),
        signal,
      },
      'its synthesis',
    );
    return { ...wav, applies: ENGINE_APPLIES.voicevox };
  }
}

export class SpeechServerClient extends EngineExchange {
  readonly url: string;
  readonly #key: string | undefined;
  readonly #model: string;
  readonly #listed: readonly ListedSpeechVoice[] | undefined;

  constructor(options: NonNullable<EnginesConfig['speechServer']>, deadlines: EngineDeadlines) {
    super('speech', deadlines);
    this.url = options.url;
    this.#key = options.key;
    this.#model = options.model;
    this.#listed = options.voices;
  }

  #headers(extra: Record<string, string>): Record<string, string> {
    return this.#key === undefined ? extra : { ...extra, authorization: `Bearer ${this.#key}` };
  }

  /** The voices the server lists (or the owner's list), bounded and cleaned. */
  async fetchVoices(signal?: AbortSignal): Promise<EngineVoice[]> {
    const answer = await this.json(
      {
        method: 'GET',
        url: `${this.url}/audio/voices`,
        headers: this.#headers({ accept: 'application/json' }),
        signal,
      },
      'its voice list',
      { notFound: true },
    );
    return speechVoices(answer === NOT_LISTED ? undefined : listedNames(answer), this.#listed);
  }

  async synthesize(
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    signal?: AbortSignal,
  ): Promise<SpokenWav> {
    const body = {
      model: this.#model,
      input: text,
      voice: voice.engineVoice,
      response_format: 'wav',
      speed: speechServerSpeed(controls),
    };
    const wav = await this.wav(
      {
        method: 'POST',
        url: `${this.url}/audio/speech`,
        headers: this.#headers({ 'content-type': 'application/json', accept: 'audio/wav' }),
        body: JSON.stringify(body),
        signal,
      },
      'its speech',
    );
    return { ...wav, applies: ENGINE_APPLIES.speech };
  }
}

// VOICEVOX's query, SayBot's effects set in it:
// - `speedScale` is a factor on the phoneme lengths: SayBot's speed as it is (1 = as the voice speaks).
// - `volumeScale` multiplies the samples: 10^(dB/20) (-20 dB = 0.1, +6 dB = 2.0, the ends of its editor's 0..2).
// - `pitchScale` multiplies each mora's pitch, which is the natural log of its F0 in Hz, by 2^pitchScale. A shift of
//   n semitones multiplies F0 by 2^(n/12), that is adds n·ln2/12 to its log: at a typical speaking F0 of about 245 Hz
//   (log 5.5) that is 2^pitchScale = 1 + n·ln2/(12·5.5), so ±12 semitones are about +0.17 and -0.19 (its editor's
//   range, ±0.15, is about ±10 semitones). Exact at 245 Hz, within a semitone for any speaking voice between 100 and
//   500 Hz.

type VoicevoxScales = Partial<Record<'speedScale' | 'pitchScale' | 'volumeScale', number>>;

/** log(F0) of a typical speaking voice, the mean VOICEVOX's pitches sit around. */
const TYPICAL_LOG_F0 = 5.5;
const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** VOICEVOX's query fields for SayBot's effects: only those set (a field left out keeps the query's own). */
export function voicevoxScales(controls: EngineControls): VoicevoxScales {
  const scales: VoicevoxScales = {};
  if (controls.speed !== undefined && controls.speed !== 1) scales.speedScale = round(controls.speed);
  if (controls.pitch !== undefined && controls.pitch !== 0)
    scales.pitchScale = round(Math.log2(1 + (controls.pitch * Math.LN2) / (12 * TYPICAL_LOG_F0)));
  if (controls.volumeDb !== undefined && controls.volumeDb !== 0)
    scales.volumeScale = round(10 ** (controls.volumeDb / 20));
  return scales;
}

/** The speech server's `speed` (1 when SayBot's is unset). */
export function speechServerSpeed(controls: EngineControls): number {
  return round(controls.speed ?? 1);
}

/**
 * - `down`: the engine's circuit is open (it failed lately): not tried, fails at once;
 * - `timeout`: no headers, or not the whole body, within its deadline;
 * - `refused`: the engine answered 4xx (or a redirect, never followed), or the line is past what it may be sent;
 * - `failed`: no connection, a reset, a 5xx;
 * - `bad-answer`: a 2xx that is not the audio asked for (not WAV PCM 16-bit, an HTML page, too large, malformed);
 * - `unknown-voice`: the voice is not offered now (not in the engine's catalogue, or the engine is not configured);
 * - `busy`: the engine's queue, or this server's share of it, is full.
 */
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
const ENGINE_TITLES: Readonly<Record<EngineName, string>> = {
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

// Whether an engine may be tried now: its one backoff, for its lines and its voice list alike. A connection failure, a
// timeout or a 5xx (or a voice list not fetched) marks it down for a backoff (first `baseMs`, doubling on each failure
// in a row up to `maxMs`, a few seconds: an engine back is used again soon); while down, a line fails at once (eSpeak
// NG speaks it) and the engine hears nothing. Once the backoff is over, one line or list fetch at a time is let through
// as a probe: its success marks the engine up, its failure marks it down again for twice as long.

interface CircuitOptions {
  baseMs: number;
  maxMs: number;
  /** Injectable for tests: epoch milliseconds. */
  now: () => number;
}

const DEFAULT_CIRCUIT: Readonly<Omit<CircuitOptions, 'now'>> = Object.freeze({ baseMs: 2_000, maxMs: 10_000 });

type Admission = 'go' | 'probe' | 'down';

export class EngineCircuit {
  readonly #options: CircuitOptions;
  /** Failures in a row that marked the engine down; 0: up. */
  #failures = 0;
  #downUntil = 0;
  #probing = false;

  constructor(options: Partial<CircuitOptions> = {}) {
    this.#options = { ...DEFAULT_CIRCUIT, now: Date.now, ...options };
  }

  get down(): boolean {
    return this.#failures > 0;
  }

  /** Down, and no line may probe it now (its backoff runs, or a probe is out): a line fails at once. */
  get blocked(): boolean {
    return this.#failures > 0 && (this.#probing || this.#options.now() < this.#downUntil);
  }

  /** While down: how long until a probe may go (0: now). */
  msUntilRetry(): number {
    return this.#failures > 0 ? Math.max(0, this.#downUntil - this.#options.now()) : 0;
  }

  /** While down: when a probe may go (epoch ms). */
  get retryAt(): number | undefined {
    return this.#failures > 0 ? this.#downUntil : undefined;
  }

  /**
   * Whether a line may go now: `go` (up), `probe` (down, its backoff over, no probe out: this line is the one; report
   * its outcome), or `down` (fail at once).
   */
  admit(): Admission {
    if (this.#failures === 0) return 'go';
    if (this.blocked) return 'down';
    this.#probing = true;
    return 'probe';
  }

  /** The engine answered (any answer that does not say it is unwell): up. */
  succeeded(): void {
    this.#failures = 0;
    this.#downUntil = 0;
    this.#probing = false;
  }

  /** The engine failed in a way that says it is unwell: down for the next backoff. */
  failed(): void {
    // Lines already under way when it went down fail too: they say nothing new, and do not lengthen its backoff.
    if (this.#failures > 0 && !this.#probing && this.#options.now() < this.#downUntil) return;
    this.#failures += 1;
    const backoff = Math.min(this.#options.maxMs, this.#options.baseMs * 2 ** Math.min(this.#failures - 1, 30));
    this.#downUntil = this.#options.now() + backoff;
    this.#probing = false;
  }

  /** A probe ended without telling either way (aborted by its caller): the next line may probe. */
  released(): void {
    this.#probing = false;
  }
}
