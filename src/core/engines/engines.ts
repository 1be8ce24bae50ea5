// The owner's speech engines as one object the rest of SayBot asks: which voices they offer now, a line spoken by one
// of them (through its fair queue and its circuit), and how each is doing. Made from the configuration's `engines`
// (src/core/config.ts); with no engine configured it offers nothing and speaks nothing. Each configured engine has its
// own client (engine-clients.ts), catalogue (engine-catalogue.ts), queue (engine-queue.ts) and circuit
// (engine-circuit.ts); a line never waits behind another engine's.
import { silentLogger, type Logger } from '../log.ts';
import { EngineCatalogue, type CatalogueOptions } from './engine-catalogue.ts';
import { EngineCircuit, type CircuitOptions } from './engine-circuit.ts';
import { SpeechServerClient, VoicevoxClient, type EngineClient } from './engine-clients.ts';
import { ENGINE_TITLES, EngineError } from './engine-errors.ts';
import { DEFAULT_ENGINE_DEADLINES, type EngineDeadlines } from './engine-http.ts';
import { FairQueue, type QueueOptions } from './engine-queue.ts';
import type {
  EngineControls,
  EngineName,
  EngineOwner,
  EngineSpeech,
  EngineStatus,
  EngineVoice,
  EnginesConfig,
} from './engine-types.ts';
import { parseEngineVoiceId } from './engine-voices.ts';

/**
 * The longest text one line may send: the integration splits longer texts as for the Voice API. VOICEVOX takes the
 * text in its URL's query (1000 kana are about 9 KB escaped, within what its server reads).
 */
export const MAX_ENGINE_TEXT_CHARS = 1000;

export interface EnginesOptions {
  logger?: Logger;
  deadlines?: Partial<EngineDeadlines>;
  queue?: Partial<QueueOptions>;
  circuit?: Partial<CircuitOptions>;
  catalogue?: Partial<CatalogueOptions>;
  maxTextChars?: number;
}

interface Engine {
  client: EngineClient;
  catalogue: EngineCatalogue;
  queue: FairQueue;
  circuit: EngineCircuit;
  /** The last failure of a line or a fetch, in words; cleared by an answer. */
  lastFailure: string | undefined;
}

export class Engines {
  readonly #engines = new Map<EngineName, Engine>();
  readonly #logger: Logger;
  readonly #maxTextChars: number;
  #closed = false;

