// The books: whether a request may spend, and what it spent. The budgets are pure rules; Accounting feeds them the
// store's figures, holds what a request will spend, keeps the used-up month, and writes every spend (charge.ts).
import { randomUUID } from 'node:crypto';
import type { QuotaExceededError, UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Refusal } from '../refusal.ts';
import type { BudgetHoldLimits, SpendEndpoint, SpendsLeft } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import { monthOf, nextDayStart, nextMonthStart } from './calendar.ts';
import {
  Charge,
  SpendLedger,
  type AcceptedAnswer,
  type ChargeBooks,
  type LedgerEntry,
  type PartSpend,
  type SpendContext,
} from './charge.ts';
import { serviceCount } from './service-figures.ts';
import { UsedUpMonth, type CurrentAccount, type Probe } from './used-up-month.ts';

export type BudgetName = 'guildMonthlyChars' | 'memberDailyChars' | 'memberCooldownSeconds';
export const BUDGET_NAMES: readonly BudgetName[] = ['guildMonthlyChars', 'memberDailyChars', 'memberCooldownSeconds'];

/** One value per budget; 0 means no limit. */
export type OperatorBudgets = Record<BudgetName, number>;
/** A server's own limits: only those it set (each at most the operator's). */
export type ServerBudgets = Partial<Record<BudgetName, number>>;

/** The limits that apply in a server: the lower of the operator's and the server's, where either is set. */
export function effectiveBudgets(operator: OperatorBudgets, server: ServerBudgets): OperatorBudgets {
  const out = { ...operator };
  for (const name of BUDGET_NAMES) {
    const own = server[name];
    if (own !== undefined && own > 0) out[name] = operator[name] > 0 ? Math.min(operator[name], own) : own;
  }
  return out;
}

/** A server lowers the operator's limits, never raises them (0 clears its own, leaving the operator's). */
export function serverValueAllowed(operator: OperatorBudgets, name: BudgetName, value: number): boolean {
  return value === 0 || operator[name] === 0 || value <= operator[name];
}

/** Without the cooldown for a request that does not wait it out (auto-read); its spends still count as the last. */
export function budgetsForRequest(limits: OperatorBudgets, policy: { memberCooldown: boolean }): OperatorBudgets {
  return policy.memberCooldown ? limits : { ...limits, memberCooldownSeconds: 0 };
}

interface BudgetUsage {
  guildMonthChars: number;
  memberDayChars: number;
  memberLastSpendAt?: Date;
}

type BudgetRefusal =
  /** botMonthlyChars: the whole bot's month (every server and user install), the operator's alone. */
  | {
      budget: 'guildMonthlyChars' | 'memberDailyChars' | 'botMonthlyChars';
      limit: number;
      used: number;
      needed: number;
      resetAt: Date;
    }
  | { budget: 'memberCooldownSeconds'; limit: number; waitSeconds: number };

/** The first budget `needed` more characters would break; a request spending nothing passes every one. */
export function checkBudgets(
  limits: OperatorBudgets,
  usage: BudgetUsage,
  needed: number,
  now: Date,
): BudgetRefusal | undefined {
  if (needed <= 0) return undefined;
  const cooldown = limits.memberCooldownSeconds;
  if (cooldown > 0 && usage.memberLastSpendAt !== undefined) {
    const waitMs = usage.memberLastSpendAt.getTime() + cooldown * 1000 - now.getTime();
    if (waitMs > 0) return { budget: 'memberCooldownSeconds', limit: cooldown, waitSeconds: Math.ceil(waitMs / 1000) };
  }
  const daily = limits.memberDailyChars;
  if (daily > 0 && usage.memberDayChars + needed > daily) {
    return { budget: 'memberDailyChars', limit: daily, used: usage.memberDayChars, needed, resetAt: nextDayStart(now) };
  }
  const monthly = limits.guildMonthlyChars;
  if (monthly > 0 && usage.guildMonthChars + needed > monthly) {
    return {
      budget: 'guildMonthlyChars',
      limit: monthly,
      used: usage.guildMonthChars,
      needed,
      resetAt: nextMonthStart(now),
    };
  }
  return undefined;
}

