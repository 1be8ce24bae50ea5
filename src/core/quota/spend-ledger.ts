import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { NewSpend, SpendAcceptance, SpendOutcome, Store } from '../store/types.ts';

/**
 * One spend given to the ledger: a saving, written now or later; or a paid request written ahead (`owner`), in the
 * store before it is sent, then answered (accepted or released) and settled once, each onto its row.
 */
export interface LedgerEntry {
  readonly spend: NewSpend;
  /** Its row, once the store has it. */
  id?: number;
  /**
   * What the service answered a request written before it left: accepted (its 2xx), or a definite "not charged"
   * (`released`: the spend taken back). None: no answer yet, or never one.
   */
  answer?: { accepted: SpendAcceptance } | 'released';
  /** Whether the row now in the store carries `answer`. */
  answeredInStore?: boolean;
  /** How it was settled, when it was written ahead. */
  outcome?: SpendOutcome;
  /** Whether the row now in the store carries `outcome` (a row written ahead needs one more write). */
  settledInStore?: boolean;
}

/** Settlements the store refused, kept to try again; a bound past which the oldest is given up (its row stays spent). */
const MAX_UNSETTLED = 10_000;

/**
 * Writes spends to the store. A paid request is written ahead, before it is sent, and only there: a store that
 * refuses it means the request is not sent. Other spends (savings) the store could not write (disk full, read-only
 * file) are kept in memory, in order, until it takes them again; while any is unwritten, `failing` is true and
 * Accounting refuses requests that would spend. An answer or a settlement the store refuses (accepted, delivered,
 * undelivered) changes no count, so it stops nothing; a release it refuses leaves the spend counted (never fewer).
 * Each is tried again with the next write or flush, and a restart settles whatever is still open (settleLeftBy).
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
   * Writes a paid request's spend before its first byte leaves: spent from now on, unconfirmed until the service
   * answers. Not kept in memory when the store refuses it: it throws, and the request must not be sent.
   */
  async writeAhead(spend: NewSpend): Promise<LedgerEntry> {
    const entry: LedgerEntry = { spend, id: await this.#store.spends.record(spend) };
    if (this.#unsettled.length > 0) void this.#settleAgain();
    return entry;
  }

  /**
   * The service accepted a request written ahead (its 2xx): confirmed, with its request ID and usage figures. Never
   * throws; what the store refuses now is tried again with the next flush (it changes no count).
   */
  async accept(entry: LedgerEntry, acceptance: SpendAcceptance): Promise<void> {
    if (entry.answer !== undefined) return;
    entry.answer = { accepted: acceptance };
    this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /**
   * A request written ahead had a definite "not charged" answer: its spend is taken back. Never throws; what the
   * store refuses now is tried again with the next flush (until then it counts as spent: never fewer).
   */
  async release(entry: LedgerEntry): Promise<void> {
    if (entry.answer !== undefined || entry.outcome !== undefined) return;
    entry.answer = 'released';
    await this.#catchUp(entry);
  }

  /**
   * Settles a spend written ahead, once: in its row if the store has it, else in the row when it is written.
   * Never throws; a settlement the store refuses now is tried again with the next flush. A request that never had
   * the service's answer is settled spent all the same, unconfirmed (it may have been charged).
   */
  async settle(entry: LedgerEntry, outcome: SpendOutcome): Promise<void> {
    if (entry.outcome !== undefined || entry.answer === 'released' || entry.spend.owner === undefined) return;
    entry.outcome = outcome;
    if (entry.answer === undefined && entry.spend.unconfirmed === true)
      this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /** Tries the unwritten spends (oldest first) and the unsettled ones again; true when no spend is left unwritten. */
  flush(): Promise<boolean> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #insert(entry: LedgerEntry): Promise<void> {
    entry.id = await this.#store.spends.record(entry.spend);
  }

  /** Brings the row of a spend written ahead up to what is known of it: its answer first, then how it ended. */
  async #catchUp(entry: LedgerEntry): Promise<void> {
    const { id, answer } = entry;
    if (id === undefined) return;
    try {
      if (answer !== undefined && !entry.answeredInStore) {
        if (answer === 'released') await this.#store.spends.release(id, entry.spend);
        else await this.#store.spends.accept(id, answer.accepted);
        entry.answeredInStore = true;
      }
      if (entry.outcome !== undefined && !entry.settledInStore && answer !== 'released') {
        await this.#store.spends.settle(id, entry.outcome);
        entry.settledInStore = true;
      }
    } catch (error) {
      this.#log.warn({ err: error, spend: id }, 'could not settle a spend; it stays spent, and is tried again');
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
    for (const entry of this.#unsettled.splice(0)) await this.#catchUp(entry);
  }
}
