// The books: whether a request may spend, and what it spent. The budgets are pure rules (how many characters a
// server may spend a month, a member a day, and how often a member may spend); Accounting feeds them the store's
// figures, holds what a request will spend, keeps the used-up month, and writes every spend (charge.ts).
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
import { knownTooFew, serviceCount } from './service-figures.ts';
import { UsedUpMonth, type CurrentAccount, type Probe } from './used-up-month.ts';

// Budgets: pure rules, no storage; Accounting below feeds them the figures.
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

/**
 * Whether a server may set `name` to `value`: a server lowers the operator's limits, never raises them (or
 * lifts them: 0 clears the server's own value, which leaves the operator's in force).
 */
export function serverValueAllowed(operator: OperatorBudgets, name: BudgetName, value: number): boolean {
  return value === 0 || operator[name] === 0 || value <= operator[name];
}

/**
 * The budgets a request is checked against: without the member cooldown for one that does not wait it out (its
 * front-end says so, e.g. auto-read); the day and month budgets apply to every request. Its spends still count as
 * the member's last spend, so a /say right after it waits out the cooldown as after any paid request.
 */
export function budgetsForRequest(limits: OperatorBudgets, policy: { memberCooldown: boolean }): OperatorBudgets {
  return policy.memberCooldown ? limits : { ...limits, memberCooldownSeconds: 0 };
}

/** What has been spent so far (reservations of requests still under way included). */
export interface BudgetUsage {
  guildMonthChars: number;
  memberDayChars: number;
  /** When the member last sent a request that spent characters, if ever. */
  memberLastSpendAt?: Date;
}

export type BudgetRefusal =
  /** botMonthlyChars: the whole bot's month (every server and user install), the operator's alone. */
  | {
      budget: 'guildMonthlyChars' | 'memberDailyChars' | 'botMonthlyChars';
      limit: number;
      used: number;
      needed: number;
      resetAt: Date;
    }
  | { budget: 'memberCooldownSeconds'; limit: number; waitSeconds: number };

/**
 * The first budget `needed` more characters would break, or undefined. Only requests that spend characters are
 * checked at all: a cache hit spends none, so it counts against no budget and neither waits for nor starts a
 * cooldown.
 */
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

/** One part of a request as the budget sees it: its characters, and whether it will be free (cached or in flight). */
export interface PartNeed {
  text: string;
  endpoint: SpendEndpoint;
  characters: number;
  free: boolean;
}

/**
 * How long a budget hold outlives a process that died holding it. A live request renews its hold every third of
 * this (however long its queue), so only a crash leaves a hold to expire, blocking its characters until then.
 */
export const BUDGET_HOLD_TTL_MS = 15 * 60_000;

/** How long a request may wait on the store (its guild's turn included) before it is refused, by default. */
export const STORE_DEADLINE_MS = 5000;

/** Errors by which PostgreSQL (or the pool) gave up waiting: the store is unavailable, not the request wrong. */
function storeTimedOut(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // 55P03 lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout), 25P03 idle in transaction.
  return (
    code === '55P03' ||
    code === '57014' ||
    code === '25P03' ||
    /timeout exceeded when trying to connect|Query read timeout|Connection terminated/i.test(error.message)
  );
}

/**
 * `work`'s answer, or `late()`'s once `work` has waited `ms` on the store: no request waits on a hung store longer
 * than that, whatever the store does. `work` itself goes on; what its late answer leaves is the caller's to undo.
 */
function byDeadline<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Unref'd: a deadline alone never keeps the process up.
    const timer = setTimeout(() => resolve(Promise.resolve().then(late)), ms);
    timer.unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const storageUnavailable = (cause?: unknown) =>
  new Refusal({ code: 'storage-unavailable' }, { level: 'warn', ...(cause === undefined ? {} : { cause }) });

export interface AccountingOptions {
  store: Store;
  budgets: OperatorBudgets;
  /**
   * The most the whole bot spends in a month, every guild together (BUDGET_BOT_MONTHLY_CHARS); 0 or absent: no limit.
   */
  botMonthlyChars?: number;
  /** The plan's monthly characters (VOICE_API_PLAN), used until the service reports its own figures. */
  planCharacterLimit: number;
  logger: Logger;
  /** The clock (tests move it past a reset date). */
  now?: (() => Date) | undefined;
  /** The API key's fingerprint and the plan: a start under another one clears a used-up month. */
  account?: CurrentAccount;
  /** Counts characters spent and saved as they are recorded. */
  metrics?: Pick<Metrics, 'characters'> | undefined;
  /** How long a request may wait on the store before it is refused (STORE_DEADLINE_MS by default). */
  storeDeadlineMs?: number;
  /**
   * Who this process is on the books: the same at every start of the same process (application and shard), so a
   * start settles what the one before it left (recover()). Absent: a name of this instance's own, which no later
   * start settles (its holds expire, its accepted spends stay spent).
   */
  owner?: string;
}