  constructor(config: EnginesConfig, options: EnginesOptions = {}) {
    this.#logger = (options.logger ?? silentLogger).child({ component: 'engines' });
    this.#maxTextChars = options.maxTextChars ?? MAX_ENGINE_TEXT_CHARS;
    const deadlines = { ...DEFAULT_ENGINE_DEADLINES, ...options.deadlines };
    const clients: EngineClient[] = [];
    if (config.voicevoxUrl !== undefined) clients.push(new VoicevoxClient(config.voicevoxUrl, deadlines));
    if (config.speechServer !== undefined) clients.push(new SpeechServerClient(config.speechServer, deadlines));
    for (const client of clients) {
      const engine = client.engine;
      const circuit = new EngineCircuit(options.circuit);
      this.#engines.set(engine, {
        client,
        catalogue: new EngineCatalogue(client, circuit, this.#logger, options.catalogue),
        queue: new FairQueue(options.queue ?? {}, (words) => new EngineError(engine, 'busy', words)),
        circuit,
        lastFailure: undefined,
      });
    }
  }

  /** The engines configured. */
  get configured(): readonly EngineName[] {
    return [...this.#engines.keys()];
  }

  /** Fetches every engine's voices (then refreshed on their own); resolves once each fetch has answered or failed. */
  async start(): Promise<void> {
    await Promise.all([...this.#engines.values()].map((engine) => engine.catalogue.refresh()));
  }

  /** Fetches every engine's voices now. */
  async refresh(): Promise<void> {
    await this.start();
  }

  /** Every voice the engines offer now, VOICEVOX's first. */
  voices(): readonly EngineVoice[] {
    return [...this.#engines.values()].flatMap((engine) => engine.catalogue.voices);
  }

  /** Whether the engine of this voice ID is configured and down now (failed lately, or its voices never fetched). */
  down(id: string): boolean {
    const parsed = parseEngineVoiceId(id);
    const engine = parsed === undefined ? undefined : this.#engines.get(parsed.engine);
    return engine !== undefined && (engine.circuit.down || !engine.catalogue.answered);
  }

  /** The voice of this ID if an engine offers it now; undefined: not offered (not an engine's ID, or not now). */
  voice(id: string): EngineVoice | undefined {
    const parsed = parseEngineVoiceId(id);
    return parsed === undefined ? undefined : this.#engines.get(parsed.engine)?.catalogue.voice(id);
  }

  /**
   * Renders `text` in an engine's voice: one part's audio, for the part source (named apart from `speak`, which is the
   * pipeline's one door for an order, test/structure/one-way-to-speak.test.ts). Resolves once the engine's answer is
   * checked at its door (its header, its first samples), its audio streaming on in `body`; its slot in the engine's
   * queue is held until that body is over. Rejects with an EngineError (its `reason`: `down` at once while the engine
   * is down, its voice list never fetched included), or with the signal's reason when aborted (waiting, the line
   * leaves the queue; under way, its request is cut and its slot freed). `long`: long work, which never takes the
   * engine's last slot (engine-queue.ts).
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
    const parsed = parseEngineVoiceId(voiceId);
    const engineName = parsed?.engine ?? 'speech';
    const engine = parsed === undefined ? undefined : this.#engines.get(parsed.engine);
    if (engine === undefined || this.#closed)
      throw new EngineError(engineName, 'unknown-voice', 'no such engine is configured');
    // Down: fails at once, without a place in the queue; its backoff over, its voice list is the probe.
    if (engine.circuit.blocked) throw this.#downError(engine);
    if (!engine.catalogue.answered && !(await engine.catalogue.refresh())) throw this.#downError(engine);
    const voice = engine.catalogue.voice(voiceId);
    if (voice === undefined) throw new EngineError(engineName, 'unknown-voice', 'the voice is not offered now');
    const length = [...text].length;
    if (length === 0 || length > this.#maxTextChars)
      throw new EngineError(
        engineName,
        'refused',
        `a line must have 1 to ${this.#maxTextChars} characters (not sent); it has ${length}`,
      );
    const release = await engine.queue.take(owner.guildId, signal, long);
    try {
      const spoken = await this.#send(engine, text, voice, controls, owner, signal);
      spoken.body.once('close', release);
      return spoken;
    } catch (error) {
      release();
      throw error;
    }
  }

  async #send(
    engine: Engine,
    text: string,
    voice: EngineVoice,
    controls: EngineControls,
    owner: EngineOwner,
    signal: AbortSignal | undefined,
  ): Promise<EngineSpeech> {
    const admission = engine.circuit.admit();
    if (admission === 'down') throw this.#downError(engine);
    const name = engine.client.engine;
    try {
      const spoken = await engine.client.synthesize(text, voice, controls, signal);
      if (admission === 'probe') this.#logger.info({ engine: name }, 'engine answers again');
      engine.circuit.succeeded();
      engine.lastFailure = undefined;
      return { ...spoken, voice };
    } catch (error) {
      if (!(error instanceof EngineError)) {
        // The caller's abort: says nothing about the engine.
        if (admission === 'probe') engine.circuit.released();
        throw error;
      }
      engine.lastFailure = error.message;
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

  #downError(engine: Engine): EngineError {
    const seconds = Math.ceil(engine.circuit.msUntilRetry() / 1000);
    const failure = engine.lastFailure ?? engine.catalogue.lastFailure ?? 'no answer';
    return new EngineError(
      engine.client.engine,
      'down',
      `not tried: it failed lately (${failure}); tried again in ${seconds} s`,
    );
  }

  /** Each engine now: its voice list fetched for this answer. */
  async status(): Promise<EngineStatus[]> {
    return Promise.all(
      [...this.#engines.values()].map(async (engine): Promise<EngineStatus> => {
        const answers = await engine.catalogue.refresh();
        return {
          engine: engine.client.engine,
          url: engine.client.url,
          answers,
          voices: engine.catalogue.voices.length,
          lastFailure: engine.catalogue.lastFailure ?? engine.lastFailure,
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
    await Promise.all(
      [...this.#engines.values()].map(async (engine) => {
        engine.catalogue.close();
        engine.queue.clear(new EngineError(engine.client.engine, 'failed', 'SayBot is stopping'));
        await engine.client.close();
      }),
    );
  }

  toString(): string {
    return `Engines(${[...this.#engines.values()].map((e) => `${ENGINE_TITLES[e.client.engine]} ${e.client.url}`).join(', ')})`;
  }
}
