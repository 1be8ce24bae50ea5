// Money's books (Accounting): acceptance's checks run in a guild's order by the store's deadline, each step taken as
// src/core/quota/money.ts asks (MoneyRules), a hold given back when a later check refuses; what an order is held and
// paid on (Charge); each paid request's steps (the month's probe, written ahead, confirmed, taken back or left spent,
// finished), each a method src/core/quota/paid-call.ts awaits; /usage's figures. The ledger only records
// (src/core/quota/ledger.ts), the store only sums and holds (src/core/store/areas/spends.ts, quota-state.ts).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Refusal } from '../refusal.ts';
import type { BudgetHoldLimits, BudgetRule, QuotaState, SpendEndpoint, SpendOutcome } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import type { ServiceAnswer } from '../api/client.ts';
import type { OperatorBudgets, ServerBudgets } from '../config.ts';
import { countCharacters } from '../characters.ts';
import {
  MAX_KEPT,
  STORE_DEADLINE_MS,
  SpendLedger,
  byDeadline,
  storageUnavailable,
  storeTimedOut,
  usageReport,
  type LedgerEntry,
  type PartSpend,
  type SpendContext,
} from './ledger.ts';
import { ServiceMonth, type CurrentAccount } from './month.ts';

export { PROBE_MS } from './month.ts';

/** How long a dead process's hold lasts; a live request renews its hold every third of this. */
export const BUDGET_HOLD_TTL_MS = 15 * 60_000;

export interface AccountingOptions {
  store: Store;
  budgets: OperatorBudgets;
  /** What may spend: acceptance's rules (src/core/quota/money.ts `MONEY_RULES`), which the books hold requests to. */
  rules: MoneyRules;
  /** The whole bot's month, every guild together (BUDGET_BOT_MONTHLY_CHARS); 0 or absent: no limit. */
  botMonthlyChars?: number;
  /** The plan's monthly characters (VOICE_API_PLAN), used until the service reports its own figures. */
  planCharacterLimit: number;
  logger: Logger;
  now?: (() => Date) | undefined;
  /** The API key's fingerprint and the plan: a start under another one clears a used-up month. */
  account?: CurrentAccount;
  metrics?: Pick<Metrics, 'characters'> | undefined;
  storeDeadlineMs?: number;
  /** This process on the books, the same at every start, so a start finishes what the last left (recover()). */
  owner?: string;
}

/** Acceptance's rules, handed to the books: they gather the facts and take each step asked, these decide. */
export interface MoneyRules {
  /** The limits in force in a server: the operator's, lowered by the server's own. */
  limits(operator: OperatorBudgets, server: ServerBudgets): OperatorBudgets;
  passed: BudgetRule;
  /** Acceptance's checks of a request's `needed` paid characters, in their order, each a step of `books`. */
  checks(books: SpendingBooks, needed: number, policy: { memberCooldown: boolean }): Promise<void>;
  /** The month's rule, as a part of `leaving` leaves: its probe, or refused. */
  probeFor(month: ServiceMonth, log: Logger, characters: number, leaving?: Charge): Promise<string | undefined>;
  /** The month's mark if it still stands (one past its reset date, or under another key or plan, cleared). */
  standingMark(month: ServiceMonth): Promise<QuotaState['exhausted']>;
  /** Whether the month refuses `needed` characters as they leave: its mark, or too few left. */
  monthRefusal(month: ServiceMonth, needed: number): Promise<Refusal | undefined>;
}

/** The steps acceptance's checks ask of the books for one request, at one instant (`now`). */
export interface SpendingBooks {
  readonly now: Date;
  readonly month: ServiceMonth;
  readonly log: Logger;
  /** Whether every spend the store refused is written now (tried again first). */
  written(): Promise<boolean>;
  /** The limits in force, the bot's month, the member's last spends (stored, and this process's that may still spend:
   * a guild's interactions all reach its one shard). */
  facts(): Promise<{ limits: OperatorBudgets; botMonthly: number; last: Date[] }>;
  /** Held against `limits` by `rule` in the store's one transaction (every process's holds): else what it would pass. */
  hold(limits: BudgetHoldLimits, rule: BudgetRule): Promise<ReturnType<BudgetRule>>;
  /** Logged as a budget's refusal, and thrown. */
  refuse(refusal: Refusal): never;
}