export interface UsageReport {
  month: string;
  /** When it was made, by the accounting's clock (what a picture of it is kept by: /usage's chart). */
  at: Date;
  /** When the monthly quota starts over: the service's date when it sent one, else the 1st of next month, UTC. */
  resetAt: Date;
  /** Set while the month is marked used up (a 429): requests that would spend are refused until then. */
  exhaustedUntil?: Date | undefined;
  guild: { spent: number; saved: number; budget: number };
  /** The whole bot's own monthly budget (0: none) against what SayBot spent this month (`bot.spent`). */
  botBudget: number;
  bot: {
    /**
     * The service's own count when it sent one this month (it includes use outside SayBot), else SayBot's; the whole
     * limit while the month is marked used up and the service's figures do not say so themselves.
     */
    used: number;
    /** `used` and `remaining` are the service's own figures (from its last answer that carried them, 2xx or not). */
    fromService: boolean;
    /** When the service's figures arrived (with `fromService`). */
    countedAt?: Date;
    /** What SayBot itself sent this month. */
    spent: number;
    saved: number;
    limit: number;
    remaining: number;
  };
  member: { spentToday: number; budget: number; resetAt: Date; cooldownSeconds: number };
}

/** A refused budget as a Refusal: which budget, and when it starts over. */
function budgetRefusal(refusal: BudgetRefusal): Refusal {
  switch (refusal.budget) {
    case 'memberCooldownSeconds':
      return new Refusal({ code: 'budget-cooldown', waitSeconds: refusal.waitSeconds, limit: refusal.limit });
    case 'memberDailyChars':
      return new Refusal({
        code: 'budget-member-day',
        limit: refusal.limit,
        used: refusal.used,
        needed: refusal.needed,
        resetAt: refusal.resetAt,
      });
    case 'guildMonthlyChars':
      return new Refusal({
        code: 'budget-guild-month',
        limit: refusal.limit,
        used: refusal.used,
        needed: refusal.needed,
        resetAt: refusal.resetAt,
      });
    case 'botMonthlyChars':
      return new Refusal({
        code: 'budget-bot-month',
        limit: refusal.limit,
        used: refusal.used,
        needed: refusal.needed,
        resetAt: refusal.resetAt,
      });
  }
}

