import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { NewSpend, Store } from '../store/types.ts';

/**
 * Writes spends to the store, and keeps those it could not write (disk full, read-only file) in memory, in
 * order, until the store takes them again: nothing the service billed is dropped. While any is unwritten,
 * `failing` is true and Accounting refuses requests that would spend, since the budgets would under-count.
 */
export class SpendLedger {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #unwritten: NewSpend[] = [];
  readonly #metrics: Pick<Metrics, 'characters'> | undefined;
  #flushing: Promise<boolean> | undefined;

  constructor(store: Store, logger: Logger, metrics?: Pick<Metrics, 'characters'>) {
    this.#store = store;
    this.#log = logger;
    this.#metrics = metrics;
  }

  get failing(): boolean {
    return this.#unwritten.length > 0;
  }

  /** Characters billed but not yet in the store (for budgets and /usage meanwhile). */
  unwrittenFor(match: (spend: NewSpend) => boolean): number {
    return this.#unwritten.filter((s) => !s.cached && match(s)).reduce((sum, s) => sum + s.characters, 0);
  }

  /**
   * Spends waiting to be written whose member (or guild) was forgotten meanwhile: they will be written without the ID.
   */
  /** The members whose spends wait to be written, in one guild or (undefined) every one. */
  *members(guildId?: string): Generator<string> {
    for (const spend of this.#unwritten) if (guildId === undefined || spend.guildId === guildId) yield spend.userId;
  }

  anonymise(match: (spend: NewSpend) => boolean, scope: 'member' | 'guild'): void {
    for (const spend of this.#unwritten) if (match(spend) && spend.forgotten !== 'guild') spend.forgotten = scope;
  }

  /** Writes one spend; true when it reached the store (false: kept to write later, operator told). */
  async write(spend: NewSpend): Promise<boolean> {
    // Counted as billed (or saved) whether or not the store takes it now: the service's bill does not wait.
    this.#metrics?.characters(spend.cached ? 'saved' : 'spent', spend.characters);
    if (this.failing) {
      this.#unwritten.push(spend);
      return this.flush();
    }
    try {
      await this.#store.spends.record(spend);
      return true;
    } catch (error) {
      this.#unwritten.push(spend);
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: spend.guildId, characters: spend.characters },
        'could not record a spend in the store: it is kept in memory, and requests that would spend characters are refused until the store accepts writes again',
      );
      return false;
    }
  }

  /** Tries the unwritten spends again, oldest first; true when none is left. */
  flush(): Promise<boolean> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #flushAll(): Promise<boolean> {
    const before = this.#unwritten.length;
    while (this.#unwritten.length > 0) {
      const next = this.#unwritten[0] as NewSpend;
      try {
        await this.#store.spends.record(next);
      } catch (error) {
        this.#log.debug({ err: error, unwritten: this.#unwritten.length }, 'the store still refuses writes');
        return false;
      }
      this.#unwritten.shift();
    }
    if (before > 0)
      this.#log.warn(
        { code: 'spends-recorded-again', written: before },
        'the store accepts writes again: every spend kept in memory is recorded',
      );
    return true;
  }
}
