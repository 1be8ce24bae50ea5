// The books, their mechanics only (what may spend is decided in money.ts): a request's permission to spend (Charge,
// made by Accounting) and each part written down against it, and the ledger of spends (SpendLedger: a paid request
// in the store before it leaves, answered and settled once).
import type { Acceptance, CallOptions } from '../api/client.ts';
import { AbortedError, type UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import { countCharacters } from '../characters.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { NewSpend, SpendAcceptance, SpendEndpoint, SpendOutcome } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';

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

export type AcceptedAnswer = Pick<Acceptance, 'requestId' | 'usage'>;

/** What a charge needs of the books that made it (Accounting gives it; nothing else calls these). */
export interface ChargeBooks {
  readonly log: Logger;
  /** Records one part's spend or saving under the charge's context (without its member, if forgotten meanwhile). */
  record(charge: Charge, spend: PartSpend): Promise<void>;
  /**
   * Writes ahead a paid request before its first byte leaves, its characters moved out of the charge's hold in the
   * same write. Throws (a Refusal, nothing sent) when the store cannot take it, or the month is used up and the charge
   * is not its probe.
   */
  sending(charge: Charge, spend: PartSpend): Promise<LedgerEntry>;
  /** The service accepted (and charged) a request written ahead. Never throws. */
  accept(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void>;
  /** A definite "not charged": the spend written ahead is taken back. Never throws. */
  release(entry: LedgerEntry): Promise<void>;
  /** Settles a spend written ahead (delivered or undelivered), once. Never throws. */
  settle(entry: LedgerEntry, outcome: SpendOutcome): Promise<void>;
  releaseHold(token: string, guildId: string): void;
  /** The charge is over: it no longer counts for its member's cooldown. */
  closed(charge: Charge): void;
}

/** The books' side of one paid call: written ahead, the client's hooks, then how the call ended. */
export interface PaidCall {
  /** Awaited right before the call: no instant after it leaves finds it off the books. A throw: nothing is sent. */
  writeAhead(): Promise<void>;
  readonly hooks: Pick<CallOptions, 'accepted' | 'unaccepted'>;
  /** Its audio (or voice ID) arrived, or never will; only an accepted call is settled here (else `unaccepted` did). */
  settle(outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void>;
}

/** A part's request nobody waits for any more before it leaves: nothing sent, nothing paid. */
export function unwanted(): AbortedError {
  return new AbortedError('nobody waits for this part any more: its request was not sent');
}

/** A paid call on `charge`'s books (Charge.call); with no charge, only `wanted` is asked before it leaves. */
export function paidCall(
  charge: Charge | undefined,
  text: string,
  endpoint: SpendEndpoint,
  wanted: () => boolean,
): PaidCall {
  if (charge !== undefined) return charge.call(text, endpoint, wanted);
  const writeAhead = async () => {
    if (!wanted()) throw unwanted();
  };
  return { writeAhead, hooks: {}, settle: () => Promise.resolve() };
}

/** Its characters held from its budget check until recorded: two requests cannot both pass a budget for one. */
export class Charge {
  readonly context: SpendContext;
  /** When its budgets were checked: while it may still spend, a cooldown counts from here. */
  readonly createdAt: Date;
  readonly #books: ChargeBooks;
  /** Characters still reserved, per part text (a text may occur twice in one request). */
  readonly #reserved = new Map<string, number[]>();
  /**
   * Set when this request is the one let through a used-up month to find out whether it is over: the store hold that
   * is the turn to probe, shared by every process, released once the probe has its answer.
   */
  readonly probe: string | undefined;
  /** The store's hold on its characters (seen by every process), until nothing more is reserved. */
  #hold: string | undefined;
  #probeOver = false;
  #forgotten: 'member' | 'guild' | undefined;
  #paid = 0;
  #written = 0;

  constructor(
    books: ChargeBooks,
    context: SpendContext,
    reserved: ReadonlyArray<{ text: string; characters: number }>,
    createdAt: Date,
    held: { probe?: string | undefined; hold?: string | undefined } = {},
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

  get hold(): string | undefined {
    return this.#hold;
  }

  get reserved(): number {
    let total = 0;
    for (const list of this.#reserved.values()) for (const n of list) total += n;
    return total;
  }

  get forgotten(): 'member' | 'guild' | undefined {
    return this.#forgotten;
  }

  /** Its member (or its whole guild) was forgotten: its spends from now on are recorded without their ID. */
  anonymise(scope: 'member' | 'guild'): void {
    if (this.#forgotten !== 'guild') this.#forgotten = scope;
  }

  async record(text: string, spend: PartSpend): Promise<void> {
    try {
      await this.#books.record(this, spend);
    } finally {
      this.release(text);
    }
  }

  /** A part served without a call (the cache, or another request's fetch): its characters saved. Never throws. */
  async saved(text: string, endpoint: SpendEndpoint): Promise<void> {
    const spend = { endpoint, characters: countCharacters(text), cached: true };
    await this.record(text, spend).catch((error: unknown) =>
      this.#books.log.error({ err: error, ...this.context }, 'could not record a spend'),
    );
  }

  /**
   * A paid call for `text`: written ahead before its first byte leaves, then confirmed by the service's acceptance,
   * taken back on a definite "not charged", or left spent, unconfirmed, when no answer came (it may have been
   * charged). Retries are one call, written once. `wanted` is asked before the write and after it: unwanted, it is
   * not sent (taken back if written). One closed after it left because nobody waited stays spent, never sent again.
   */
  call(text: string, endpoint: SpendEndpoint, wanted: () => boolean): PaidCall {
    const log = this.#books.log;
    const characters = countCharacters(text);
    let entry: LedgerEntry | undefined;
    let accepted: Acceptance | undefined;
    const context = { ...this.context, endpoint, characters };
    const writeAhead = async () => {
      if (!wanted()) throw unwanted();
      const written = await this.sending({ endpoint, characters, cached: false });
      if (!wanted()) {
        // Let go of while it was written down: taken back, and never sent.
        await this.released(written);
        throw unwanted();
      }
      entry = written;
    };
    const hooks: PaidCall['hooks'] = {
      accepted: async (acceptance: Acceptance) => {
        accepted = acceptance;
        if (entry) await this.accepted(entry, acceptance);
      },
      unaccepted: async (charged) => {
        if (!entry) return;
        if (charged === 'not-charged') return this.released(entry);
        // Closed as nobody waited (part-source.ts Waiters), or cut by the network or a timer: maybe charged.
        const letGo = !wanted();
        log.warn(
          { code: 'api-unconfirmed', ...context, ...(letGo ? { closed: 'nobody-waits' } : {}) },
          letGo
            ? 'sent to the Voice API and closed before its answer, as nobody waited for it any more: counted as spent, since it may have been charged'
            : 'sent to the Voice API and no answer came: counted as spent, since it may have been charged',
        );
        return this.settle(entry, 'undelivered');
      },
    };
    const settle = (outcome: 'delivered' | 'undelivered', error?: unknown): Promise<void> => {
      if (!accepted || !entry) return Promise.resolve();
      if (outcome === 'undelivered')
        log.warn(
          {
            code: 'api-undelivered',
            ...context,
            requestId: accepted.requestId,
            error: error instanceof Error ? error.name : undefined,
          },
          'charged by the Voice API but not delivered: recorded as spent',
        );
      return this.settle(entry, outcome);
    };
    return { writeAhead, hooks, settle };
  }

  /** A part's request is about to be sent: written ahead (ChargeBooks.sending); a throw means it is not sent. */
  async sending(spend: PartSpend): Promise<LedgerEntry> {
    const entry = await this.#books.sending(this, spend);
    this.#written += entry.spend.characters;
    return entry;
  }

  accepted(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    this.#paid += entry.spend.characters;
    return this.#books.accept(entry, answer);
  }

  /** Characters the service accepted (charged) so far: a later failure is not "nothing done" (paid-part-way.ts). */
  get paid(): number {
    return this.#paid;
  }

  /** Characters counted as spent: `paid`, and those sent with no answer (maybe charged: a stop words them so). */
  get written(): number {
    return this.#written;
  }

  released(entry: LedgerEntry): Promise<void> {
    this.#written -= entry.spend.characters;
    return this.#books.release(entry);
  }

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

  close(): void {
    this.#reserved.clear();
    this.#books.closed(this);
    this.#settleProbe();
    this.#releaseHold();
  }

  /** The probe's answer is in: its turn is released, once, and the next request may find out. */
  #settleProbe(): void {
    if (this.probe === undefined || this.#probeOver || this.reserved > 0) return;
    this.#probeOver = true;
    this.#books.releaseHold(this.probe, this.context.guildId);
  }

  // One hold covers the request: a part written ahead leaves it in its spend's own transaction; a part that turned out
  // free stays held until the last part is over (conservative), saving a store write per part.
  #releaseHold(): void {
    if (this.#hold === undefined) return;
    this.#books.releaseHold(this.#hold, this.context.guildId);
    this.#hold = undefined;
  }
}

/** One spend: a saving, or a paid request written ahead (`owner`), then answered and settled once onto its row. */
export interface LedgerEntry {
  readonly spend: NewSpend;
  id?: number;
  /** Accepted (its 2xx), or `released` (a definite "not charged": taken back). None: no answer yet, or never. */
  answer?: { accepted: SpendAcceptance } | 'released';
  answeredInStore?: boolean;
  outcome?: SpendOutcome;
  settledInStore?: boolean;
}

/** Settlements the store refused, kept to retry; past this the oldest is given up (its row stays spent). */
const MAX_UNSETTLED = 10_000;

/**
 * Writes spends to the store. A paid request is written ahead or not sent. A saving the store refuses is kept in
 * memory, in order, and while any is (`failing`) Accounting refuses spending. A refused answer or settlement changes
 * no count; a refused release leaves the spend counted (never fewer). Each is retried with the next write or flush,
 * and a restart settles what is still open (settleLeftBy).
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
      return await this.writeAhead(spend);
    } catch (error) {
      this.#unwritten.push(entry);
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: spend.guildId, characters: spend.characters },
        'could not record a spend in the store: it is kept in memory, and requests that would spend characters are refused until the store accepts writes again',
      );
    }
    return entry;
  }

  /** A paid request's spend before its first byte leaves, unconfirmed. Throws when refused: then it is not sent. */
  async writeAhead(spend: NewSpend): Promise<LedgerEntry> {
    const entry: LedgerEntry = { spend, id: await this.#store.spends.record(spend) };
    if (this.#unsettled.length > 0) void this.#settleAgain();
    return entry;
  }

  /** The service's 2xx: confirmed. Never throws; a refused write is retried with the next flush. */
  async accept(entry: LedgerEntry, acceptance: SpendAcceptance): Promise<void> {
    if (entry.answer !== undefined) return;
    entry.answer = { accepted: acceptance };
    this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /** A definite "not charged": taken back. Never throws; refused, it stays spent until the next flush. */
  async release(entry: LedgerEntry): Promise<void> {
    if (entry.answer !== undefined || entry.outcome !== undefined) return;
    entry.answer = 'released';
    await this.#catchUp(entry);
  }

  /** Settles a spend written ahead, once (one with no answer stays spent, unconfirmed). Never throws. */
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
        next.id = await this.#store.spends.record(next.spend);
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
