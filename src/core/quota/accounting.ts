// Money's books: the budgets, their hold and the checks a paid request passes as it is written ahead (Accounting); each
// paid request's steps on the books (who pays, written ahead, confirmed or taken back, settled: each a method the part
// source's paidCall awaits in turn); /usage's figures. The ledger records them (src/core/quota/ledger.ts: the store's
// deadline, the writes, what a crash left); the month as the service counts it is src/core/quota/used-up-month.ts.
import { randomUUID } from 'node:crypto';
import { QuotaExceededError, type UsageInfo } from '../api/errors.ts';
import { accountRefusalProven } from '../api/response.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Refusal } from '../refusal.ts';
import type { BudgetHoldLimits, SpendEndpoint, SpendOutcome } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import { monthOf, nextDayStart, nextMonthStart } from '../calendar.ts';
import type { Acceptance } from '../api/client.ts';
import { countCharacters } from '../characters.ts';
import { BUDGET_NAMES, type BudgetName, type OperatorBudgets, type ServerBudgets } from '../config.ts';
import {
  Charge,
  STORE_DEADLINE_MS,
  SpendLedger,
  byDeadline,
  storageUnavailable,
  storeTimedOut,
  type LedgerEntry,
  type PartSpend,
  type QuoteAllowance,
  type SpendContext,
} from './ledger.ts';
import { UsedUpMonth, monthAnswer, serviceCount, serviceFiguresOf, type CurrentAccount } from './used-up-month.ts';

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

/**
 * The cooldown's refusal while `cooldownSeconds` (0: none) have not passed since the member's last spend. The day's
 * and the month's characters are the store's to check (Accounting.#holdCharacters), counting every process's holds.
 */
function cooldownRefusal(cooldownSeconds: number, lastSpendAt: Date | undefined, now: Date): BudgetRefusal | undefined {
  if (cooldownSeconds <= 0 || lastSpendAt === undefined) return undefined;
  const waitMs = lastSpendAt.getTime() + cooldownSeconds * 1000 - now.getTime();
  if (waitMs <= 0) return undefined;
  return { budget: 'memberCooldownSeconds', limit: cooldownSeconds, waitSeconds: Math.ceil(waitMs / 1000) };
}

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

/** How long a dead process's hold lasts; a live request renews its hold every third of this. */
export const BUDGET_HOLD_TTL_MS = 15 * 60_000;

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

