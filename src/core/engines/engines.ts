// The owner's speech engines as one object the rest of SayBot asks (the part source's EnginePort,
// src/core/sourcing/engine-port.ts): which voices they offer now, a line spoken by one of them (in its server's fair
// share of the engine's slots, through its backoff), and how each is doing; made from the configuration's `engines`
// (src/core/config.ts), offering and speaking nothing when none is configured. Each engine has its own client
// (src/core/engines/engine-clients.ts), voice list, slots and backoff (EngineCircuit, below): a line never waits behind
// another engine's. A server's share is eSpeak NG's pool's (src/core/audio/workers/fair-shares.ts), its
// slot held until the line's streamed audio ends. Voices are fetched at start and every `refreshMs` (ten minutes), one
// fetch at a time, its timer never keeping the process alive; a failed fetch keeps the last answer's voices (an engine
// restarting is not one without voices), read again out of turn for a voice it lacks or refuses (`recheck`).
import { engineOf, type EngineName } from '../voice-catalogue/voices.ts';
import type { Readable } from 'node:stream';
import { FairShares, FREE_LINES_PER_GUILD, type ShareOptions } from '../audio/workers/fair-shares.ts';
import { workClassOf } from '../audio/workers/job-thread.ts';
import { estimateSpeechSeconds, MAX_ENGINE_LINE_CHARACTERS } from '../characters.ts';
import { silentLogger, type Logger } from '../log.ts';
import { DEFAULT_ENGINE_DEADLINES, ENGINE_TITLES, EngineError, type EngineDeadlines } from './engine-http.ts';
import {
  engineControlled,
  engineVoiceLanguage,
  SpeechServerClient,
  VoicevoxClient,
  type EngineClient,
  type EngineControls,
  type EngineVoice,
  type SpokenWav,
} from './engine-clients.ts';
import type { EnginesConfig } from './engine-settings.ts';

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
  /** Its voices by ID, in the order its last answer listed them; undefined until it first answers. */
  byId?: ReadonlyMap<string, EngineVoice> | undefined;
  /** Whether the last fetch of its voices answered. */
  answered?: boolean;
  /** The last fetch's failure in words; undefined when it answered. */
  listFailure?: string | undefined;
  /** The last failure of a line, in words; cleared by an answer. */
  lineFailure?: string | undefined;
  fetching?: Promise<boolean> | undefined;
  rereadAt?: number; // before when recheck reads no list again
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
    return [...this.#engines.values()].flatMap((engine) => [...(engine.byId?.values() ?? [])]);
  }

  /** Whether the engine of this voice ID is configured and down now (failed lately, or its voices never fetched). */
  down(id: string): boolean {
    const engine = this.#engineOf(id);
    return engine !== undefined && (engine.circuit.down || !engine.answered);
  }

  /** The voice of this ID if an engine offers it now; undefined: not offered (not an engine's ID, or not now). */
  voice(id: string): EngineVoice | undefined {
    return this.#engineOf(id)?.byId?.get(id);
  }

  /** Whether the voice's engine lists it: false where no such engine is set up, undefined until its engine answers. */
  lists(id: string): boolean | undefined {
    const engine = this.#engineOf(id);
    return engine === undefined ? false : engine.byId?.has(id);
  }

  /** Reads its engine's list again where it lacks the voice (added since) or `refused` it: sharing a read under way,
   * at most once in 5 s per engine (never per keystroke), never while the engine is down. */
  async recheck(id: string, refused = false): Promise<void> {
    const engine = this.#engineOf(id);
    if (!engine?.answered || engine.circuit.blocked || (engine.byId?.has(id) && !refused)) return;
    if (Date.now() < (engine.rereadAt ?? 0)) return;
    engine.rereadAt = Date.now() + 5_000;
    await this.#refresh(engine);
  }

  /** The language the voice reads, where known: its engine's word, else what its ID says. */
  language(id: string): string | undefined {
    return this.voice(id)?.language ?? engineVoiceLanguage(id);
  }

  /** A request with the member's effects split between its engine and SayBot: engine-clients.ts decides which. */
  readonly controlled = engineControlled;

  /** Whether `error` is an engine's failure that eSpeak NG may stand in for (not a server over its share, nor a voice
   * not in its list: the rule refuses that one, voice-choice.ts). */
  failed(error: unknown): boolean {
    return error instanceof EngineError && error.reason !== 'busy' && error.reason !== 'unknown-voice';
  }

  /** One part's audio for the part source: `synthesize`, its class as SayBot's other audio work's (the seconds it will
   * say, at natural speech's rate, over its speed), its WAV as it arrives. */
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

  /** Renders `text` in an engine's voice (named apart from `speak`, which is the pipeline's one door for an order,
   * test/structure/one-way-to-speak.test.ts). Resolves once the engine's answer is checked at its door (its header,
   * its first samples), its audio streaming on in `body`; its slot in the engine's queue is held until that body is
   * over. Rejects with an EngineError (its `reason`: `down` at once while the engine is down, its voice list never
   * fetched included), or with the signal's reason when aborted (waiting, the line leaves the queue; under way, its
   * request is cut and its slot released). `long`: long work, which never takes the engine's last slot (FairShares). */
  async synthesize(
    text: string,
    voiceId: string,
    controls: EngineControls,
    owner: EngineOwner,
    signal?: AbortSignal,
    long = false,
  ): Promise<EngineSpeech> {
    signal?.throwIfAborted();
    const engine = this.#closed ? undefined : this.#engineOf(voiceId);
    // Down: fails at once, without a place in the queue; its backoff over, its voice list is the probe.
    if (engine?.circuit.blocked) throw this.#downError(engine);
    if (engine && !engine.answered && !(await this.#refresh(engine))) throw this.#downError(engine);
    // Whether it is offered is the rule's (requireVoice); this is the fact it asks of: not in its list now, not sent.
    const voice = engine?.byId?.get(voiceId);
    const name = engineOf(voiceId)?.engine ?? 'speech';
    if (engine === undefined || voice === undefined) throw new EngineError(name, 'unknown-voice', 'not offered now');
    const length = [...text].length;
    const words = `a line must have 1 to ${MAX_ENGINE_LINE_CHARACTERS} characters (not sent); it has ${length}`;
    if (length === 0 || length > MAX_ENGINE_LINE_CHARACTERS) throw new EngineError(name, 'refused', words);
    // Lines of no server (a tool, the dashboard) share one owner's share: FairShares holds the owner '' to none.
    const release = await engine.queue.take(owner.guildId === '' ? 'no-server' : owner.guildId, signal, long);
    try {
      const pass = engine.circuit.pass();
      if (pass === 'down') throw this.#downError(engine);
      const spoken = await this.#send(engine, pass, text, voice, controls, owner, signal);
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
    pass: CircuitPass,
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    owner: EngineOwner,
    signal: AbortSignal | undefined,
  ): Promise<EngineSpeech> {
    const name = engine.client.engine;
    try {
      const spoken = await engine.client.synthesize(text, voice, controls, signal);
      if (pass === 'probe') this.#logger.info({ engine: name }, 'engine answers again');
      engine.circuit.succeeded();
      engine.lineFailure = undefined;
      return { ...spoken, voice };
    } catch (error) {
      if (!(error instanceof EngineError)) {
        if (pass === 'probe') engine.circuit.released();
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
      if (error.reason === 'refused') await this.recheck(voice.id, true);
      throw error;
    }
  }

  #engineOf(id: string): Engine | undefined {
    const parsed = engineOf(id);
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
      const before = engine.byId?.size;
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
          voices: engine.byId?.size ?? 0,
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

type CircuitPass = 'go' | 'probe' | 'down';

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

  /** Whether a line may go now: `go` (up), `probe` (down, its backoff over, no probe out: this line is the one; report
   * its outcome), or `down` (fail at once). */
  pass(): CircuitPass {
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
