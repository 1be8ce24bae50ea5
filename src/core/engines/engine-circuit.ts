// Whether an engine may be tried now: its one backoff, for its lines and its voice list alike. A connection failure, a
// timeout or a 5xx (or a voice list not fetched) marks it down for a backoff (first `baseMs`, doubling on each failure
// in a row up to `maxMs`, a few seconds: an engine back is used again soon); while down, a line fails at once (eSpeak
// NG speaks it) and the engine hears nothing. Once the backoff is over, one line or list fetch at a time is let through
// as a probe: its success marks the engine up, its failure marks it down again for twice as long.

export interface CircuitOptions {
  baseMs: number;
  maxMs: number;
  /** Injectable for tests: epoch milliseconds. */
  now: () => number;
}

export const DEFAULT_CIRCUIT: Readonly<Omit<CircuitOptions, 'now'>> = Object.freeze({ baseMs: 2_000, maxMs: 10_000 });

export type Admission = 'go' | 'probe' | 'down';

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
    if (this.#probing || this.#options.now() < this.#downUntil) return 'down';
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