/** /usage's figures (Accounting.report). */
export type UsageReport = Awaited<ReturnType<Accounting['report']>>;

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
    this.#deadlineMs = options.storeDeadlineMs ?? STORE_DEADLINE_MS;
    this.#ledger = new SpendLedger(this.#store, this.#log, options.metrics, this.#deadlineMs);
    this.#owner = options.owner ?? `instance:${randomUUID()}`;
  }

  /**
   * Settles what the last run of this owner left, before anything is held or spent: its spends written ahead stay
   * spent, undelivered (maybe charged: never fewer than charged); its holds, now of characters never sent, go.
   * Nothing counts twice: a part's characters left its hold in the transaction that wrote its spend.
   */
  recover(): ReturnType<SpendLedger['recover']> {
    return this.#ledger.recover(this.#owner);
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
      // Auto-read does not wait out the cooldown (its policy); its spends still count as the member's last.
      const cooldown = cooldownRefusal(policy.memberCooldown ? limits.memberCooldownSeconds : 0, last, now);
      if (cooldown) this.#refuse(context, cooldown, needed);
      // The characters are checked and held by the store in one transaction, counting every process's holds.
      hold = await this.#holdCharacters(context, limits, needed, now);
      // Last, the used-up month: refused only while another request is on its way to find out (the turn is taken
      // by a request as it leaves, never at acceptance: an order waiting in a queue holds nobody back).
      try {
        await this.#month.admit(needed);
      } catch (error) {
        if (hold !== undefined) await this.#releaseNow(hold);
        throw error;
      }
      // Refused at the deadline meanwhile: nothing it held may outlive it (still in the guild's turn).
      if (late()) {
        if (hold !== undefined) await this.#releaseNow(hold);
        throw storageUnavailable();
      }
    }
    const charge = new Charge(this, context, paid, this.#now(), hold);
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
   * Holds `needed` characters against the character budgets in the store, or throws the refusal; none: no write. The
   * budget rule: the limits in force, in this order, and the first one the characters would pass refuses them; the
   * store sums every process's spends and holds for each in the hold's one locked transaction.
   */
  async #holdCharacters(
    context: SpendContext,
    limits: OperatorBudgets,
    needed: number,
    now: Date,
  ): Promise<string | undefined> {
    const checked: BudgetHoldLimits = {
      ...(limits.memberDailyChars > 0 ? { memberDailyChars: limits.memberDailyChars } : {}),
      ...(limits.guildMonthlyChars > 0 ? { guildMonthlyChars: limits.guildMonthlyChars } : {}),
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
    this.#refuse(context, { ...held, resetAt }, needed);
  }

  #refuse(context: SpendContext, refusal: BudgetRefusal, needed: number): never {
    this.#log.info({ ...context, budget: refusal.budget, needed }, 'request refused by a budget');
    throw budgetRefusal(refusal);
  }

  /** Queued with the checks, so a check after a request ended never counts its hold; a stuck one expires. */
  releaseHold(token: string, guildId: string): void {
    void this.#inTurn(guildId, () => this.#releaseNow(token));
  }

  /**
   * Whether a paid request of `characters` would go out only as the one finding out whether characters are back (the
   * month marked used up, or the service's last figure leaving too few): such a request is sent in its order's turn,
   * never fetched ahead of it (OrderPipeline), so the turn is a due order's and its answer is of its moment.
   */
  findsOut(characters: number): Promise<boolean> {
    return this.#month.findsOut(characters);
  }

  /** A charge for spending that was not checked in advance (a clone's follow-up request): recorded all the same. */
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
  settled(): Promise<void> {
    return this.#ledger.settled();
  }

  /** One part's spend or saving under `charge` (Charge.record). Never throws. */
  async record(charge: Charge, spend: PartSpend): Promise<void> {
    await this.#ledger
      .track(this.#record(charge, spend))
      .catch((error: unknown) => this.#log.error({ err: error, ...charge.context }, 'could not record a spend'));
  }

  /** Never throws: a refused write is kept (SpendLedger), spending stopped; a paid spend ends a used-up month. */
  async #record(charge: Charge, spend: PartSpend): Promise<void> {
    await this.#ledger.write({
      ...this.#spendOf(charge, spend),
      cached: spend.cached,
      ...(spend.undelivered === true ? { undelivered: true } : {}),
      requestId: spend.requestId,
      service: spend.usage,
    });
    if (!spend.cached) await this.#clearingMonth(this.#month.accepted());
  }

  /** A part's spend under its charge's context (without its member, if forgotten meanwhile). */
  #spendOf({ context, forgotten }: Charge, { endpoint, characters }: PartSpend) {
    return { at: this.#now(), ...context, ...(forgotten === undefined ? {} : { forgotten }), endpoint, characters };
  }

  /**
   * Who pays for a paid request of `text`: its order's charge, or, for a part counted free at acceptance (cached or in
   * flight then and gone since), a charge of its own that passes the budgets and the month now, without the cooldown
   * and within what its quote has left. No order (tools, tests): nobody, only the month heard.
   */
  async payer(order: PayingOrder | undefined, endpoint: SpendEndpoint, part: PaidPart): Promise<Charge | undefined> {
    if (order === undefined || order.charge.reserves(part.key)) return order?.charge;
    const { charge } = order;
    const characters = countCharacters(part.text);
    order.late?.take(characters);
    const late = await this.authorize(charge.context, [{ ...part, endpoint, characters, free: false }], {
      memberCooldown: false,
    });
    if (charge.forgotten !== undefined) late.anonymise(charge.forgotten);
    late.paysFor(charge);
    return late;
  }

  /** Written ahead before it is sent (#sending), its characters counted as spent; a throw means it is not sent. */
  async writeAhead(charge: Charge, spend: PartSpend): Promise<LedgerEntry> {
    const entry = await this.#ledger.track(this.#sending(charge, spend));
    charge.count(entry.spend.characters);
    return entry;
  }

  /** The service accepted (and charged) a request written ahead: confirmed. Never throws. */
  confirm(charge: Charge, entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    charge.count(0, entry.spend.characters);
    return this.#ledger.answered('accept', entry, this.#accept(entry, answer));
  }

  /** A definite "not charged": the spend written ahead is taken back. Never throws. */
  takeBack(charge: Charge, entry: LedgerEntry): Promise<void> {
    charge.count(-entry.spend.characters);
    return this.#ledger.answered('release', entry, this.#ledger.release(entry));
  }

  /**
   * A call that ended without the service's acceptance: taken back on a definite "not charged"; else (sent and no
   * answer came: reset, timeout, closed as nobody waited, `letGo`) left spent, since it may have been charged. Never
   * throws.
   */
  unaccepted(
    charge: Charge,
    entry: LedgerEntry,
    charged: 'not-charged' | 'maybe-charged',
    letGo: boolean,
  ): Promise<void> {
    if (charged === 'not-charged') return this.takeBack(charge, entry);
    const { endpoint, characters } = entry.spend;
    this.#log.warn(
      {
        code: 'api-unconfirmed',
        ...charge.context,
        endpoint,
        characters,
        ...(letGo ? { closed: 'nobody-waits' } : {}),
      },
      letGo
        ? 'sent to the Voice API and closed before its answer, as nobody waited for it any more: counted as spent, since it may have been charged'
        : 'sent to the Voice API and no answer came: counted as spent, since it may have been charged',
    );
    return this.#ledger.answered('settle', entry, this.#ledger.settle(entry, 'undelivered'));
  }

  /** An accepted request's audio (or voice ID) arrived, or never will: settled once. Never throws. */
  settle(charge: Charge, entry: LedgerEntry, outcome: SpendOutcome, error?: unknown): Promise<void> {
    if (outcome === 'undelivered') {
      const { endpoint, characters } = entry.spend;
      this.#log.warn(
        {
          code: 'api-undelivered',
          ...charge.context,
          endpoint,
          characters,
          requestId:
            entry.answer === undefined || entry.answer === 'released' ? undefined : entry.answer.accepted.requestId,
          error: error instanceof Error ? error.name : undefined,
        },
        'charged by the Voice API but not delivered: recorded as spent',
      );
    }
    return this.#ledger.answered('settle', entry, this.#ledger.settle(entry, outcome));
  }

  /**
   * What a failed paid call says of the month (the used-up month, below): its figures kept; the service's own 429
   * leaving characters, but fewer than this call needs, is what the caller is told (returned); one leaving none marks
   * the month used up; any other figures may show a used-up month over. Returns what the caller is told.
   */
  async heard(error: unknown, characters: number): Promise<unknown> {
    const figures = serviceFiguresOf(error);
    // Kept as a 2xx's are: /usage tells the month as the service counts it.
    if (figures !== undefined)
      await this.#store.quota
        .noteService(figures, this.#now())
        .catch((e: unknown) => this.#log.error({ err: e }, "could not keep the service's usage figures"));
    // The service itself refusing for the month: its own 429 (the retry rule proved the answer the service's: its
    // headers and its JSON error body).
    const proven = error instanceof QuotaExceededError && accountRefusalProven(error);
    const told = proven ? monthAnswer(error, characters, this.#now()) : error;
    if (told instanceof Refusal) return told;
    if (proven && told === error)
      await this.quotaExceeded(error).catch((e: unknown) =>
        this.#log.error({ err: e }, 'could not record the used-up quota'),
      );
    else await this.observeUsage(figures);
    return told;
  }

  /**
   * Writes ahead a paid request about to be sent: spent from now on (unconfirmed until the service answers), its
   * characters moved out of `hold` in the same transaction; settled later (SpendLedger) or by the next start's
   * recover(). A store that refuses the write is a refusal: the request is not sent. While the month is marked used
   * up, or the service's last figure leaves too few for the part, it goes out only as the one request finding out
   * (the turn, taken here and kept on its entry until its answer is in, then given back: releaseHold); with another on its way, it is
   * refused, not sent.
   */
  async #sending(charge: Charge, spend: PartSpend): Promise<LedgerEntry> {
    const { context, hold } = charge;
    let turn: string | undefined;
    const written = (async () => {
      turn = await this.#month.fits(spend.characters, charge.createdAt);
      const owned = { owner: this.#owner, hold, unconfirmed: true };
      const entry = await this.#ledger.writeAhead({ ...this.#spendOf(charge, spend), cached: false, ...owned });
      entry.turn = turn;
      return entry;
    })();
    // Not written ahead (refused, or the store failed or was late): its turn, if it took one, goes at once.
    const letGo = () => {
      if (turn !== undefined) this.releaseHold(turn, context.guildId);
    };
    try {
      const entry = await byDeadline(written, this.#deadlineMs, () => undefined);
      if (entry !== undefined) return entry;
    } catch (error) {
      letGo();
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
    void written.then((entry) => {
      letGo();
      return this.#ledger.release(entry);
    }, letGo);
    throw storageUnavailable();
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

  /** A 429 "quota exceeded": the month is marked (see UsedUpMonth); returns when the service says it resets. */
  quotaExceeded(error: QuotaExceededError): Promise<Date> {
    return this.#month.exceeded(error);
  }

  async report(guildId: string, userId: string) {
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
    const counted = serviceCount(service, this.#planLimit);
    const exhausted = mark?.resetAt;
    // The service's count stands beside the used-up mark only when it agrees (nothing left).
    const told = counted !== undefined && (mark === undefined || counted.remaining === 0) ? counted : undefined;
    const limit = told?.limit ?? service?.limit ?? this.#planLimit;
    const used = told?.used ?? (mark === undefined ? bot.spent : limit);
    return {
      month,
      at: now,
      // The service's reset date when it sent one, else the 1st of next month, UTC.
      resetAt: exhausted ?? service?.resetAt ?? nextMonthStart(now),
      // Set while the month is marked used up (a 429): requests that would spend are refused until then.
      ...(exhausted === undefined ? {} : { exhaustedUntil: exhausted }),
      guild: { spent: guild.spent, saved: guild.saved, budget: limits.guildMonthlyChars },
      // The whole bot's own monthly budget (0: none) against what SayBot spent this month (`bot.spent`).
      botBudget: this.#botMonthly,
      bot: {
        // The service's count this month (use outside SayBot included), else SayBot's; all of it while used up.
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

/** What a paid request is paid on: its order's charge, and what parts counted free at acceptance may still cost. */
export interface PayingOrder {
  readonly charge: Charge;
  readonly late?: QuoteAllowance | undefined;
}

type AcceptedAnswer = Pick<Acceptance, 'requestId' | 'usage'>;
