// Money's books and its month (Accounting): the budgets and their hold (the budget rule: the limits in force, in the
// order checked), the cooldown; each paid request's steps on the books (written ahead within the month, confirmed,
// taken back or left spent as maybe charged, finished: each a method src/core/quota/paid-call.ts awaits in turn);
// the month's one rule (#month), asked at acceptance and as each part leaves; the month as the service counts it (the
// used-up month and the service's last figures, a hint and not a wall); /usage's figures. The ledger only records
// them (src/core/quota/ledger.ts: the store's deadline, the writes, what a crash left), the store only sums and holds
// (src/core/store/areas/spends.ts, quota-state.ts).
import { randomUUID } from 'node:crypto';
import { QuotaExceededError, type UsageInfo } from '../api/errors.ts';
import { accountRefusalProven } from '../api/response.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Refusal } from '../refusal.ts';
import type { BudgetHoldLimits, QuotaState, SpendOutcome } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import { monthOf, nextDayStart, nextMonthStart } from '../calendar.ts';
import type { ServiceAnswer } from '../api/client.ts';
import type { OperatorBudgets } from '../config.ts';
import {
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
import { Charge, type PartNeed } from './paid-call.ts';
import {
  asking,
  budgetRefusal,
  cooldownRefusal,
  effectiveBudgets,
  monthAnswer,
  serviceFiguresOf,
  tooFewRefusal,
  type BudgetRefusal,
} from './money.ts';

/** How long a dead process's hold lasts; a live request renews its hold every third of this. */
export const BUDGET_HOLD_TTL_MS = 15 * 60_000;

/** The account SayBot runs under now: a change since the month was marked means the operator acted. */
export interface CurrentAccount {
  /** A fingerprint of the API key (VoiceApiClient.keyFingerprint), never the key. */
  fingerprint: string;
  /** VOICE_API_PLAN. */
  plan: string;
}

// The turn to find out whether the month is back: a one-character hold, limited to one, under a guild no Discord guild
// can have (snowflake 0); the store's check-and-hold is serialised across processes, so one request at a time goes out
// from all shards together. Only the bot-wide budget counts it, as one character while it lasts.
const PROBE_TURN = { guildId: '0', userId: 'quota-probe' } as const;

/** A turn whose request has had no answer by then no longer blocks the next one: its process may have died with it. */
export const PROBE_TURN_MS = 30_000;

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
export type UsageReport = Awaited<ReturnType<typeof usageReport>>;

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
  readonly #account: CurrentAccount | undefined;
  /** The month's mark under another key or plan cleared, once per start (#startMonth). */
  #started: Promise<void> | undefined;
  /** This start: the service's figures kept from before it are not taken without a new answer. */
  readonly #since: Date;
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
    this.#account = options.account;
    this.#since = this.#now();
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
        const turn = await this.#month(needed);
        if (turn !== undefined) await this.#store.budgets.release(turn);
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
  async findsOut(characters: number): Promise<boolean> {
    return (await this.#monthRefusal(characters, true)) !== undefined;
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
  drained(): Promise<void> {
    return this.#ledger.drained();
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
    if (!spend.cached) await this.#clearingMonth(this.#monthAccepted());
  }

  /** A part's spend under its charge's context (without its member, if forgotten meanwhile). */
  #spendOf({ context, forgotten }: Charge, { endpoint, characters }: PartSpend) {
    return { at: this.#now(), ...context, ...(forgotten === undefined ? {} : { forgotten }), endpoint, characters };
  }

  /** Written ahead before it is sent, within the month (#sending, #month), its characters spent; thrown: not sent. */
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
   * A call sent that ended without the service's 2xx and may have been charged (reset, timeout, closed as nobody
   * waited, `letGo`): left spent, undelivered. Never throws.
   */
  leaveSpent(charge: Charge, entry: LedgerEntry, letGo: boolean): Promise<void> {
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
    return this.#ledger.answered('settle', entry, this.#ledger.finish(entry, 'undelivered'));
  }

  /** An accepted request's audio (or voice ID) arrived, or never will: finished once. Never throws. */
  finish(charge: Charge, entry: LedgerEntry, outcome: SpendOutcome, error?: unknown): Promise<void> {
    if (outcome === 'delivered') charge.count(0, 0, entry.spend.characters);
    if (outcome === 'undelivered') {
      const { endpoint, characters } = entry.spend;
      this.#log.warn(
        {
          code: 'api-undelivered',
          ...charge.context,
          endpoint,
          characters,
          requestId: typeof entry.answer === 'object' ? entry.answer.accepted.requestId : undefined,
          error: error instanceof Error ? error.name : undefined,
        },
        'charged by the Voice API but not delivered: recorded as spent',
      );
    }
    return this.#ledger.answered('settle', entry, this.#ledger.finish(entry, outcome));
  }

  /**
   * What a failed paid call says of the month (the used-up month, below), written down: its figures kept; the
   * service's own 429 leaving none marks the month used up (one leaving too few is told, `told`); any other figures
   * may show a used-up month over.
   */
  async heard(error: unknown, characters: number): Promise<void> {
    const figures = serviceFiguresOf(error);
    // Kept as a 2xx's are: /usage tells the month as the service counts it.
    if (figures !== undefined)
      await this.#store.quota
        .noteService(figures, this.#now())
        .catch((e: unknown) => this.#log.error({ err: e }, "could not keep the service's usage figures"));
    const told = this.told(error, characters);
    if (told instanceof Refusal) return;
    if (told === error && error instanceof QuotaExceededError && accountRefusalProven(error))
      await this.quotaExceeded(error).catch((e: unknown) =>
        this.#log.error({ err: e }, 'could not record the used-up quota'),
      );
    else await this.observeUsage(figures);
  }

  /**
   * What the caller of a failed paid call is told: the service itself refusing for the month (its own 429, the retry
   * rule proved: its headers and its JSON error body) as its figure says (monthAnswer); anything else as it is.
   */
  told(error: unknown, characters: number): unknown {
    const proven = error instanceof QuotaExceededError && accountRefusalProven(error);
    return proven ? monthAnswer(error, characters, this.#now()) : error;
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
      turn = await this.#month(spend.characters, charge.createdAt);
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

  /** The service accepted a request written ahead (its 2xx): confirmed; its 2xx ends a used-up month. */
  async #accept(entry: LedgerEntry, answer: AcceptedAnswer): Promise<void> {
    const { usage, requestId } = answer;
    await this.#ledger.accept(entry, { requestId, service: usage, at: this.#now() });
    await this.#clearingMonth(this.#monthAccepted());
  }

  #clearingMonth(work: Promise<unknown>): Promise<unknown> {
    return work.catch((error: unknown) => this.#log.error({ err: error }, 'could not clear the used-up month'));
  }

  /** /usage's figures (src/core/quota/ledger.ts `usageReport`), a month's mark whose reset date passed cleared first. */
  async report(guildId: string, userId: string) {
    const at = this.#now();
    const [mark, limits] = await Promise.all([this.#markOf(await this.#quotaState()), this.budgetsFor(guildId)]);
    const [planLimit, botBudget] = [this.#planLimit, this.#botMonthly];
    return usageReport(this.#store, { guildId, userId, at, mark, limits, planLimit, botBudget });
  }

  // The used-up month: the service's own 429 "quota exceeded" marks it (quotaExceeded; a 429 the retry rule,
  // src/core/api/response.ts, does not prove the service's own marks nothing, as a gateway's 401 or 403 does). While
  // marked, one request at a time goes out (a 429 bills nothing, so asking costs nothing): the turn is the request's
  // as it leaves (#month, at its write ahead) until its answer, never an order's waiting in a queue; meanwhile the
  // others are refused, naming the mark, at acceptance or as their part is about to leave. The mark is cleared by the
  // first request the service accepts, any answer showing characters left or a higher monthly limit than when it was
  // marked, a start under another API key or plan, and the reset date passing: never by the configured plan alone.
  // The service's last figure of what is left is a hint the same way: a request it leaves too few for goes out one at
  // a time through the same turn, so characters bought or a new month are seen at the next request.

  /** Clears, once per start, a mark made under another key or plan: the operator changed what the 429 was about. */
  #startMonth(): Promise<void> {
    this.#started ??= (async () => {
      const mark = (await this.#store.quota.get()).exhausted;
      const account = this.#account;
      if (!mark || !account) return;
      const keyChanged = mark.account !== undefined && mark.account !== account.fingerprint;
      if (keyChanged || (mark.plan !== undefined && mark.plan !== account.plan))
        await this.#clearMark(`the ${keyChanged ? 'API key' : 'plan'} changed since the month was marked used up`);
    })().catch((error: unknown) => {
      this.#started = undefined; // tried again next time
      throw error;
    });
    return this.#started;
  }

  /** The quota row, once this start's mark under another key or plan is cleared. */
  async #quotaState(): Promise<QuotaState> {
    await this.#startMonth();
    return this.#store.quota.get();
  }

  /** The mark, if the month is marked; one whose reset date has passed is cleared on the way. */
  async #markOf(state: QuotaState): Promise<QuotaState['exhausted']> {
    const mark = state.exhausted;
    if (mark && mark.resetAt <= this.#now()) {
      await this.#clearMark('the reset date has passed');
      return undefined;
    }
    return mark;
  }

  /**
   * The month's one rule, asked at acceptance (no `acceptedAt`: the turn then only tried, holding nobody back while the
   * order waits) and again as each paid part leaves (#sending): nothing when the month is not marked and the service's
   * last figure leaves enough for `characters`; else the one turn to find out (its token, given back once the answer
   * is in); or, with another request on its way, refused naming the mark or the figure.
   */
  async #month(characters: number, acceptedAt?: Date): Promise<string | undefined> {
    const sending = acceptedAt !== undefined;
    const refusal = await this.#monthRefusal(characters, sending);
    if (refusal === undefined) return undefined;
    // Said since its order was accepted (its own earlier part's answer, or another's): the service's word is fresher
    // than the order, so asking again would only hear it again: told as the service said it. Only an order accepted
    // after it goes out to find out.
    const { reason } = refusal;
    if (acceptedAt !== undefined && reason.code === 'quota-used-up' && reason.markedAt > acceptedAt) throw refusal;
    const late = acceptedAt !== undefined && reason.code === 'quota-too-few-left';
    if (late && reason.saidAt !== undefined && reason.saidAt > acceptedAt) {
      const { saidAt: _, ...said } = reason;
      throw new Refusal(said, { level: 'warn' });
    }
    const turn = await this.#takeTurn();
    if (turn === undefined) {
      if (sending)
        this.#log.info({ code: reason.code, needed: characters }, 'not sent: another request is finding out');
      throw asking(refusal);
    }
    if (!sending) return turn;
    if (reason.code === 'quota-too-few-left')
      this.#log.info(
        { code: 'quota-too-few-left', left: reason.left, needed: characters },
        "the service's last figure leaves too few characters: this request goes out to find out whether more were bought",
      );
    else
      this.#log.info(
        { resetAt: reason.code === 'quota-used-up' ? reason.resetAt.toISOString() : undefined },
        'monthly quota marked used up: this request goes out to find out whether it is back',
      );
    return turn;
  }

  /** What a request of `needed` is told while another finds out: the mark, or the service's last figure; `sending`: about to leave. */
  async #monthRefusal(needed: number, sending = false): Promise<Refusal | undefined> {
    const state = await this.#quotaState();
    const mark = await this.#markOf(state);
    const at = this.#now();
    if (mark !== undefined) {
      const { markedAt, resetAt } = mark;
      return new Refusal({ code: 'quota-used-up', markedAt, resetAt, ...(sending ? { beforeSending: true } : {}) });
    }
    return tooFewRefusal(state.service, needed, at, this.#since);
  }

  /** The one turn to find out, shared by every process; undefined while another request holds it. */
  async #takeTurn(): Promise<string | undefined> {
    const at = this.#now();
    const limits = { guildMonthlyChars: 1 };
    const turn = await this.#store.budgets.hold({ ...PROBE_TURN, characters: 1, limits, ttlMs: PROBE_TURN_MS, at });
    return turn.status === 'held' ? turn.token : undefined;
  }

  /** The service accepted a request: the month is not (or no longer) used up; one read of the mark is all it takes. */
  async #monthAccepted(): Promise<void> {
    if ((await this.#store.quota.get()).exhausted) await this.#clearMark('the service accepted a request');
  }

  /** Any answer of the service that carried its usage figures (errors too): characters left, or a higher limit than when marked, end the mark. */
  async observeUsage(usage: UsageInfo | undefined): Promise<void> {
    const observed = async () => {
      const mark = usage && (await this.#store.quota.get()).exhausted;
      if (!usage || !mark) return;
      if (usage.remaining !== undefined && usage.remaining > 0)
        await this.#clearMark(`the service reports ${usage.remaining} characters left`);
      else if (usage.limit !== undefined && mark.limit !== undefined && usage.limit > mark.limit)
        await this.#clearMark(`the service reports a higher monthly limit (${usage.limit}, was ${mark.limit})`);
    };
    await this.#clearingMonth(observed());
  }

  /**
   * A 429 "quota exceeded": what would spend is refused until the service's reset date (else the 1st of next month,
   * UTC), or until one of the clearing events. Returns the reset date.
   */
  async quotaExceeded(error: QuotaExceededError): Promise<Date> {
    const now = this.#now();
    const said = error.rateLimit?.resetAt;
    const resetAt = said !== undefined && said > now ? said : nextMonthStart(now);
    const state = await this.#store.quota.get();
    const limit = error.rateLimit?.limit ?? (state.service?.month === monthOf(now) ? state.service.limit : undefined);
    const { fingerprint: account, plan } = this.#account ?? {};
    await this.#store.quota.markExhausted(resetAt, now, { account, plan, limit });
    this.#log.error(
      { code: 'quota-used-up', resetAt: resetAt.toISOString(), limit },
      'monthly quota used up: one request at a time goes out to see whether it is back; upgrading the plan, buying characters or changing the key ends this at the next request',
    );
    return resetAt;
  }

  async #clearMark(why: string): Promise<void> {
    if (await this.#store.quota.clearExhausted())
      this.#log.warn({ code: 'quota-available-again', reason: why }, `monthly quota no longer marked used up: ${why}`);
  }
}

type AcceptedAnswer = Pick<ServiceAnswer, 'requestId' | 'usage'>;
