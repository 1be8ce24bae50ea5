// One paid request, its steps awaited in turn in one function (paidCall): who pays (the order's charge, whose parts
// were reserved at acceptance, or a part counted free then paying on a charge of its own: Charge, payer), still
// wanted, written ahead within the month, sent, confirmed, or taken back, or left spent as maybe charged, read and
// handed over, delivered, finished. It writes on the books (Accounting, src/core/quota/accounting.ts); the client only
// says what the call came to (src/core/api/client.ts `Sent`).
import { finished } from 'node:stream/promises';
import { AbortedError, OversizedResponseError } from '../api/errors.ts';
import type { PaidAnswer, PaidRequest, ServiceAnswer, VoiceApiClient } from '../api/client.ts';
import { countCharacters } from '../characters.ts';
import type { SpendEndpoint, SpendOutcome } from '../store/quota-store.ts';
import type { LedgerEntry, PartSpend, QuoteAllowance, SpendContext } from './ledger.ts';

/** One part of a request as the budget sees it; `free`: cached or in flight. */
export interface PartNeed {
  text: string;
  /** What its charge reserves it under: its audio's key (partCacheKey: its voice, text and sent settings); a clone's text. */
  key: string;
  endpoint: SpendEndpoint;
  characters: number;
  free: boolean;
}
/** What a paid call's payer is found by: its part's key (what a charge reserves) and its text. */
export type PaidPart = Pick<PartNeed, 'key' | 'text'>;

/** What a paid request is paid on: its order's charge, and what parts counted free at acceptance may still cost. */
export interface PayingOrder {
  readonly charge: Charge;
  readonly late?: QuoteAllowance | undefined;
}

type AcceptedAnswer = Pick<ServiceAnswer, 'requestId' | 'usage'>;

/** What a paid call and its charge ask of the books (Accounting): each step written down, the month heard. */
interface Books {
  authorize(context: SpendContext, parts: readonly PartNeed[], policy?: { memberCooldown: boolean }): Promise<Charge>;
  writeAhead(charge: Charge, spend: PartSpend): Promise<LedgerEntry>;
  confirm(charge: Charge, entry: LedgerEntry, answer: AcceptedAnswer): Promise<void>;
  takeBack(charge: Charge, entry: LedgerEntry): Promise<void>;
  leaveSpent(charge: Charge, entry: LedgerEntry, letGo: boolean): Promise<void>;
  finish(charge: Charge, entry: LedgerEntry, outcome: SpendOutcome, error?: unknown): Promise<void>;
  heard(error: unknown, characters: number): Promise<void>;
  told(error: unknown, characters: number): unknown;
  record(charge: Charge, spend: PartSpend): Promise<void>;
  closed(charge: Charge): void;
  releaseHold(token: string, guildId: string): void;
}

/** Its characters held from its budget check until recorded: two requests cannot both pass a budget for one. */
export class Charge {
  readonly context: SpendContext;
  /** When its budgets were checked: while it may still spend, a cooldown counts from here. */
  readonly createdAt: Date;
  /** The books that made it: what it holds is given back there. */
  readonly #books: Pick<Books, 'record' | 'closed' | 'releaseHold'>;
  /** Characters still reserved, per part's key (PartNeed.key: a part may occur twice in one request). */
  readonly #reserved = new Map<string, number[]>();
  /** The store's hold on its characters (seen by every process), until nothing more is reserved. */
  #hold: string | undefined;
  #forgotten: 'member' | 'guild' | undefined;
  #paid = 0;
  #written = 0;
  #delivered = 0;
  /** The order's charge a part paid late on this one belongs to: what it pays counts there too. */
  #order: Charge | undefined;

  constructor(
    books: Pick<Books, 'record' | 'closed' | 'releaseHold'>,
    context: SpendContext,
    reserved: ReadonlyArray<{ key: string; characters: number }>,
    createdAt: Date,
    hold?: string | undefined,
  ) {
    this.#books = books;
    this.context = context;
    this.createdAt = createdAt;
    this.#hold = hold;
    for (const { key, characters } of reserved)
      this.#reserved.set(key, [...(this.#reserved.get(key) ?? []), characters]);
  }

  /** Whether a part of this key (its voice and text, PartNeed.key) was paid for at acceptance (not counted free). */
  reserves(key: string): boolean {
    return this.#reserved.has(key);
  }