/**
 * The bot's books: checks a request against the monthly quota and the budgets before anything is sent, records
 * every spend and saving, remembers a used-up month, and answers /usage.
 */
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
  /**
   * Per guild, checks (and hold releases) run one at a time, in order, so each sees the requests before it; guilds
   * never wait for each other (a guild whose store lock is stuck stalls only itself, and is refused at the
   * deadline). An entry lives while its guild has work queued.
   */
  readonly #turns = new Map<string, Promise<unknown>>();
  readonly #deadlineMs: number;
  /** This process on the books: its holds and the spends it is still reading are written under it. */
  readonly #owner: string;
  /** Renews the holds of this process's live requests while there are any. */
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
   * Settles what this process's predecessor (the same owner) left when it died, before this one holds or spends
   * anything: its spends written ahead stay spent, marked undelivered (those the service accepted, and those still
   * in flight, which the service may have charged: never fewer characters than it charged, at most theirs more);
   * the holds of its requests, which now hold only characters never sent, are released. Nothing is counted twice or
   * dropped: a part's characters left its hold in the transaction that wrote its spend, before it was sent.
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

  /** Runs `work` after the guild's earlier work; the guild's entry goes once its queue is empty. */
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

  /** The budgets in force in a guild: the operator's, lowered where the server set its own. */
  async budgetsFor(guildId: string): Promise<OperatorBudgets> {
    return effectiveBudgets(this.#operator, await this.#store.budgets.get(guildId));
  }

  /**
   * Refuses (Refusal) a request the month or a budget cannot take, before any API call; otherwise holds its
   * characters until its parts are recorded. Parts that will be free (cached, or already in flight) cost nothing,
   * so a request made only of them is never refused, even in a used-up month. The member cooldown holds unless its
   * policy says the request does not wait it out.
   */
  authorize(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean } = { memberCooldown: true },
  ): Promise<Charge> {
    return this.#authorizeBy(context, parts, policy);
  }

  /**
   * A part `charge` counted free at acceptance (cached or in flight) that must be fetched after all (evicted, or
   * its flight failed): checked against the budgets and the month now, as a request of its own but without the
   * cooldown (the request it belongs to already passed it). Returns the charge to record it with and close.
   */
  async authorizeLate(charge: Charge, part: PartNeed): Promise<Charge> {
    const late = await this.#authorizeBy(charge.context, [{ ...part, free: false }], { memberCooldown: false });
    if (charge.forgotten !== undefined) late.anonymise(charge.forgotten);
    return late;
  }

  /**
   * A member (or, without `userId`, a whole guild; without `guildId`, the member everywhere) asked to be forgotten:
   * this process's requests of theirs still under way, and spends of theirs waiting to be written, are recorded
   * without their ID from now on. Their holds keep counting, under the period's pseudonym (store.privacy).
   */
  /** The members with requests under way or spends waiting to be written here, in one guild or every one. */
  *requestingMembers(guildId?: string): Generator<string> {
    for (const { context } of this.#charges)
      if (guildId === undefined || context.guildId === guildId) yield context.userId;
    yield* this.#ledger.members(guildId);
  }

  anonymiseRequests(guildId: string | undefined, userId?: string): void {
    const scope = userId === undefined ? 'guild' : 'member';
    const theirs = (c: { guildId: string; userId: string }) =>
      (guildId === undefined || c.guildId === guildId) && (userId === undefined || c.userId === userId);
    for (const charge of this.#charges) if (theirs(charge.context)) charge.anonymise(scope);
    this.#ledger.anonymise(theirs, scope);
  }

  /**
   * The check in the guild's turn, refused as "storage unavailable" once it has waited on the store (its turn
   * included) past the deadline. The work itself stays the guild's turn until the store answers, and what it
   * held by then is let go before the guild's next check, so a late answer never leaves a hold behind.
   */
  #authorizeBy(
    context: SpendContext,
    parts: readonly PartNeed[],
    policy: { memberCooldown: boolean },
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
      // A request of theirs that may still spend counts as their last spend (its record comes when the service
      // answers). Held in this process only: a guild's interactions all reach the one shard that holds it.
      const pending = [...this.#charges].filter((c) => mine(c) && c.reserved > 0).map((c) => c.createdAt);
      const last = [lastSpend, ...pending]
        .filter((d): d is Date => d !== undefined)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      // A request that does not wait out the cooldown (its policy) has none here; the day and month budgets hold all
      // the same.
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
        probe = await this.#month.admit();
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

  /**
   * Holds `needed` characters in the store against the guild's, the member's and the whole bot's character budgets,
   * or throws the budget's refusal. No budget on characters: nothing to hold against, so no write.
   */
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

  /**
   * Ends a store hold. Queued with the checks, so a check made after a request ended never counts its hold;
   * a hold that cannot be removed expires (BUDGET_HOLD_TTL_MS).
   */
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

  /** What the charges this makes may ask of it, and nothing more. */
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

  /**
   * Records a spend or a saving. Never throws for a store that refuses the write: the spend is kept until the
   * store takes it (SpendLedger), and spending stops meanwhile. A spend the service accepted ends a used-up month.
   */
  async record(context: SpendContext, spend: PartSpend, forgotten?: 'member' | 'guild'): Promise<void> {
    await this.#write(context, spend, forgotten);
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
      // A part the service said, lately, it has too few characters left for: told, not sent (service-figures.ts).
      // Not for a probe: it goes out to find out.
      const tooFew =
        probe === undefined
          ? knownTooFew((await this.#store.quota.get()).service, spend.characters, this.#now())
          : undefined;
      if (tooFew !== undefined) {
        this.#log.info(
          { code: 'quota-too-few-left', ...context, left: tooFew.left, needed: spend.characters, figuresAt: tooFew.at },
          "not sent: the service's fresh figures leave too few characters for this part",
        );
        throw new Refusal(
          {
            code: 'quota-too-few-left',
            left: tooFew.left,
            needed: spend.characters,
            resetAt: tooFew.resetAt ?? nextMonthStart(this.#now()),
          },
          { level: 'warn' },
        );
      }
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

  /**
   * A write of the books that changes no count (a request's acceptance, its settlement, or its release, which only
   * lowers one) waits on the store no longer than the request's checks did: past that, the request goes on without
   * it, its spend counted as written ahead (spent) until the store answers, or the next start settles it.
   */
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
    await this.#month
      .accepted()
      .catch((error: unknown) => this.#log.error({ err: error }, 'could not clear the used-up month'));
  }

  async #write(context: SpendContext, spend: PartSpend, forgotten: 'member' | 'guild' | undefined): Promise<void> {
    const usage = spend.usage;
    await this.#ledger.write({
      at: this.#now(),
      ...context,
      ...(forgotten === undefined ? {} : { forgotten }),
      endpoint: spend.endpoint,
      characters: spend.characters,
      cached: spend.cached,
      ...(spend.undelivered === true ? { undelivered: true } : {}),
      requestId: spend.requestId,
      service: usage,
    });
    if (!spend.cached)
      await this.#month
        .accepted()
        .catch((error: unknown) => this.#log.error({ err: error }, 'could not clear the used-up month'));
  }

  /** Any answer of the service that carried its usage figures (errors too): they may show the quota is back. */
  async observeUsage(usage: UsageInfo | undefined): Promise<void> {
    await this.#month
      .observe(usage)
      .catch((error: unknown) => this.#log.error({ err: error }, 'could not clear the used-up month'));
  }

  /**
   * The usage figures of an answer the service refused with (its 429, its 400), proven its own: kept as a 2xx's are,
   * dated now, so /usage and the dashboard tell the month as the service counts it (the key may be used elsewhere).
   */
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
    // The service's count stands beside the used-up mark only when it agrees (nothing left): figures from before the
    // mark (its 429 sent none) are not told as what is left.
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
