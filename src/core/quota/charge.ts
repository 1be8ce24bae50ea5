// A request's permission to spend, as the pipeline holds it (Charge: made by the books, accounting.ts, which it
// reaches only through the narrow ChargeBooks it is given), and each of its parts written down against it
// (SpendRecorder, below), in the ledger every spend is written in (SpendLedger, at the end: a paid request in the
// store before it leaves, then answered and settled once).
import type { Acceptance, CallOptions } from '../api/client.ts';
import { AbortedError, type UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import type { Probe } from './used-up-month.ts';
import { countCharacters } from '../characters.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { NewSpend, SpendAcceptance, SpendEndpoint, SpendOutcome } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';

/** Who spends: every spend is recorded under a guild, a member and the command they ran. */
export interface SpendContext {
  guildId: string;
  userId: string;
  command: string;
}

export interface PartSpend {
  endpoint: SpendEndpoint;
  characters: number;
  /** Served from the cache or a flight another request made: nothing spent. */
  cached: boolean;
  /** Charged by the service but never received (UndeliveredError): spent, and marked so. */
  undelivered?: boolean;
  usage?: UsageInfo | undefined;
  requestId?: string | undefined;
}

/** What the service's 2xx said of a request written ahead: it accepted (and charged) it. */
export interface AcceptedAnswer {
  requestId?: string | undefined;
  usage?: UsageInfo | undefined;
}

/** What a charge needs of the books that made it (Accounting gives it; nothing else calls these). */
export interface ChargeBooks {
  /** Records one part's spend or saving; `forgotten`: its member (or guild) asked to be forgotten meanwhile. */
  record(context: SpendContext, spend: PartSpend, forgotten: 'member' | 'guild' | undefined): Promise<void>;
  /**
   * Writes ahead a paid request about to be sent, before its first byte leaves, moving its characters out of `hold`
   * in the same write; resolves once it is in the store, and throws (a Refusal) when it cannot be, or when the month
   * was marked used up since and this is not the request `probe` lets through: then nothing is sent.
   */
  sending(
    context: SpendContext,
    spend: PartSpend,
    forgotten: 'member' | 'guild' | undefined,
    hold: string | undefined,
    probe: Probe | undefined,
  ): Promise<LedgerEntry>;
  /** The service accepted (and charged) a request written ahead. Never throws. */
  accept(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void>;
  /** A request written ahead had a definite "not charged" answer: its spend is taken back. Never throws. */
  release(entry: LedgerEntry): Promise<void>;
  /** Settles a spend written ahead: delivered, or undelivered. Once; never throws. */
  settle(entry: LedgerEntry, outcome: SpendOutcome): Promise<void>;
  /** The charge probed a used-up month and has its answer (or gave up): the next request may probe. */
  probeSettled(probe: Probe, guildId: string): void;
  /** The store hold the charge had is no longer needed. */
  releaseHold(token: string, guildId: string): void;
  /** The charge is over: it no longer counts as a request of its member's that may still spend. */
  closed(charge: Charge): void;
}

/**
 * A request's permission to spend, from the moment its budgets were checked until its parts are recorded: the
 * characters it may still spend are held against the budgets meanwhile, so two requests checked at once cannot
 * both pass a budget that has room for one.
 */
export class Charge {
  readonly context: SpendContext;
  /** When its budgets were checked: while it may still spend, a cooldown counts from here. */
  readonly createdAt: Date;
  readonly #books: ChargeBooks;
  /** Characters still reserved, per part text (a text may occur twice in one request). */
  readonly #reserved = new Map<string, number[]>();
  /** Set when this request is the one allowed through a used-up month to find out whether it is over. */
  readonly probe: Probe | undefined;
  /** The store's hold on its characters (seen by every process), until nothing more is reserved. */
  #hold: string | undefined;
  /** Its member (or guild) asked to be forgotten while it was under way: what it still records carries no ID. */
  #forgotten: 'member' | 'guild' | undefined;
  /** Characters the service accepted (and charged) for this request's parts so far. */
  #paid = 0;
  /** Characters written ahead for this request's parts and not taken back (paid, or sent and never answered). */
  #written = 0;

  constructor(
    books: ChargeBooks,
    context: SpendContext,
    reserved: ReadonlyArray<{ text: string; characters: number }>,
    createdAt: Date,
    held: { probe?: Probe | undefined; hold?: string | undefined } = {},
  ) {
    this.#books = books;
    this.context = context;
    this.createdAt = createdAt;
    this.probe = held.probe;
    this.#hold = held.hold;
    for (const { text, characters } of reserved)
      this.#reserved.set(text, [...(this.#reserved.get(text) ?? []), characters]);
  }

  /** Whether a part of this text was paid for at acceptance (not counted free). */
  reserves(text: string): boolean {
    return this.#reserved.has(text);
  }

  /** The store hold renewed while this request lives, if it has one. */
  get hold(): string | undefined {
    return this.#hold;
  }

  get reserved(): number {
    let total = 0;
    for (const list of this.#reserved.values()) for (const n of list) total += n;
    return total;
  }

  /** Who was forgotten since it was accepted, if anyone. */
  get forgotten(): 'member' | 'guild' | undefined {
    return this.#forgotten;
  }

  /** Its member (or its whole guild) was forgotten: its spends from now on are recorded without their ID. */
  anonymise(scope: 'member' | 'guild'): void {
    if (this.#forgotten !== 'guild') this.#forgotten = scope;
  }

  /** Records one part's spend (or saving), then stops holding its reservation. */
  async record(text: string, spend: PartSpend): Promise<void> {
    try {
      await this.#books.record(this.context, spend, this.#forgotten);
    } finally {
      this.release(text);
    }
  }

  /**
   * A part's request is about to be sent: its spend is written ahead now, before its first byte leaves, its
   * characters moved out of the hold as it is written. Throws (a Refusal) when the books cannot take it, or the month
   * was marked used up since this request was accepted (the service would refuse it the same way): then the request
   * must not be sent. The service's answer then confirms it (accepted) or takes it back (released); the
   * caller releases the part's reservation once it will spend nothing more, and settles the entry once it is over.
   */
  async sending(spend: PartSpend): Promise<LedgerEntry> {
    const entry = await this.#books.sending(this.context, spend, this.#forgotten, this.#hold, this.probe);
    this.#written += entry.spend.characters;
    return entry;
  }

  /** The service accepted (and charged) the request written ahead as `entry`. */
  accepted(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    this.#paid += entry.spend.characters;
    return this.#books.accept(entry, answer);
  }

  /**
   * Characters the service accepted (and so charged) for this request's parts so far: what a failure afterwards
   * must not be worded as "nothing done" over (src/core/quota/paid-part-way.ts).
   */
  get paid(): number {
    return this.#paid;
  }

  /**
   * Characters the books count as spent for this request's parts so far: those the service accepted (`paid`), and
   * those sent that never had its answer (closed unanswered, cut, timed out: it may have charged them). What a stop
   * must word as "may have been counted" is this less `paid`.
   */
  get written(): number {
    return this.#written;
  }

  /** The request written ahead as `entry` was definitely not charged (refused, or never sent): taken back. */
  released(entry: LedgerEntry): Promise<void> {
    this.#written -= entry.spend.characters;
    return this.#books.release(entry);
  }

  /** How a part written ahead ended (its audio arrived, or never will). */
  settle(entry: LedgerEntry, outcome: SpendOutcome): Promise<void> {
    return this.#books.settle(entry, outcome);
  }

  /** The part will spend nothing more (it failed, or was recorded). */
  release(text: string): void {
    const list = this.#reserved.get(text);
    list?.shift();
    if (list?.length === 0) this.#reserved.delete(text);
    // A probe has its answer once its first paid part is over (accepted, refused or failed).
    if (list !== undefined) this.#settleProbe();
    if (this.#reserved.size === 0) this.#releaseHold();
  }

  /** The request is over: whatever it did not spend is no longer held. */
  close(): void {
    this.#reserved.clear();
    this.#books.closed(this);
    this.#settleProbe();
    this.#releaseHold();
  }

  /** A probe of a used-up month has its answer once nothing it reserved is left. */
  #settleProbe(): void {
    if (this.probe === undefined || this.reserved > 0) return;
    this.#books.probeSettled(this.probe, this.context.guildId);
  }

  // One hold covers the whole request: a part written ahead takes its characters out of it in the spend's own
  // transaction (exact at every instant); a part held as paid that turned out free (another request's fetch served
  // it) stays held until the last part is over (conservative, exact after), which saves a store write per part.
  #releaseHold(): void {
    if (this.#hold === undefined) return;
    this.#books.releaseHold(this.#hold, this.context.guildId);
    this.#hold = undefined;
  }
}

// Where every answer to a part is written down: a paid part as a spend written ahead, before its first byte leaves,
// then confirmed by the service's acceptance (and settled as delivered or undelivered), taken back on a definite
// "not charged", or left spent when no answer came; a part served from the cache or from another request's fetch as
// a saving. Each once.
/** The books' side of one paid call: written ahead, the client's hooks, then how the call ended. */
export interface PaidCall {
  /**
   * Awaited right before the call is handed to the client: written down as spent first, so that no instant after it
   * leaves finds it off the books. What it throws (a Refusal, nobody waiting any more) means nothing is sent.
   */
  writeAhead(): Promise<void>;
  /** For the client (CallOptions): accepted, or taken back. */
  readonly hooks: Pick<CallOptions, 'accepted' | 'unaccepted'>;
  /**
   * The call is over once its audio (or voice ID) arrived, or it never will (`error`: the body broke before its
   * audio could be used, or went past what its text can take). A call the service accepted is spent either way,
   * settled once; one it never accepted was settled by the `unaccepted` hook already.
   */
  settle(outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void>;
}

/** What a part's request ends with when nobody waits for it any more before it leaves: nothing sent, nothing paid. */
export function unwanted(): AbortedError {
  return new AbortedError('nobody waits for this part any more: its request was not sent');
}

export class SpendRecorder {
  /** Whether books are kept (a PartSource without accounting writes nothing down). */
  readonly #keepsBooks: boolean;
  readonly #log: Logger;
  /** Spends being written, so that settled() lets them reach the store before it closes. */
  readonly #writing = new Set<Promise<unknown>>();

  constructor(keepsBooks: boolean, log: Logger) {
    this.#keepsBooks = keepsBooks;
    this.#log = log;
  }

  /** A part served without a call (the cache, or another request's fetch): its characters saved. */
  saved(charge: Charge | undefined, text: string, endpoint: SpendEndpoint): Promise<void> {
    if (!charge || !this.#keepsBooks) {
      charge?.release(text);
      return Promise.resolve();
    }
    const spend = { endpoint, characters: countCharacters(text), cached: true };
    return this.#track(
      charge
        .record(text, spend)
        .catch((error: unknown) => this.#log.error({ err: error, ...charge.context }, 'could not record a spend')),
    );
  }

  /**
   * A paid call about to be made for `text` under `charge`: written ahead before its first byte leaves (a Refusal,
   * and nothing sent, when the books cannot take it), spent from then on; the service's acceptance confirms it, a
   * definite "not charged" takes it back, and a call with no answer stays spent, unconfirmed (it may have been
   * charged). Retried attempts are one call: written once. `wanted` is asked before it is written and again once it
   * is, the last instant before it is handed to the client: nobody waits for it any more, it is not sent (taken
   * back if written). One let go of after that while its connection opens leaves no byte either: the client answers
   * "not charged" (src/core/api/call.ts) and it is taken back. A call closed after it left because nobody
   * waited (the client's CallControl `letGo`) stays spent, as it may have been charged: never taken back, never sent
   * again.
   */
  paid(charge: Charge | undefined, text: string, endpoint: SpendEndpoint, wanted = () => true): PaidCall {
    const stillWanted = () => {
      if (!wanted()) throw unwanted();
    };
    if (!charge || !this.#keepsBooks)
      return { writeAhead: () => Promise.resolve().then(stillWanted), hooks: {}, settle: () => Promise.resolve() };
    const characters = countCharacters(text);
    let entry: LedgerEntry | undefined;
    let accepted: Acceptance | undefined;
    const context = { ...charge.context, endpoint, characters };
    const writeAhead = async () => {
      stillWanted();
      const written = await this.#track(charge.sending({ endpoint, characters, cached: false }));
      if (!wanted()) {
        // Let go of while it was written down: taken back, and never sent.
        await this.#track(charge.released(written));
        throw unwanted();
      }
      entry = written;
    };
    const hooks: PaidCall['hooks'] = {
      accepted: async (acceptance: Acceptance) => {
        accepted = acceptance;
        const { requestId, usage } = acceptance;
        if (entry) await this.#track(charge.accepted(entry, { requestId, usage }));
      },
      unaccepted: async (charged) => {
        if (!entry) return;
        if (charged === 'not-charged') return this.#track(charge.released(entry));
        // Closed by SayBot because nobody waited any more (src/core/sourcing/part-flight.ts Waiters), or cut by the
        // network or a timer:
        // either way the service may have charged it before the connection closed.
        const letGo = !wanted();
        this.#log.warn(
          { code: 'api-unconfirmed', ...context, ...(letGo ? { closed: 'nobody-waits' } : {}) },
          letGo
            ? 'sent to the Voice API and closed before its answer, as nobody waited for it any more: counted as spent, since it may have been charged'
            : 'sent to the Voice API and no answer came: counted as spent, since it may have been charged',
        );
        return this.#track(charge.settle(entry, 'undelivered'));
      },
    };
    const settle = (outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void> => {
      if (!accepted || !entry) return Promise.resolve();
      if (outcome === 'undelivered')
        this.#log.warn(
          {
            code: 'api-undelivered',
            ...context,
            requestId: accepted.requestId,
            error: error instanceof Error ? error.name : undefined,
          },
          'charged by the Voice API but not delivered: recorded as spent',
        );
      return this.#track(charge.settle(entry, outcome));
    };
    return { writeAhead, hooks, settle };
  }

  /** Resolves once every spend being written has reached the store (or failed, logged). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#writing]);
  }

  #track<T>(task: Promise<T>): Promise<T> {
    this.#writing.add(task);
    // Its failure is the caller's (a write ahead the store refused is a refusal); here it only stops being tracked.
    const done = () => this.#writing.delete(task);
    task.then(done, done);
    return task;
  }
}

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
