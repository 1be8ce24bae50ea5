// Money's ledger, the write-ahead journal's mechanics: it records what Accounting (src/core/quota/accounting.ts) decides,
// deciding nothing of who pays, whether, or which answer once: the spends in the store (SpendLedger): each paid request
// written ahead, its answer and finish written onto its row, each saving written down, what the books keep written
// again, what a crash left finished at the next start; and /usage's figures read from them (usageReport).
import type { UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { Refusal } from '../refusal.ts';
import type { NewSpend, QuotaState, SpendConfirmation, SpendEndpoint, SpendOutcome } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import type { OperatorBudgets } from '../config.ts';
import { monthOf, nextDayStart, nextMonthStart } from '../calendar.ts';

/** How long a request may wait on the store (its guild's checks before it included) before it is refused. */
export const STORE_DEADLINE_MS = 5000;

/** Errors by which PostgreSQL (or the pool) gave up waiting: the store is unavailable, not the request wrong. */
export function storeTimedOut(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // 55P03 lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout), 25P03 idle in transaction.
  if (['55P03', '57014', '25P03'].includes(String((error as { code?: unknown }).code))) return true;
  return /timeout exceeded when trying to connect|Query read timeout|Connection terminated/i.test(error.message);
}

/** `work`'s answer, or `late()`'s after `ms`; `work` goes on, and what its late answer leaves is the caller's. */
export function byDeadline<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    // Unref'd: a deadline alone never keeps the process up.
    timer = setTimeout(() => resolve(Promise.resolve().then(late)), ms).unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export const storageUnavailable = (cause?: unknown) =>
  new Refusal({ code: 'storage-unavailable' }, { level: 'warn', ...(cause === undefined ? {} : { cause }) });

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

/** Characters still payable under a quote, taken by each part paid late; refused past it. */
export interface QuoteAllowance {
  /** Takes `characters` from what is left, or throws the allowance's refusal (nothing is taken then). */
  take(characters: number): void;
}

/** One spend: a saving, or a paid request written ahead (`owner`), then answered and finished once onto its row. */
export interface LedgerEntry {
  readonly spend: NewSpend;
  id?: number;
  /** Confirmed (its 2xx), or `taken-back` (a definite "not charged"). None: no answer yet, or never. */
  answer?: { confirmed: SpendConfirmation } | 'taken-back';
  answeredInStore?: boolean;
  outcome?: SpendOutcome;
  finishedInStore?: boolean;
}

/** Answers and finishes the store refused, kept to retry; past this the oldest is given up (its row stays spent). */
export const MAX_KEPT = 10_000;
/** The first wait before those are tried again on their own, doubled while the store refuses them, up to the last. */
export const FINISH_AGAIN_MS = [1_000, 60_000] as const;

/**
 * Writes spends to the store as the books say (Accounting). A spend it is told to keep (keep) stays in memory, in
 * order, until a flush writes it. A refused answer or finish changes no count; a refused taking back leaves the spend
 * counted (never fewer). Each is retried with the next write or flush, or on its own after a wait (FINISH_AGAIN_MS),
 * and a restart finishes what is still open (finishLeftBy).
 */
export class SpendLedger {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #unwritten: LedgerEntry[] = [];
  readonly #unfinished: LedgerEntry[] = [];
  readonly #metrics: Pick<Metrics, 'characters'> | undefined;
  #flushing: Promise<boolean> | undefined;
  /** Tries the unfinished again with no write to come with (a taking back counts on every budget till then). */
  #again: { timer?: NodeJS.Timeout; waitMs: number; closed?: true } = { waitMs: FINISH_AGAIN_MS[0] };
  /** Spends being written, so that drained() lets them reach the store before it closes. */
  readonly #writing = new Set<Promise<unknown>>();

  constructor(store: Store, logger: Logger, metrics?: Pick<Metrics, 'characters'>) {
    this.#store = store;
    this.#log = logger;
    this.#metrics = metrics;
  }

  /** Finishes what the last run of `owner` left (Accounting.recover): its spends written ahead, its holds. */
  async recover(owner: string) {
    const spends = await this.#store.spends.finishLeftBy(owner);
    const holds = await this.#store.budgets.releaseLeftBy(owner);
    if (spends.confirmed > 0 || spends.inFlight > 0 || holds > 0)
      this.#log.warn(
        { code: 'books-settled-after-crash', ...spends, holds },
        'settled what the previous run left on the books: spends confirmed or still in flight as spent (undelivered), its holds released',
      );
    return { ...spends, holds };
  }

  /** `task` (a write to the books) kept until it is over, so that drained() waits for it. */
  track<T>(task: Promise<T>): Promise<T> {
    this.#writing.add(task);
    const done = () => this.#writing.delete(task);
    task.then(done, done);
    return task;
  }

  /** Waits for the spends being written (shutdown). */
  async drained(): Promise<void> {
    await Promise.allSettled([...this.#writing]);
  }

  /** Stops trying the unfinished again on its own (shutdown): a restart finishes what is left (recover). */
  close(): void {
    clearTimeout(this.#again.timer);
    this.#again = { waitMs: FINISH_AGAIN_MS[0], closed: true };
  }

  /** Spends the store refused, kept to write again (keep). */
  get unwritten(): number {
    return this.#unwritten.length;
  }

  /** Answers and finishes the store refused, tried again with the next flush (a kept taking back still counts). */
  get unfinished(): number {
    return this.#unfinished.length;
  }

  *members(guildId?: string): Generator<string> {
    for (const { spend } of this.#unwritten) if (guildId === undefined || spend.guildId === guildId) yield spend.userId;
  }

  anonymise(match: (spend: NewSpend) => boolean, scope: 'member' | 'guild'): void {
    for (const { spend } of this.#unwritten) if (match(spend) && spend.forgotten !== 'guild') spend.forgotten = scope;
  }

  /** A spend or saving as the service bills it (metrics), whether or not the store takes it now. */
  count(spend: NewSpend): void {
    this.#metrics?.characters(spend.cached ? 'saved' : 'spent', spend.characters);
  }

  /** Kept to write once the store takes writes again, in order (the books say which: Accounting). */
  keep(spend: NewSpend): void {
    this.#unwritten.push({ spend });
  }

  /** A paid request's spend before its first byte leaves, unconfirmed. Throws when refused: then it is not sent. */
  async writeAhead(spend: NewSpend): Promise<LedgerEntry> {
    const entry: LedgerEntry = { spend, id: await this.#store.spends.record(spend) };
    if (this.#unfinished.length > 0) void this.track(this.#finishAgain());
    return entry;
  }

  /** The service's 2xx: confirmed. Never throws; a refused write is retried with the next flush. */
  async confirm(entry: LedgerEntry, confirmation: SpendConfirmation): Promise<void> {
    entry.answer = { confirmed: confirmation };
    this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /** A definite "not charged": taken back. Never throws; refused, it stays spent until the next flush. */
  async erase(entry: LedgerEntry): Promise<void> {
    entry.answer = 'taken-back';
    await this.#catchUp(entry);
  }

  /** Finishes a spend written ahead: delivered or not (one with no answer stays spent, unconfirmed). Never throws. */
  async finish(entry: LedgerEntry, outcome: SpendOutcome): Promise<void> {
    entry.outcome = outcome;
    if (entry.answer === undefined && entry.spend.unconfirmed === true)
      this.#metrics?.characters('spent', entry.spend.characters);
    await this.#catchUp(entry);
  }

  /** Tries the unwritten spends (oldest first) and the unfinished ones again; true when no spend is left unwritten. */
  flush(): Promise<boolean> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  // A write ahead whose answer was lost has no ID: only taken back, by its token.
  async #catchUp(entry: LedgerEntry): Promise<void> {
    const { id, answer } = entry;
    if (id === undefined && answer !== 'taken-back') return;
    try {
      if (answer !== undefined && !entry.answeredInStore) {
        if (answer === 'taken-back') await this.#store.spends.erase(id, entry.spend);
        else if (id !== undefined) await this.#store.spends.confirm(id, answer.confirmed);
        entry.answeredInStore = true;
      }
      if (entry.outcome !== undefined && !entry.finishedInStore && answer !== 'taken-back' && id !== undefined) {
        await this.#store.spends.finish(id, entry.outcome);
        entry.finishedInStore = true;
      }
    } catch (error) {
      this.#log.warn({ err: error, spend: id }, 'could not finish a spend; it stays spent, and is tried again');
      if (!this.#unfinished.includes(entry)) this.#unfinished.push(entry);
      if (this.#unfinished.length > MAX_KEPT) this.#unfinished.shift();
      this.#finishLater();
    }
  }

  // One timer, unref'd: its wait doubles at each try the store refuses, and starts over once it takes them all.
  #finishLater(): void {
    const again = this.#again;
    if (again.timer !== undefined || again.closed) return;
    again.timer = setTimeout(() => {
      again.timer = undefined;
      void this.track(this.#finishAgain());
    }, again.waitMs).unref();
    again.waitMs = Math.min(again.waitMs * 2, FINISH_AGAIN_MS[1]);
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
    await this.#finishAgain();
    return true;
  }

  async #finishAgain(): Promise<void> {
    for (const entry of this.#unfinished.splice(0)) await this.#catchUp(entry);
    if (this.#unfinished.length === 0) this.#again.waitMs = FINISH_AGAIN_MS[0];
  }
}

/**
 * /usage's figures (Accounting.report): the month as the service counts it (its figures kept this month, `planLimit`
 * until it sent any; all of it while the month is marked used up, `mark`) beside what SayBot spent and saved, the
 * server's month and the member's day against their budgets (`limits`).
 */
export async function usageReport(
  store: Store,
  asked: {
    guildId: string;
    userId: string;
    at: Date;
    mark: QuotaState['exhausted'];
    limits: OperatorBudgets;
    planLimit: number;
    botBudget: number;
  },
) {
  const { guildId, userId, mark, limits, planLimit, botBudget } = asked;
  const now = asked.at;
  const month = monthOf(now);
  const [guild, bot, member, state] = await Promise.all([
    store.spends.monthTotals(month, guildId),
    store.spends.monthTotals(month),
    // What the daily budget counts (a deletion's carry-over included), not the rows that still name the member.
    store.spends.memberDaySpent(guildId, userId, now),
    store.quota.get(),
  ]);
  const service = state.service?.month === month ? state.service : undefined;
  const counted = serviceCount(service, planLimit);
  const exhausted = mark?.resetAt;
  // The service's count stands beside the used-up mark only when it agrees (nothing left).
  const told = counted !== undefined && (mark === undefined || counted.remaining === 0) ? counted : undefined;
  const limit = told?.limit ?? service?.limit ?? planLimit;
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
    botBudget,
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

/**
 * What the kept figures of this month say of the whole bot's month, when the service sent any: used and left by its
 * own count (`planLimit` if it sent no limit), and when it said so.
 */
function serviceCount(service: QuotaState['service'], planLimit: number) {
  if (service === undefined) return undefined;
  const limit = service.limit ?? planLimit;
  const { used, remaining } = service;
  if (used === undefined && remaining === undefined) return undefined;
  return {
    used: used ?? Math.max(0, limit - (remaining ?? 0)),
    remaining: remaining ?? Math.max(0, limit - (used ?? 0)),
    limit,
    at: service.updatedAt,
  };
}