const NO_USAGE: BudgetUsage = { guildMonthChars: 0, memberDayChars: 0 };

/** One part of a request as the budget sees it; `free`: cached or in flight. */
export interface PartNeed {
  text: string;
  endpoint: SpendEndpoint;
  characters: number;
  free: boolean;
}

/** How long a dead process's hold lasts; a live request renews its hold every third of this. */
export const BUDGET_HOLD_TTL_MS = 15 * 60_000;

/** How long a request may wait on the store (its guild's turn included) before it is refused. */
export const STORE_DEADLINE_MS = 5000;

/** Errors by which PostgreSQL (or the pool) gave up waiting: the store is unavailable, not the request wrong. */
function storeTimedOut(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // 55P03 lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout), 25P03 idle in transaction.
  if (['55P03', '57014', '25P03'].includes(String((error as { code?: unknown }).code))) return true;
  return /timeout exceeded when trying to connect|Query read timeout|Connection terminated/i.test(error.message);
}

/** `work`'s answer, or `late()`'s after `ms`; `work` goes on, and what its late answer leaves is the caller's. */
function byDeadline<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    // Unref'd: a deadline alone never keeps the process up.
    timer = setTimeout(() => resolve(Promise.resolve().then(late)), ms).unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const storageUnavailable = (cause?: unknown) =>
  new Refusal({ code: 'storage-unavailable' }, { level: 'warn', ...(cause === undefined ? {} : { cause }) });

export interface AccountingOptions {
  store: Store;
  budgets: OperatorBudgets;
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
  /** This process on the books, the same at every start, so a start settles what the last left (recover()). */
  owner?: string;
}

export interface UsageReport {
  month: string;
  at: Date;
  /** The service's reset date when it sent one, else the 1st of next month, UTC. */
  resetAt: Date;
  /** Set while the month is marked used up (a 429): requests that would spend are refused until then. */
  exhaustedUntil?: Date | undefined;
  guild: { spent: number; saved: number; budget: number };
  /** The whole bot's own monthly budget (0: none) against what SayBot spent this month (`bot.spent`). */
  botBudget: number;
  bot: {
    /** The service's count this month (use outside SayBot included), else SayBot's; all of it while used up. */
    used: number;
    fromService: boolean;
    countedAt?: Date;
    spent: number;
    saved: number;
    limit: number;
    remaining: number;
  };
  member: { spentToday: number; budget: number; resetAt: Date; cooldownSeconds: number };
}

const REFUSAL_CODES = {
  memberDailyChars: 'budget-member-day',
  guildMonthlyChars: 'budget-guild-month',
  botMonthlyChars: 'budget-bot-month',
} as const;

function budgetRefusal(refusal: BudgetRefusal): Refusal {
  if (refusal.budget === 'memberCooldownSeconds')
    return new Refusal({ code: 'budget-cooldown', waitSeconds: refusal.waitSeconds, limit: refusal.limit });
  const { limit, used, needed, resetAt } = refusal;
  return new Refusal({ code: REFUSAL_CODES[refusal.budget], limit, used, needed, resetAt });
}

/** The bot's books: a request checked before anything is sent, every spend and saving recorded, /usage answered. */
export class Accounting {
  readonly #store: Store;
  readonly #operator: OperatorBudgets;
  readonly #botMonthly: number;
  readonly #planLimit: number;
  readonly #log: Logger;
  readonly #now: () => Date;
  /** This process's requests that may still spend (for the cooldown; the characters are held in the store). */
  readonly #charges = new Set<Charge>();
  readonly #month: UsedUpMonth;
  readonly #ledger: SpendLedger;
  /** Per guild, checks and hold releases run in order, each seeing those before; guilds never wait for each other. */
  readonly #turns = new Map<string, Promise<unknown>>();
  readonly #deadlineMs: number;
  readonly #owner: string;
  #renewal: ReturnType<typeof setInterval> | undefined;