/** /usage's figures (Accounting.report). */
export type UsageReport = Awaited<ReturnType<typeof usageReport>>;

/** The bot's books: a request checked before anything is sent, every spend and saving recorded, /usage answered. */
export class Accounting {
  readonly #store: Store;
  readonly #operator: OperatorBudgets;
  readonly #rules: MoneyRules;
  readonly #botMonthly: number;
  readonly #planLimit: number;
  readonly #log: Logger;
  readonly #now: () => Date;
  /** This process's requests that may still spend (for the cooldown; the characters are held in the store). */
  readonly #charges = new Set<Charge>();
  /** The month as the service counts it: its mark, its last figures, its probe. */
  readonly month: ServiceMonth;
  readonly #ledger: SpendLedger;
  /** Per guild, checks and hold releases run in order, each seeing those before; guilds never wait for each other. */
  readonly #checks = new Map<string, Promise<unknown>>();
  readonly #deadlineMs: number;
  readonly #owner: string;
  /** Savings were left untallied in this outage (told once). */
  #droppedSavings = false;
  #renewal: ReturnType<typeof setInterval> | undefined;

  constructor(options: AccountingOptions) {
    this.#store = options.store;
    this.#operator = options.budgets;
    this.#rules = options.rules;
    this.#botMonthly = options.botMonthlyChars ?? 0;
    this.#planLimit = options.planCharacterLimit;
    this.#log = options.logger;
    this.#now = options.now ?? (() => new Date());
    this.#owner = options.owner ?? `instance:${randomUUID()}`;
    this.month = new ServiceMonth({ ...options, owner: this.#owner, now: this.#now, rule: options.rules.passed });
    this.#deadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
    this.#ledger = new SpendLedger(this.#store, this.#log, options.metrics);
  }

  /**
   * Finishes what the last run of this owner left, before anything is held or spent: its spends written ahead stay
   * spent, undelivered (maybe charged: never fewer than charged); its holds, now of characters never sent, go.
   * Nothing counts twice: a part's characters left its hold in the transaction that wrote its spend.
   */
  recover(): ReturnType<SpendLedger['recover']> {
    return this.#ledger.recover(this.#owner);
  }

  /** Stops renewing holds (shutdown: what is still held expires as after a crash) and, the store still open, writes
   * once more what it refused (by the store deadline): a refused taking back left to the next start would be booked
   * spent, as after a crash. */
  async close(): Promise<void> {
    this.#stopRenewing();
    this.#ledger.close();
    await byDeadline(this.#ledger.flush(), this.#deadlineMs, () => false);
  }

  #stopRenewing(): void {
    clearInterval(this.#renewal);
    this.#renewal = undefined;
  }

  #inGuildOrder<T>(guildId: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#checks.get(guildId) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.#checks.set(guildId, tail);
    void tail.then(() => {
      if (this.#checks.get(guildId) === tail) this.#checks.delete(guildId);
    });
    return run;
  }

  #renewHolds(): void {
    const tokens = [...this.#charges].map((c) => c.hold).filter((t): t is string => t !== undefined);
    if (tokens.length === 0) return this.#stopRenewing();
    const expiresAt = new Date(this.#now().getTime() + BUDGET_HOLD_TTL_MS);
    this.#store.budgets
      .renew(tokens, expiresAt)
      .catch((error: unknown) => this.#log.error({ err: error, holds: tokens.length }, 'could not renew budget holds'));
  }

  get operatorBudgets(): OperatorBudgets {
    return this.#operator;
  }

  async budgetsFor(guildId: string): Promise<OperatorBudgets> {
    return this.#rules.limits(this.#operator, await this.#store.budgets.get(guildId));
  }

  *requestingMembers(guildId?: string): Generator<string> {
    for (const { context } of this.#charges)
      if (guildId === undefined || context.guildId === guildId) yield context.userId;
    yield* this.#ledger.members(guildId);
  }

  /** Forgotten (no `userId`: a guild; no `guildId`: everywhere): what is under way is recorded without their ID. */
  anonymiseRequests(guildId: string | undefined, userId?: string): void {
    const scope = userId === undefined ? 'guild' : 'member';
    const theirs = (c: { guildId: string; userId: string }) =>
      (guildId === undefined || c.guildId === guildId) && (userId === undefined || c.userId === userId);
    for (const charge of this.#charges) if (theirs(charge.context)) charge.anonymise(scope);
    this.#ledger.anonymise(theirs, scope);
  }

  /**
   * Runs acceptance's checks (the rules' `checks`) on a request's paid parts, before any call: refused, it throws the
   * refusal; else what they held stays held until its parts are recorded. Past the store deadline it is refused as
   * "storage unavailable"; the check holds up the guild's next until the store answers, and lets go of what it held
   * then, so a late answer never leaves a hold behind.
   */
  authorize(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean } = { memberCooldown: true },
  ): Promise<Charge> {
    let late = false;
    const work = this.#inGuildOrder(context.guildId, () => this.#authorize(context, parts, policy, () => late));
    return byDeadline(work, this.#deadlineMs, () => {
      late = true;
      this.#log.warn(
        { code: 'storage-unavailable', ...context, deadlineMs: this.#deadlineMs },
        'the store did not answer in time: request refused',
      );
      throw storageUnavailable();
    }).catch((error: unknown) => {
      throw storeTimedOut(error) ? storageUnavailable(error) : error;
    });
  }

  async #authorize(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean },
    late: () => boolean,
  ): Promise<Charge> {
    const paid = parts.filter((p) => !p.free);
    const needed = paid.reduce((sum, p) => sum + p.characters, 0);
    let hold: string | undefined;
    const steps = this.#steps(context, needed, (token) => (hold = token));
    try {
      await this.#rules.checks(steps, needed, policy);
      if (late()) throw storageUnavailable();
    } catch (refused) {
      // Refused, or at the deadline meanwhile: nothing it held may outlive it.
      if (hold !== undefined) await this.#releaseNow(hold);
      throw refused;
    }
    const charge = new Charge(this, context, paid, this.#now(), hold);
    this.#charges.add(charge);
    if (hold !== undefined && this.#renewal === undefined) {
      this.#renewal = setInterval(() => this.#renewHolds(), BUDGET_HOLD_TTL_MS / 3);
      this.#renewal.unref?.();
    }
    return charge;
  }

  #steps(context: SpendContext, needed: number, held: (token: string) => void): SpendingBooks {
    const { guildId, userId } = context;
    const now = this.#now();
    const mine = (c: Charge) => c.context.guildId === guildId && c.context.userId === userId;
    return {
      now,
      month: this.month,
      log: this.#log,
      // A taking back the store refused would make one over-count: tried again too.
      written: async () => this.#ledger.unwritten + this.#ledger.unfinished === 0 || (await this.#ledger.flush()),
      facts: async () => {
        const [limits, lastSpend] = await Promise.all([
          this.budgetsFor(guildId),
          this.#store.spends.lastSpendAt(guildId, userId, now),
        ]);
        const pending = [...this.#charges].filter((c) => mine(c) && c.reserved > 0).map((c) => c.createdAt);
        return { limits, botMonthly: this.#botMonthly, last: lastSpend ? [lastSpend, ...pending] : pending };
      },
      hold: async (limits, refuses) => {
        const at = { at: now, ttlMs: BUDGET_HOLD_TTL_MS, owner: this.#owner };
        const result = await this.#store.budgets.hold({ guildId, userId, characters: needed, limits, refuses, ...at });
        if (result.status === 'refused') return result;
        held(result.token);
      },
      refuse: (refusal) => {
        this.#log.info({ ...context, code: refusal.reason.code, needed }, 'request refused by a budget');
        throw refusal;
      },
    };
  }

  async #releaseNow(token: string): Promise<void> {
    await this.#store.budgets
      .release(token)
      .catch((error: unknown) =>
        this.#log.error({ err: error }, 'could not release a budget hold; it expires by itself'),
      );
  }

  /** Queued with the checks, so a check after a request ended never counts its hold; a stuck one expires. */
  releaseHold(token: string, guildId: string): void {
    void this.#inGuildOrder(guildId, () => this.#releaseNow(token));
  }

  /** A charge checked against no budget (a clone's follow-up request; a free voice's lines in place): recorded all the same. */
  unchecked(context: SpendContext): Charge {
    const charge = new Charge(this, context, [], this.#now());
    // Known while it lives, so a deletion on request meanwhile reaches it (it holds nothing, so no cooldown either).
    this.#charges.add(charge);
    return charge;
  }

  /** The charge is over: it no longer counts for its member's cooldown. */
  closed(charge: Charge): void {
    this.#charges.delete(charge);
  }

  /** Waits for the spends being written (shutdown). */
  drained(): Promise<void> {
    return this.#ledger.drained();
  }

  /** One part's spend or saving under `charge` (Charge.record). Never throws. */
  async record(charge: Charge, spend: PartSpend): Promise<void> {
    await this.#ledger
      .track(this.#record(charge, spend))
      .catch((error: unknown) => this.#log.error({ err: error, ...charge.context }, 'could not record a spend'));
  }

  /** Never throws: a write the store refuses is kept to write again, and while any is kept nothing more is spent
   * (#authorize); a paid spend ends a used-up month. */
  async #record(charge: Charge, spend: PartSpend): Promise<void> {
    const { cached, undelivered, requestId, usage: service } = spend;
    const row = { ...this.#spendOf(charge, spend), cached, undelivered, requestId, service, token: randomUUID() };
    this.#ledger.count(row);
    // Behind those kept, in order: written by the flush after them.
    if (this.#ledger.unwritten > 0) {
      this.#keep(row);
      await this.#ledger.flush();
    } else
      await this.#ledger.writeAhead(row).catch((error: unknown) => {
        this.#keep(row);
        this.#log.error(
          { code: 'spend-not-recorded', err: error, guildId: row.guildId, characters: row.characters },
          'could not record a spend in the store: it is kept in memory, and requests that would spend characters are refused until the store accepts writes again',
        );
      });
    if (!cached) await this.month.clear('the service took a request');
  }

  // Kept to write again, in order; past MAX_KEPT a saving (a cache hit's tally) is not, a paid spend always is (spending
  // is refused while any is kept, so only those under way add to them).
  #keep(row: Parameters<SpendLedger['keep']>[0]): void {
    if (this.#ledger.unwritten === 0) this.#droppedSavings = false;
    if (!row.cached || this.#ledger.unwritten < MAX_KEPT) return this.#ledger.keep(row);
    if (!this.#droppedSavings)
      this.#log.warn(
        { code: 'savings-not-recorded' },
        'the store still refuses writes: cache hits are no longer tallied',
      );
    this.#droppedSavings = true;
  }

  /** A part's spend under its charge's context (without its member, if forgotten meanwhile). */
  #spendOf({ context, forgotten }: Charge, { endpoint, characters }: PartSpend) {
    return { at: this.#now(), ...context, ...(forgotten === undefined ? {} : { forgotten }), endpoint, characters };
  }

  /** Whether the month refuses `characters` as they leave (the rules' monthRefusal): such a part only finds out. */
  async monthRefuses(characters: number): Promise<boolean> {
    return (await this.#rules.monthRefusal(this.month, characters)) !== undefined;
  }

  /** The month's probe as a paid part leaves (the rules' probeFor), by the store's deadline; refused: not sent. */
  monthProbe(charge: Charge, characters: number): Promise<string | undefined> {
    const giveBack = (probe?: string) => probe && this.giveProbeBack(probe, charge.context.guildId);
    const probe = this.#rules.probeFor(this.month, this.#log, characters, charge);
    return this.#beforeSending<string | undefined>(charge, characters, probe, giveBack);
  }

  /** Written ahead before it is sent, its characters spent from now on and out of its charge's hold in the same
   * transaction, unconfirmed; finished later or by the next start's recover(). Thrown: not sent, and what may have
   * been written all the same (its answer lost, or late) is taken back by its token before anyone is told. */
  async writeAhead(charge: Charge, spend: PartSpend): Promise<LedgerEntry> {
    const owned = { owner: this.#owner, hold: charge.hold, unconfirmed: true, token: randomUUID() };
    const ahead = { ...this.#spendOf(charge, spend), cached: false, ...owned };
    const takeBack = () => this.#answered('take-back', { spend: ahead }, this.#ledger.erase({ spend: ahead }));
    const written = this.#ledger.writeAhead(ahead);
    const entry = await this.#ledger.track(this.#beforeSending(charge, spend.characters, written, takeBack));
    charge.count('written', entry.spend.characters);
    return entry;
  }

  /** The probe to find out whether the month is back, answered or never sent: the next request may take it. Queued
   * with the checks, as a hold's release is. */
  giveProbeBack(probe: string, guildId: string): void {
    this.releaseHold(probe, guildId);
  }

  /** The service took (and charged) a request written ahead: confirmed, once. Never throws. */
  async confirm(charge: Charge, entry: LedgerEntry, answer: OkAnswer): Promise<void> {
    if (entry.answer !== undefined) return;
    charge.count('paid', entry.spend.characters);
    await this.#answered('confirm', entry, this.#confirm(entry, answer));
  }

  /** A definite "not charged": the spend written ahead is taken back, unless answered or finished. Never throws. */
  async takeBack(charge: Charge, entry: LedgerEntry): Promise<void> {
    if (entry.answer !== undefined || entry.outcome !== undefined) return;
    charge.count('written', -entry.spend.characters);
    await this.#answered('take-back', entry, this.#ledger.erase(entry));
  }

  /**
   * A call sent that ended without the service's 2xx and may have been charged (reset, timeout, closed as nobody
   * waited, `letGo`): left spent, undelivered. Never throws.
   */
  leaveSpent(charge: Charge, entry: LedgerEntry, letGo: boolean): Promise<void> {
    if (!finishable(entry)) return Promise.resolve();
    const { endpoint, characters } = entry.spend;
    const closed = letGo ? { closed: 'nobody-waits' } : {};
    this.#log.warn(
      { code: 'api-unconfirmed', ...charge.context, endpoint, characters, ...closed },
      letGo
        ? 'sent to the Voice API and closed before its answer, as nobody waited for it any more: counted as spent, since it may have been charged'
        : 'sent to the Voice API and no answer came: counted as spent, since it may have been charged',
    );
    return this.#answered('finish', entry, this.#ledger.finish(entry, 'undelivered'));
  }

  /** A confirmed request's audio (or voice ID) arrived, or never will: finished once. Never throws. */
  finish(charge: Charge, entry: LedgerEntry, outcome: SpendOutcome, error?: unknown): Promise<void> {
    if (!finishable(entry)) return Promise.resolve();
    if (outcome === 'delivered') charge.count('delivered', entry.spend.characters);
    if (outcome === 'undelivered') {
      const { endpoint, characters } = entry.spend;
      const requestId = typeof entry.answer === 'object' ? entry.answer.confirmed.requestId : undefined;
      const failure = error instanceof Error ? error.name : undefined;
      this.#log.warn(
        { code: 'api-undelivered', ...charge.context, endpoint, characters, requestId, error: failure },
        'charged by the Voice API but not delivered: recorded as spent',
      );
    }
    return this.#answered('finish', entry, this.#ledger.finish(entry, outcome));
  }

  // A write changing no count waits no longer than the checks: past that its spend counts as written ahead (spent).
  #answered(step: 'confirm' | 'finish' | 'take-back', entry: LedgerEntry, write: Promise<void>): Promise<void> {
    const { guildId, characters } = entry.spend;
    const late = () =>
      this.#log.warn(
        { code: 'books-write-late', step, guildId, characters, deadlineMs: this.#deadlineMs },
        'the store did not answer in time: the request goes on, its spend stays counted as written ahead',
      );
    return this.#ledger.track(byDeadline(write, this.#deadlineMs, late));
  }

  // A step before a paid part is sent, by the store's deadline: refused, failed or late, it is not sent; what the
  // step may have done all the same (a probe taken, a row written) is undone (`undo`), before its failure is told, or
  // once its late answer comes: until then it counts, never fewer.
  async #beforeSending<T>(
    charge: Charge,
    characters: number,
    work: Promise<T>,
    undo: (late?: T) => unknown,
  ): Promise<T> {
    const { context } = charge;
    const late = Symbol('late');
    try {
      const done = await byDeadline<T | typeof late>(work, this.#deadlineMs, () => late);
      if (done !== late) return done;
    } catch (error) {
      await undo();
      if (error instanceof Refusal) throw error;
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: context.guildId, characters },
        'could not write down a paid request before sending it: not sent',
      );
      throw storeTimedOut(error)
        ? storageUnavailable(error)
        : new Refusal({ code: 'spends-unrecorded' }, { level: 'warn', cause: error });
    }
    this.#log.warn(
      { code: 'storage-unavailable', ...context, characters, deadlineMs: this.#deadlineMs },
      'the store did not write down a paid request in time: not sent',
    );
    void work.then(undo, () => undo());
    throw storageUnavailable();
  }

  /** The service took a request written ahead (its 2xx): confirmed; its 2xx ends a used-up month. */
  async #confirm(entry: LedgerEntry, answer: OkAnswer): Promise<void> {
    const { usage, requestId } = answer;
    await this.#ledger.confirm(entry, { requestId, service: usage, at: this.#now() });
    await this.month.clear('the service took a request');
  }

  /** /usage's figures (src/core/quota/ledger.ts `usageReport`), a month's mark whose reset date passed cleared first. */
  async report(guildId: string, userId: string) {
    const at = this.#now();
    const [mark, limits] = await Promise.all([this.#rules.standingMark(this.month), this.budgetsFor(guildId)]);
    const [planLimit, botBudget] = [this.#planLimit, this.#botMonthly];
    return usageReport(this.#store, { guildId, userId, at, mark, limits, planLimit, botBudget });
  }
}

type OkAnswer = Pick<ServiceAnswer, 'requestId' | 'usage'>;

/** Finished once, never once taken back, and only a spend written ahead (a saving has no answer to wait for). */
const finishable = (entry: LedgerEntry) =>
  entry.outcome === undefined && entry.answer !== 'taken-back' && entry.spend.owner !== undefined;

/** One part of a request as the budget sees it; `free`: costs no characters (cached, in flight, handed in whole, a free voice). */
export interface PartNeed {
  text: string;
  /** What its charge reserves it under: its audio's key (partCacheKey: its voice, text and sent settings); a clone's text. */
  key: string;
  endpoint: SpendEndpoint;
  characters: number;
  free: boolean;
}
/** Its characters held from its budget check until recorded: two requests cannot both pass a budget for one. */
export class Charge {
  readonly context: SpendContext;
  /** When its budgets were checked: while it may still spend, a cooldown counts from here. */
  readonly createdAt: Date;
  /** The books that made it: what it holds is given back there. */
  readonly #books: Accounting;
  /** Characters still reserved, per part's key (PartNeed.key: a part may occur twice in one request). */
  readonly #reserved = new Map<string, number[]>();
  /** The store's hold on its characters (seen by every process), until nothing more is reserved. */
  #hold: string | undefined;
  #forgotten: 'member' | 'guild' | undefined;
  readonly #figures = { written: 0, paid: 0, delivered: 0 };
  /** The order's charge a part paid late on this one belongs to: what it pays counts there too. */
  #order: Charge | undefined;

  constructor(
    books: Accounting,
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

  /** A part served without a call (the cache, or another request's fetch): its characters saved once its audio came
   * `whole`, nothing saved of one that broke. Never throws. */
  async saved({ key, text }: { key: string; text: string }, endpoint: SpendEndpoint, whole?: Promise<unknown>) {
    if (await whole?.then(() => false).catch(() => true)) return this.release(key);
    return this.record(key, { endpoint, characters: countCharacters(text), cached: true });
  }

  /** Characters the service charged (its 2xx) so far: a later failure is not "nothing done" (money.ts, paid part-way). */
  get paid(): number {
    return this.#figures.paid;
  }

  /** Characters of `paid` whose audio (or voice ID) came whole. */
  get delivered(): number {
    return this.#figures.delivered;
  }

  /** Characters counted as spent: `paid`, and those sent with no answer (maybe charged: a stop words them so). */
  get written(): number {
    return this.#figures.written;
  }

  /** Characters a step moved: written ahead (`written`; taken back, less), confirmed (`paid`), `delivered`; a late
   * part's its order's too. */
  count(figure: 'written' | 'paid' | 'delivered', characters: number): void {
    this.#figures[figure] += characters;
    this.#order?.count(figure, characters);
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
