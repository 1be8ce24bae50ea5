// A request's permission to spend, as the pipeline holds it: made by the books (accounting.ts), which it reaches
// only through the narrow ChargeBooks it is given.
import type { UsageInfo } from '../api/errors.ts';
import type { SpendEndpoint, SpendOutcome } from '../store/types.ts';
import type { LedgerEntry } from './spend-ledger.ts';
import type { Probe } from './used-up-month.ts';

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
