// One engine's voices as SayBot offers them: fetched at start and every `refreshMs` (ten minutes). A fetch is heard by
// the engine's circuit (engine-circuit.ts), the one backoff: a failed fetch marks the engine down and the next is tried
// when its backoff ends; a fetch that answers, the backoff over, marks it up. A failed fetch keeps the voices of the last one that
// answered (an engine restarting is not an engine without voices); a voice a fetch no longer lists is unknown from
// then on. One fetch at a time; its timer never keeps the process alive.
import type { Logger } from '../log.ts';
import type { EngineCircuit } from './engine-circuit.ts';
import type { EngineClient } from './engine-clients.ts';
import { EngineError } from './engine-errors.ts';
import type { EngineVoice } from './engine-types.ts';

export interface CatalogueOptions {
  refreshMs: number;
}

export class EngineCatalogue {
  readonly #client: EngineClient;
  readonly #circuit: EngineCircuit;
  readonly #logger: Logger;
  readonly #refreshMs: number;
  readonly #closing = new AbortController();
  #voices: readonly EngineVoice[] = [];
  #byId = new Map<string, EngineVoice>();
  #fetching: Promise<boolean> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #answered = false;
  #lastFailure: string | undefined;
  #closed = false;

  constructor(client: EngineClient, circuit: EngineCircuit, logger: Logger, options: Partial<CatalogueOptions> = {}) {
    this.#client = client;
    this.#circuit = circuit;
    this.#logger = logger;
    this.#refreshMs = options.refreshMs ?? 10 * 60_000;
  }

  get voices(): readonly EngineVoice[] {
    return this.#voices;
  }

  voice(id: string): EngineVoice | undefined {
    return this.#byId.get(id);
  }

  /** Whether the last fetch answered. */
  get answered(): boolean {
    return this.#answered;
  }

  /** The last fetch's failure in words; undefined when it answered. */
  get lastFailure(): string | undefined {
    return this.#lastFailure;
  }

  /** Fetches now (sharing a fetch under way), then schedules the next; resolves whether the engine answered. */
  refresh(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    this.#fetching ??= this.#fetch().finally(() => {
      this.#fetching = undefined;
      this.#schedule();
    });
    return this.#fetching;
  }

  async #fetch(): Promise<boolean> {
    try {
      const voices = await this.#client.fetchVoices(this.#closing.signal);
      const before = this.#voices.length;
      this.#voices = Object.freeze(voices);
      this.#byId = new Map(voices.map((voice) => [voice.id, voice]));
      this.#answered = true;
      this.#lastFailure = undefined;
      // Within a backoff its lines started, a list answering says nothing of its lines: their probe will tell.
      if (!this.#circuit.blocked) this.#circuit.succeeded();
      if (voices.length !== before)
        this.#logger.info({ engine: this.#client.engine, voices: voices.length }, 'engine voices fetched');
      return true;
    } catch (error) {
      if (this.#closed) return false;
      this.#answered = false;
      this.#lastFailure = error instanceof EngineError ? error.message : 'its voice list could not be read';
      this.#circuit.failed();
      this.#logger.warn(
        { engine: this.#client.engine, reason: error instanceof EngineError ? error.reason : 'failed' },
        `engine voices not fetched: ${this.#lastFailure}`,
      );
      return false;
    }
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    const wait = this.#answered ? this.#refreshMs : Math.max(this.#circuit.msUntilRetry(), 1);
    this.#timer = setTimeout(() => void this.refresh(), wait);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#closing.abort(new EngineError(this.#client.engine, 'failed', 'closed'));
  }
}