  constructor(options: AccountingOptions) {
    this.#store = options.store;
    this.#operator = options.budgets;
    this.#botMonthly = options.botMonthlyChars ?? 0;
    this.#planLimit = options.planCharacterLimit;
    this.#log = options.logger;
    this.#now = options.now ?? (() => new Date());
    this.#month = new UsedUpMonth({ store: this.#store, logger: this.#log, now: this.#now, account: options.account });
    this.#ledger = new SpendLedger(this.#store, this.#log, options.metrics);
    this.#deadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
    this.#owner = options.owner ?? `instance:${randomUUID()}`;
  }

  /**
   * Settles what the last run of this owner left, before anything is held or spent: its spends written ahead stay
   * spent, undelivered (maybe charged: never fewer than charged); its holds, now of characters never sent, go.
   * Nothing counts twice: a part's characters left its hold in the transaction that wrote its spend.
   */
  async recover(): Promise<SpendsLeft & { holds: number }> {
    const spends = await this.#store.spends.settleLeftBy(this.#owner);
    const holds = await this.#store.budgets.releaseLeftBy(this.#owner);
    if (spends.accepted > 0 || spends.inFlight > 0 || holds > 0)
      this.#log.warn(
        { code: 'books-settled-after-crash', ...spends, holds },
        'settled what the previous run left on the books: spends accepted or still in flight as spent (undelivered), its holds released',
      );
    return { ...spends, holds };
  }

  /** Stops renewing holds (shutdown): what is still held then expires as after a crash. */
  close(): void {
    clearInterval(this.#renewal);
    this.#renewal = undefined;
  }

  #inTurn<T>(guildId: string, work: () => Promise<T>): Promise<T> {
    const run = (this.#turns.get(guildId) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.#turns.set(guildId, tail);
    void tail.then(() => {
      if (this.#turns.get(guildId) === tail) this.#turns.delete(guildId);
    });
    return run;
  }

  #renewHolds(): void {
    const tokens = [...this.#charges].map((c) => c.hold).filter((t): t is string => t !== undefined);
    if (tokens.length === 0) {
      this.close();
      return;
    }
    const expiresAt = new Date(this.#now().getTime() + BUDGET_HOLD_TTL_MS);
    this.#store.budgets
      .renew(tokens, expiresAt)
      .catch((error: unknown) => this.#log.error({ err: error, holds: tokens.length }, 'could not renew budget holds'));
  }

  get operatorBudgets(): OperatorBudgets {
    return this.#operator;
  }

  async budgetsFor(guildId: string): Promise<OperatorBudgets> {
    return effectiveBudgets(this.#operator, await this.#store.budgets.get(guildId));
  }

  /** A part counted free at acceptance fetched after all: checked as a request of its own, without the cooldown. */
  async authorizeLate(charge: Charge, part: PartNeed): Promise<Charge> {
    const late = await this.authorize(charge.context, [{ ...part, free: false }], { memberCooldown: false });
    if (charge.forgotten !== undefined) late.anonymise(charge.forgotten);
    return late;
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
   * Refuses (Refusal) a request the month or a budget cannot take, before any call; else holds its characters until
   * its parts are recorded. Free parts (cached, in flight) cost nothing: a request of only those is never refused.
   * Past the store deadline it is refused as "storage unavailable"; the check stays the guild's turn until the store
   * answers, and lets go of what it held then, so a late answer never leaves a hold behind.
   */
  authorize(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean } = { memberCooldown: true },
  ): Promise<Charge> {
    let late = false;
    const work = this.#inTurn(context.guildId, () => this.#authorize(context, parts, policy, () => late));
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
    let probe: Probe | undefined;
    let hold: string | undefined;
    if (needed > 0) {
      const now = this.#now();
      // Spends the store could not take would make every budget under-count: nothing more is spent until they are in.
      if (this.#ledger.failing && !(await this.#ledger.flush()))
        throw new Refusal({ code: 'spends-unrecorded' }, { level: 'warn' });
      const { guildId, userId } = context;
      const [limits, lastSpend] = await Promise.all([
        this.budgetsFor(guildId),
        this.#store.spends.lastSpendAt(guildId, userId, now),
      ]);
      const mine = (c: Charge) => c.context.guildId === guildId && c.context.userId === userId;
      // A request of theirs that may still spend counts as their last spend. In this process only: a guild's
      // interactions all reach its one shard.
      const pending = [...this.#charges].filter((c) => mine(c) && c.reserved > 0).map((c) => c.createdAt);
      const last = [lastSpend, ...pending]
        .filter((d): d is Date => d !== undefined)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      const cooldown = checkBudgets(
        { ...budgetsForRequest(limits, policy), guildMonthlyChars: 0, memberDailyChars: 0 },
        last === undefined ? NO_USAGE : { ...NO_USAGE, memberLastSpendAt: last },
        needed,
        now,
      );
      if (cooldown) this.#refuse(context, cooldown, needed);
      // The characters are checked and held by the store in one transaction, counting every process's holds.
      hold = await this.#holdCharacters(context, limits, needed, now);
      // Last, the used-up month: a request the budgets would refuse anyway must not take the one probe.
      try {
        probe = await this.#month.admit(needed);
      } catch (error) {
        if (hold !== undefined) await this.#releaseNow(hold);
        throw error;
      }
      // Refused at the deadline meanwhile: nothing it held may outlive it (still in the guild's turn).
      if (late()) {
        if (hold !== undefined) await this.#releaseNow(hold);
        const turn = this.#month.settle(probe);
        if (turn !== undefined) await this.#releaseNow(turn);
        throw storageUnavailable();
      }
    }
    const charge = new Charge(this.#books, context, paid, this.#now(), { probe, hold });
    this.#charges.add(charge);
    if (hold !== undefined && this.#renewal === undefined) {
      this.#renewal = setInterval(() => this.#renewHolds(), BUDGET_HOLD_TTL_MS / 3);
      this.#renewal.unref?.();
    }
    return charge;
  }

  async #releaseNow(token: string): Promise<void> {
    await this.#store.budgets
      .release(token)
      .catch((error: unknown) =>
        this.#log.error({ err: error }, 'could not release a budget hold; it expires by itself'),
      );
  }

  /** Holds `needed` characters against the character budgets in the store, or throws the refusal; none: no write. */
  async #holdCharacters(
    context: SpendContext,
    limits: OperatorBudgets,
    needed: number,
    now: Date,
  ): Promise<string | undefined> {
    const checked: BudgetHoldLimits = {
      ...(limits.guildMonthlyChars > 0 ? { guildMonthlyChars: limits.guildMonthlyChars } : {}),
      ...(limits.memberDailyChars > 0 ? { memberDailyChars: limits.memberDailyChars } : {}),
      // Every guild's holds and spends count here, so the bot's month holds however long any queue is.
      ...(this.#botMonthly > 0 ? { botMonthlyChars: this.#botMonthly } : {}),
    };
    if (Object.keys(checked).length === 0) return undefined;
    const held = await this.#store.budgets.hold({
      guildId: context.guildId,
      userId: context.userId,
      characters: needed,
      limits: checked,
      ttlMs: BUDGET_HOLD_TTL_MS,
      at: now,
      owner: this.#owner,
    });
    if (held.status === 'held') return held.token;
    const resetAt = held.budget === 'memberDailyChars' ? nextDayStart(now) : nextMonthStart(now);
    this.#refuse(
      context,
      { budget: held.budget, limit: held.limit, used: held.used, needed: held.needed, resetAt },
      needed,
    );
  }

  #refuse(context: SpendContext, refusal: BudgetRefusal, needed: number): never {
    this.#log.info({ ...context, budget: refusal.budget, needed }, 'request refused by a budget');
    throw budgetRefusal(refusal);
  }

  /** Queued with the checks, so a check after a request ended never counts its hold; a stuck one expires. */
  #releaseHold(token: string, guildId: string): void {
    void this.#inTurn(guildId, () => this.#releaseNow(token));
  }

  /** A charge for spending that was not checked in advance (a clone's follow-up request): recorded all the same. */
  unchecked(context: SpendContext): Charge {
    const charge = new Charge(this.#books, context, [], this.#now());
    // Known while it lives, so a deletion on request meanwhile reaches it (it holds nothing, so no cooldown either).
    this.#charges.add(charge);
    return charge;
  }

  readonly #books: ChargeBooks = {
    record: (context, spend, forgotten) => this.record(context, spend, forgotten),
    sending: (context, spend, forgotten, hold, probe) => this.#sending(context, spend, forgotten, hold, probe),
    accept: (entry, acceptance) => this.#inTime('accept', entry, this.#accept(entry, acceptance)),
    release: (entry) => this.#inTime('release', entry, this.#ledger.release(entry)),
    settle: (entry, outcome) => this.#inTime('settle', entry, this.#ledger.settle(entry, outcome)),
    probeSettled: (probe, guildId) => {
      const turn = this.#month.settle(probe);
      if (turn !== undefined) this.#releaseHold(turn, guildId);
    },
    releaseHold: (token, guildId) => this.#releaseHold(token, guildId),
    closed: (charge) => this.#charges.delete(charge),
  };

  /** Never throws: a refused write is kept (SpendLedger), spending stopped; a paid spend ends a used-up month. */
  async record(context: SpendContext, spend: PartSpend, forgotten?: 'member' | 'guild'): Promise<void> {
    await this.#ledger.write({
      at: this.#now(),
      ...context,
      ...(forgotten === undefined ? {} : { forgotten }),
      endpoint: spend.endpoint,
      characters: spend.characters,
      cached: spend.cached,
      ...(spend.undelivered === true ? { undelivered: true } : {}),
      requestId: spend.requestId,
      service: spend.usage,
    });
    if (!spend.cached) await this.#clearingMonth(this.#month.accepted());
  }

  /**
   * Writes ahead a paid request about to be sent: spent from now on (unconfirmed until the service answers), its
   * characters moved out of `hold` in the same transaction; settled later (SpendLedger) or by the next start's
   * recover(). A store that refuses the write is a refusal: the request is not sent. So is a month marked used up
   * since the request was accepted (another part's 429): the service would refuse it the same way, and while the
   * month is marked only the request `probe` lets through goes out to find out whether it is back.
   */
  async #sending(
    context: SpendContext,
    spend: PartSpend,
    forgotten: 'member' | 'guild' | undefined,
    hold: string | undefined,
    probe: Probe | undefined,
  ): Promise<LedgerEntry> {
    const written = (probe === undefined ? this.#month.current() : Promise.resolve(undefined)).then(async (mark) => {
      if (mark !== undefined)
        throw new Refusal({
          code: 'quota-used-up',
          markedAt: mark.markedAt,
          resetAt: mark.resetAt,
          beforeSending: true,
        });
      // A part the service's last figure leaves too few for: told, not sent, unless it is the request finding out.
      if (probe === undefined) await this.#month.fits(spend.characters);
      return this.#ledger.writeAhead({
        at: this.#now(),
        ...context,
        ...(forgotten === undefined ? {} : { forgotten }),
        endpoint: spend.endpoint,
        characters: spend.characters,
        cached: false,
        owner: this.#owner,
        hold,
        unconfirmed: true,
      });
    });
    try {
      const entry = await byDeadline(written, this.#deadlineMs, () => undefined);
      if (entry !== undefined) return entry;
    } catch (error) {
      if (error instanceof Refusal) throw error;
      this.#log.error(
        { code: 'spend-not-recorded', err: error, guildId: context.guildId, characters: spend.characters },
        'could not write down a paid request before sending it: not sent',
      );
      throw storeTimedOut(error)
        ? storageUnavailable(error)
        : new Refusal({ code: 'spends-unrecorded' }, { level: 'warn', cause: error });
    }
    this.#log.warn(
      { code: 'storage-unavailable', ...context, characters: spend.characters, deadlineMs: this.#deadlineMs },
      'the store did not write down a paid request in time: not sent',
    );
    // Never sent: a row the store writes after all is taken back (until then it counts as spent, never fewer).
    void written.then(
      (entry) => this.#ledger.release(entry),
      () => undefined,
    );
    throw storageUnavailable();
  }

  /** A write changing no count waits no longer than the checks: past that its spend counts as written ahead. */
  #inTime(step: 'accept' | 'settle' | 'release', entry: LedgerEntry, write: Promise<void>): Promise<void> {
    return byDeadline(write, this.#deadlineMs, () => {
      const { guildId, characters } = entry.spend;
      this.#log.warn(
        { code: 'books-write-late', step, guildId, characters, deadlineMs: this.#deadlineMs },
        'the store did not answer in time: the request goes on, its spend stays counted as written ahead',
      );
    });
  }

  /** The service accepted a request written ahead (its 2xx): confirmed; its acceptance ends a used-up month. */
  async #accept(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    const { usage, requestId } = answer;
    await this.#ledger.accept(entry, { requestId, service: usage, at: this.#now() });
    await this.#clearingMonth(this.#month.accepted());
  }

  #clearingMonth(work: Promise<unknown>): Promise<unknown> {
    return work.catch((error: unknown) => this.#log.error({ err: error }, 'could not clear the used-up month'));
  }

  /** Any answer of the service that carried its usage figures (errors too): they may show the quota is back. */
  async observeUsage(usage: UsageInfo | undefined): Promise<void> {
    await this.#clearingMonth(this.#month.observe(usage));
  }

  /** The figures of a refusal proven the service's own, kept as a 2xx's: /usage tells the month as it counts it. */
  async noteServiceFigures(usage: UsageInfo): Promise<void> {
    await this.#store.quota
      .noteService(usage, this.#now())
      .catch((error: unknown) => this.#log.error({ err: error }, "could not keep the service's usage figures"));
  }

  /** A 429 "quota exceeded": the month is marked (see UsedUpMonth); returns when the service says it resets. */
  quotaExceeded(error: QuotaExceededError): Promise<Date> {
    return this.#month.exceeded(error);
  }

  async report(guildId: string, userId: string): Promise<UsageReport> {
    const now = this.#now();
    const month = monthOf(now);
    const mark = await this.#month.current();
    const [guild, bot, member, state, limits] = await Promise.all([
      this.#store.spends.monthTotals(month, guildId),
      this.#store.spends.monthTotals(month),
      // What the daily budget counts (a deletion's carry-over included), not the rows that still name the member.
      this.#store.spends.memberDaySpent(guildId, userId, now),
      this.#store.quota.get(),
      this.budgetsFor(guildId),
    ]);
    const service = state.service?.month === month ? state.service : undefined;
    const counted = serviceCount(service, month, this.#planLimit);
    const exhausted = mark?.resetAt;
    // The service's count stands beside the used-up mark only when it agrees (nothing left).
    const told = counted !== undefined && (mark === undefined || counted.remaining === 0) ? counted : undefined;
    const limit = told?.limit ?? service?.limit ?? this.#planLimit;
    const used = told?.used ?? (mark === undefined ? bot.spent : limit);
    return {
      month,
      at: now,
      resetAt: exhausted ?? service?.resetAt ?? nextMonthStart(now),
      exhaustedUntil: exhausted,
      guild: { spent: guild.spent, saved: guild.saved, budget: limits.guildMonthlyChars },
      botBudget: this.#botMonthly,
      bot: {
        used,
        fromService: told !== undefined,
        ...(told === undefined ? {} : { countedAt: told.at }),
        spent: bot.spent,
        saved: bot.saved,
        limit,
        remaining: exhausted ? 0 : (told?.remaining ?? Math.max(0, limit - used)),
      },
      member: {
        spentToday: member,
        budget: limits.memberDailyChars,
        resetAt: nextDayStart(now),
        cooldownSeconds: limits.memberCooldownSeconds,
      },
    };
  }
}
