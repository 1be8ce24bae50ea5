/** A fixed-window counter per key, bounded: past `maxKeys` the oldest key is dropped. One instance per limit. */
export class RateLimit {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(options: { limit: number; windowMs: number; maxKeys?: number; now?: () => number }) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#maxKeys = options.maxKeys ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** Counts one request for `key`; false once the key has used its limit in this window. */
  take(key: string): boolean {
    const now = this.#now();
    const window = this.#windows.get(key);
    if (window === undefined || now - window.start >= this.#windowMs) {
      this.#windows.delete(key);
      if (this.#windows.size >= this.#maxKeys) {
        const oldest = this.#windows.keys().next().value;
        if (oldest !== undefined) this.#windows.delete(oldest);
      }
      this.#windows.set(key, { start: now, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= this.#limit;
  }

  /** Keys held now (for tests of the bound). */
  get size(): number {
    return this.#windows.size;
  }
}
