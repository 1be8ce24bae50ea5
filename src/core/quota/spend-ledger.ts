import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { NewSpend, SpendOutcome, Store } from '../store/types.ts';

/**
 * One spend given to the ledger, written now or later. A spend written ahead (`owner`) is settled once, whether
 * its row is written yet or not: the outcome goes into the row when it is written late, or onto the row after.
 */
export interface LedgerEntry {
  readonly spend: NewSpend;
  /** Its row, once the store has it. */
  id?: number;
  /** How it was settled, when it was written ahead. */
  outcome?: SpendOutcome;
  /** Whether the row now in the store carries `outcome` (a row written ahead needs one more write). */
  settledInStore?: boolean;
}

/** Settlements the store refused, kept to try again; a bound past which the oldest is given up (its row stays spent). */
const MAX_UNSETTLED = 10_000;

/**
 * Writes spends to the store, and keeps those it could not write (disk full, read-only file) in memory, in
 * order, until the store takes them again: nothing the service billed is dropped. While any is unwritten,
 * `failing` is true and Accounting refuses requests that would spend, since the budgets would under-count.
 * A settlement the store refuses (delivered or undelivered) changes no count, so it stops nothing: it is tried
 * again with the next flush, and a restart settles whatever is still accepted (settleLeftBy).
 */
export class SpendLedger {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #unwritten: LedgerEntry[] = [];
  readonly #unsettled: LedgerEntry[] = [];
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
    return this.#unwritten
      .map((entry) => entry.spend)
      .filter((s) => !s.cached && match(s))
      .reduce((sum, s) => sum + s.characters, 0);
  }

  /**
   * Spends waiting to be written whose member (or guild) was forgotten meanwhile: they will be written without the ID.
   */
  /** The members whose spends wait to be written, in one guild or (undefined) every one. */
  *members(guildId?: string): Generator<string> {
    for (const { spend } of this.#unwritten) if (guildId === undefined || spend.guildId === guildId) yield spend.userId;
  }

  anonymise(match: (spend: NewSpend) => boolean, scope: 'member' | 'guild'): void {
    for (const { spend } of this.#unwritten) if (match(spend) && spend.forgotten !== 'guild') spend.forgotten = scope;
  }

  /** Writes one spend; resolves once it reached the store, or was kept to write later (operator told). */
  async write(spend: NewSpend): Promise<LedgerEntry> {
    const entry: LedgerEntry = { spend };
    // Counted as billed (or saved) whether or not the store takes it now: the service's bill does not wait.
    this.#metrics?.characters(spend.cached ? 'saved' : 'spent', spend.characters);
    if (this.failing) {
      this.#unwritten.push(entry);
      await this.flush();
      return entry;
    }
    try {
      await this.#insert(entry);
      if (this.#unsettled.length > 0) void this.#settleAgain();
    } catch (error) {
      this.#unwritten.push(entry);
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: spend.guildId, characters: spend.characters },
        'could not record a spend in the store: it is kept in memory, and requests that would spend characters are refused until the store accepts writes again',
      );
    }
    return entry;
  }

  /**
   * Settles a spend written ahead, once: in its row if the store has it, else in the row when it is written.
   * Never throws; a settlement the store refuses now is tried again with the next flush.
   */
  async settle(entry: LedgerEntry, outcome: SpendOutcome): Promise<void> {
    if (entry.outcome !== undefined || entry.spend.owner === undefined) return;
    entry.outcome = outcome;
    if (entry.id === undefined) return; // unwritten, or being written: #insert settles it
    await this.#settleInStore(entry);
  }

  /** Tries the unwritten spends (oldest first) and the unsettled ones again; true when no spend is left unwritten. */
  flush(): Promise<boolean> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #insert(entry: LedgerEntry): Promise<void> {
    const { spend } = entry;
    // Settled before it could be written: written as it ended, with no owner left to settle it.
    const row: NewSpend =
      entry.outcome === undefined
        ? spend
        : { ...spend, owner: undefined, ...(entry.outcome === 'undelivered' ? { undelivered: true } : {}) };
    entry.id = await this.#store.spends.record(row);
    entry.settledInStore = row.owner === undefined;
    // Settled while the row was being written: the row still says accepted.
    if (entry.outcome !== undefined && !entry.settledInStore) await this.#settleInStore(entry);
  }

  async #settleInStore(entry: LedgerEntry): Promise<void> {
    if (entry.id === undefined || entry.outcome === undefined || entry.settledInStore) return;
    try {
      await this.#store.spends.settle(entry.id, entry.outcome);
      entry.settledInStore = true;
    } catch (error) {
      this.#log.warn({ err: error, spend: entry.id }, 'could not settle a spend; it stays spent, and is tried again');
      if (!this.#unsettled.includes(entry)) this.#unsettled.push(entry);
      if (this.#unsettled.length > MAX_UNSETTLED) this.#unsettled.shift();
    }
  }

  async #flushAll(): Promise<boolean> {
    const before = this.#unwritten.length;
    while (this.#unwritten.length > 0) {
      const next = this.#unwritten[0] as LedgerEntry;
      try {
        await this.#insert(next);
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
    await this.#settleAgain();
    return true;
  }

  async #settleAgain(): Promise<void> {
    for (const entry of this.#unsettled.splice(0)) await this.#settleInStore(entry);
  }
}