  get hold(): string | undefined {
    return this.#hold;
  }

  get reserved(): number {
    return [...this.#reserved.values()].flat().reduce((total, n) => total + n, 0);
  }

  get forgotten(): 'member' | 'guild' | undefined {
    return this.#forgotten;
  }

  /** Its member (or its whole guild) was forgotten: its spends from now on are recorded without their ID. */
  anonymise(scope: 'member' | 'guild'): void {
    if (this.#forgotten !== 'guild') this.#forgotten = scope;
  }

  /** A part's spend or saving written down (Accounting.record), its characters no longer reserved. Never throws. */
  async record(key: string, spend: PartSpend): Promise<void> {
    try {
      await this.#books.record(this, spend);
    } finally {
      this.release(key);
    }
  }

  /** A part served without a call (the cache, or another request's fetch): its characters saved. Never throws. */
  saved({ key, text }: { key: string; text: string }, endpoint: SpendEndpoint): Promise<void> {
    return this.record(key, { endpoint, characters: countCharacters(text), cached: true });
  }

  /** Characters the service accepted (charged) so far: a later failure is not "nothing done" (money.ts, paid part-way). */
  get paid(): number {
    return this.#paid;
  }

  /** Characters of `paid` whose audio (or voice ID) came whole. */
  get delivered(): number {
    return this.#delivered;
  }

  /** Characters counted as spent: `paid`, and those sent with no answer (maybe charged: a stop words them so). */
  get written(): number {
    return this.#written;
  }

  /** Characters written ahead (less those taken back), accepted, delivered; a late part's count its order's too. */
  count(written: number, paid = 0, delivered = 0): void {
    this.#written += written;
    this.#paid += paid;
    this.#delivered += delivered;
    this.#order?.count(written, paid, delivered);
  }

  /** The part of this key will spend nothing more (it failed, or was recorded). */
  release(key: string): void {
    const list = this.#reserved.get(key);
    list?.shift();
    if (list?.length === 0) this.#reserved.delete(key);
    if (this.#reserved.size === 0) this.#releaseHold();
  }

  close(): void {
    this.#reserved.clear();
    this.#books.closed(this);
    this.#releaseHold();
  }

  // One hold covers the request: a part written ahead leaves it in its spend's own transaction; a part that turned out
  // free stays held until the last part is over (conservative), saving a store write per part.
  #releaseHold(): void {
    if (this.#hold === undefined) return;
    this.#books.releaseHold(this.#hold, this.context.guildId);
    this.#hold = undefined;
  }

  /** It pays a part of `order`'s counted free at acceptance (payerOf's late payer), forgotten as that order is. */
  paysFor(order: Charge): Charge {
    if (order.forgotten !== undefined) this.anonymise(order.forgotten);
    this.#order = order;
    return this;
  }
}

// Who pays for `part`: its order's charge where it reserved the part at acceptance; for a part counted free then, a
// charge of its own passing the budgets and the month now (no cooldown, within its quote). No order: nobody.
async function payerOf(books: Books, order: PayingOrder | undefined, endpoint: SpendEndpoint, part: PaidPart) {
  if (order === undefined || order.charge.reserves(part.key)) return order?.charge;
  const { charge } = order;
  const characters = countCharacters(part.text);
  order.late?.take(characters);
  const need = { ...part, endpoint, characters, free: false };
  return (await books.authorize(charge.context, [need], { memberCooldown: false })).paysFor(charge);
}

/** Who waits for a paid call (part-source.ts `Waiters`): still `wanted`; it leaves (`calling`); answered (`close`). */
export interface Waiting {
  wanted(): boolean;
  calling(): void;
  close(): void;
  readonly letGo?: AbortSignal | undefined;
}

/** Its payer's order let go of it before it left (its hold given back): not sent on it; whoever waits asks anew. */
export class PayerLeftError extends AbortedError {}

/** A part's request nobody waits for any more before it leaves: nothing sent, nothing paid. */
export function unwanted(): AbortedError {
  return new AbortedError('nobody waits for this part any more: its request was not sent');
}

/** What a paid call goes through: the books it is written in, the client that sends it, what abandons it (shutdown). */
export interface PaidCalls {
  books: Books;
  client: Pick<VoiceApiClient, 'send'>;
  signal?: AbortSignal | undefined;
}

/** One paid call (pay) under way: `answered` once answered (its body streaming on), `done` once finished. */
export function paidCall<R extends PaidRequest>(
  calls: PaidCalls,
  request: R,
  part: PaidPart,
  order: PayingOrder | undefined,
  waiting: Waiting,
): { answered: Promise<PaidAnswer<R>>; done: Promise<PaidAnswer<R>> } {
  const answered = Promise.withResolvers<PaidAnswer<R>>();
  const done = pay(calls, request, part, order, waiting, answered);
  // Failed before its answer: `answered` says so to whoever waits for it (and is no unhandled rejection otherwise).
  done.catch(answered.reject);
  answered.promise.catch(() => undefined);
  return { answered: answered.promise, done };
}

// One paid call's steps in turn: who pays; still wanted; written ahead within the month (no instant after it leaves,
// a crash included, finds it off the books), or not sent; still wanted; sent; accepted and confirmed before its body
// is read, or taken back (not charged), or left spent (maybe charged); read and handed to `answered`; delivered or
// cut; finished. Retries are the client's, one call written once.
async function pay<R extends PaidRequest>(
  { books, client, signal }: PaidCalls,
  request: R,
  part: PaidPart,
  order: PayingOrder | undefined,
  waiting: Waiting,
  answered: PromiseWithResolvers<PaidAnswer<R>>,
): Promise<PaidAnswer<R>> {
  const { endpoint } = request;
  const characters = countCharacters(part.text);
  let payer: Charge | undefined;
  let entry: LedgerEntry | undefined;
  let accepted = false;
  let answer: PaidAnswer<R>;
  try {
    payer = await payerOf(books, order, endpoint, part);
    if (!waiting.wanted()) throw unwanted();
    if (payer !== undefined) entry = await books.writeAhead(payer, { endpoint, characters, cached: false });
    // Its order let go of it (a stop), its hold maybe gone before the write: what was written counts on no budget.
    const left = payer !== undefined && payer === order?.charge && !payer.reserves(part.key);
    const wanted = !left && waiting.wanted();
    if (wanted) waiting.calling();
    const sent = wanted ? await client.send(request, { signal, letGo: waiting.letGo }) : undefined;
    if (sent?.kind !== 'accepted') {
      // Never sent (let go of while it was written down) or a definite "not charged": taken back; else left spent.
      const taken = (sent?.kind ?? 'not-charged') === 'not-charged';
      if (payer !== undefined && entry !== undefined)
        await (taken ? books.takeBack(payer, entry) : books.leaveSpent(payer, entry, !waiting.wanted()));
      if (left) throw new PayerLeftError('its order let go of it as it was written ahead: not sent on its books');
      if (sent === undefined) throw unwanted();
      // What its failure says of the month written down; then its caller told (a 429 by its own figure).
      await books.heard(sent.error, characters);
      throw books.told(sent.error, characters);
    }
    accepted = true;
    waiting.close();
    if (payer !== undefined && entry !== undefined) await books.confirm(payer, entry, sent.answer);
    answer = await sent.read().catch(async (error: unknown) => {
      await books.heard(error, characters);
      throw books.told(error, characters);
    });
    // Its characters are on the books and its answer is here: the part holds nothing more.
    payer?.release(part.key);
  } catch (error) {
    if (accepted && payer !== undefined && entry !== undefined) await books.finish(payer, entry, 'undelivered', error);
    if (payer !== order?.charge) payer?.close();
    throw error;
  } finally {
    // Answered, or never sent: the next request may find out whether the month is back.
    if (entry?.turn !== undefined && payer !== undefined) books.releaseHold(entry.turn, payer.context.guildId);
  }
  answered.resolve(answer);
  // Delivered: an audio answer once its body is over (a bounded wait: the call's total timeout, and the audio its
  // text can take), undelivered when it went past that bound and was cut, spent either way; a new voice exists
  // whether or not its spoken line arrived (audioLost).
  let outcome: SpendOutcome = 'delivered';
  let cut: unknown;
  if ('body' in answer)
    await finished(answer.body).catch((error: unknown) => {
      cut = error;
      if (error instanceof OversizedResponseError) outcome = 'undelivered';
    });
  // Finished (which never throws), and a late part's own charge closed.
  if (payer !== undefined && entry !== undefined) await books.finish(payer, entry, outcome, cut);
  if (payer !== order?.charge) payer?.close();
  return answer;
}
