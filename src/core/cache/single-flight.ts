/**
 * Identical work asked for while it is already under way joins it instead of starting it again: ten identical
 * requests at once make one API call. A flight is forgotten once `settled` (given by its starter) settles, so
 * a later request starts afresh (and, by then, finds the result in the cache).
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, T>();

  /** Whether a flight for `key` is under way. */
  has(key: string): boolean {
    return this.#flights.has(key);
  }

  /**
   * Joins the flight for `key`, or starts one with `start`. `settled(value)` says when the flight is over;
   * its outcome does not matter here (failures are the caller's to report).
   */
  join(key: string, start: () => T, settled: (value: T) => Promise<unknown>): { value: T; leader: boolean } {
    const current = this.#flights.get(key);
    if (current !== undefined) return { value: current, leader: false };
    const value = start();
    this.#flights.set(key, value);
    void settled(value)
      .catch(() => undefined)
      .finally(() => {
        if (this.#flights.get(key) === value) this.#flights.delete(key);
      });
    return { value, leader: true };
  }

  /**
   * Forgets `value`, the flight for `key`, before it settles (its starter gave it up): whoever asks for `key` next
   * starts afresh instead of joining it.
   */
  forget(key: string, value: T): void {
    if (this.#flights.get(key) === value) this.#flights.delete(key);
  }

  /** Every flight under way (to wait for them at shutdown). */
  values(): T[] {
    return [...this.#flights.values()];
  }
}
