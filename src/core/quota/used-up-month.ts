// Money's month as the service counts it: the used-up month and the service's own figures, kept with their time and
// read as a hint. The service's own 429 "quota exceeded" marks the month used up (one request at a time then goes out
// to find out whether it is back), and the mark must never outlive the operator fixing it. Every paid call runs under
// it (the part source's paidCall): such a 429 marks the month used up before the caller hears of it, unless the service
// says characters are left (only this request is too long for them: that is what the caller is told); any other
// answer's usage figures may show that a used-up month is over. Only the service may say the month is used up: a 429
// whose answer the retry rule (src/core/api/response.ts) does not prove the service's own, with its usage figures (a
// rate-limiting proxy's page, a gateway's JSON without the service's figures), is a refusal on the way, worded as what
// SayBot knows, and marks nothing, as a gateway's 401 or 403 does. The service's last figure of what is left (below) is
// a hint the same way: a request it leaves too few for goes out one at a time, through the same turn, so characters
// bought or a new month are seen at the next request.
import { RateLimitedError, VoiceApiError, type QuotaExceededError, type UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import { Refusal } from '../refusal.ts';
import type { QuotaMarkAccount, QuotaState } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import { monthOf, nextMonthStart } from '../calendar.ts';

/** The account SayBot runs under now: a change since the month was marked means the operator acted. */
export interface CurrentAccount {
  /** A fingerprint of the API key (VoiceApiClient.keyFingerprint), never the key. */
  fingerprint: string;
  /** VOICE_API_PLAN. */
  plan: string;
}

/**
 * The turn to probe is a one-character hold in the store under a guild no Discord guild can have (snowflake 0),
 * limited to one: the store's check-and-hold is serialised across processes, so one request at a time goes out
 * from all shards together, and a turn whose process died ends by itself after PROBE_TURN_MS. Nothing counts
 * this guild's holds against a real budget but the bot-wide one, which counts the turn as one character while it
 * lasts (a bound one character on the safe side).
 */
const PROBE_TURN = { guildId: '0', userId: 'quota-probe' } as const;

/**
 * A turn whose request has not had its answer by then no longer blocks the next one: its process may have died with
 * it on its way (the turn is taken as a request leaves and given back once its answer is in).
 */
export const PROBE_TURN_MS = 30_000;

/**
 * The used-up month: a 429 "quota exceeded" marks it, and it must never outlive the operator fixing it.
 *
 * While marked, one request at a time goes out (a 429 bills nothing, so asking costs nothing): the turn is the
 * request's as it leaves (Accounting's write ahead) until its answer, never an order's waiting in a queue; meanwhile
 * the others are refused, naming the mark, at acceptance or as their part is about to leave. The mark is cleared
 * by: the first request the service accepts; any
 * answer that shows characters left or a higher monthly limit than when it was marked (a plan upgrade or a
 * top-up shows so); a start under another API key or plan; and the reset date passing. It never depends on the
 * configured plan alone: the service's own answers decide.
 */
export class UsedUpMonth {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #account: CurrentAccount | undefined;
  #started: Promise<void> | undefined;
  /** This start: the service's figures kept from before it are not taken without a new answer. */
  readonly #since: Date;

  constructor(options: { store: Store; logger: Logger; now: () => Date; account?: CurrentAccount | undefined }) {
    this.#store = options.store;
    this.#log = options.logger;
    this.#now = options.now;
    this.#account = options.account;
    this.#since = options.now();
  }

  /** Clears, once per start, a mark made under another key or plan: the operator changed what the 429 was about. */
  #start(): Promise<void> {
    this.#started ??= (async () => {
      const mark = (await this.#store.quota.get()).exhausted;
      const account = this.#account;
      if (!mark || !account) return;
      const keyChanged = mark.account !== undefined && mark.account !== account.fingerprint;
      const planChanged = mark.plan !== undefined && mark.plan !== account.plan;
      if (keyChanged || planChanged)
        await this.#clear(
          keyChanged
            ? 'the API key changed since the month was marked used up'
            : 'the plan changed since the month was marked used up',
        );
    })().catch((error: unknown) => {
      this.#started = undefined; // tried again next time
      throw error;
    });
    return this.#started;
  }

  /** The mark, if the month is marked; a mark whose reset date has passed is cleared on the way. */
  async current(): Promise<QuotaState['exhausted']> {
    return this.#markOf(await this.#state());
  }

  /** The quota row, once this start's mark under another key or plan is cleared. */
  async #state(): Promise<QuotaState> {
    await this.#start();
    return this.#store.quota.get();
  }

  async #markOf(state: QuotaState): Promise<QuotaState['exhausted']> {
    const mark = state.exhausted;
    if (mark && mark.resetAt <= this.#now()) {
      await this.#clear('the reset date has passed');
      return undefined;
    }
    return mark;
  }

  /**
   * At acceptance, for a request that would spend `needed` characters: refused (Refusal, naming the mark or the figure)
   * only while the month is marked or the service's last figure leaves too few (knownTooFew) and another request is on
   * its way to find out; otherwise accepted, holding nothing: the turn is taken as a request leaves (fits).
   */
  async admit(needed: number): Promise<void> {
    const refusal = await this.#refusal(needed);
    if (refusal === undefined) return;
    const turn = await this.#takeTurn();
    if (turn === undefined) throw asking(refusal);
    await this.#store.budgets.release(turn);
  }

  /** Whether a request of `characters` would have to find out (fits would take the turn for it). */
  async findsOut(characters: number): Promise<boolean> {
    return (await this.#refusal(characters, true)) !== undefined;
  }

  /**
   * A part about to be sent: nothing when the month is not marked and the figure leaves enough; else the turn (its
   * token, given back by the part source's paidCall once the answer is in), so this request goes out to find out; or, with another
   * on its way, refused, nothing sent. One read of the quota row when nothing stands in the way.
   */
  async fits(characters: number, acceptedAt: Date): Promise<string | undefined> {
    const refusal = await this.#refusal(characters, true);
    if (refusal === undefined) return undefined;
    // Said since its order was accepted (its own earlier part's answer, or another's): the service's word is fresher
    // than the order, so asking again would only hear it again, and nobody else is asking: told as the service said it.
    // Only an order accepted after it goes out to find out.
    const { reason } = refusal;
    if (reason.code === 'quota-used-up' && reason.markedAt > acceptedAt) throw refusal;
    if (reason.code === 'quota-too-few-left' && reason.saidAt !== undefined && reason.saidAt > acceptedAt) {
      const { saidAt: _, ...said } = reason;
      throw new Refusal(said, { level: 'warn' });
    }
    const turn = await this.#takeTurn();
    if (turn === undefined) {
      this.#log.info({ code: reason.code, needed: characters }, 'not sent: another request is finding out');
      throw asking(refusal);
    }
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

  /**
   * What a request of `needed` characters is told while another finds out: the mark, or the service's last figure
   * with when it said so; undefined when neither stands in the way. `sending`: the part is about to leave.
   */
  async #refusal(needed: number, sending = false): Promise<Refusal | undefined> {
    const state = await this.#state();
    const mark = await this.#markOf(state);
    const at = this.#now();
    if (mark !== undefined)
      return new Refusal({
        code: 'quota-used-up',
        markedAt: mark.markedAt,
        resetAt: mark.resetAt,
        ...(sending ? { beforeSending: true as const } : {}),
      });
    const tooFew = knownTooFew(state.service, needed, at, this.#since);
    return tooFew && tooFewLeft(tooFew, needed, at);
  }

  /** The one turn to find out, shared by every process; undefined while another request holds it. */
  async #takeTurn(): Promise<string | undefined> {
    const turn = await this.#store.budgets.hold({
      ...PROBE_TURN,
      characters: 1,
      limits: { guildMonthlyChars: 1 },
      ttlMs: PROBE_TURN_MS,
      at: this.#now(),
    });
    return turn.status === 'held' ? turn.token : undefined;
  }

  /**
   * The service accepted a request: the month is not (or no longer) used up. A month not marked has nothing its
   * figures could end (observe only clears a mark), so one read of the mark is all it takes.
   */
  async accepted(): Promise<void> {
    if ((await this.#store.quota.get()).exhausted) await this.#clear('the service accepted a request');
  }

  /** Any answer carrying the service's figures: characters left, or a higher limit than when marked, end the mark. */
  async observe(usage: UsageInfo | undefined): Promise<void> {
    if (usage === undefined) return;
    const mark = (await this.#store.quota.get()).exhausted;
    if (!mark) return;
    if (usage.remaining !== undefined && usage.remaining > 0) {
      await this.#clear(`the service reports ${usage.remaining} characters left`);
    } else if (usage.limit !== undefined && mark.limit !== undefined && usage.limit > mark.limit) {
      await this.#clear(`the service reports a higher monthly limit (${usage.limit}, was ${mark.limit})`);
    }
  }

  /**
   * A 429 "quota exceeded": refuse what would spend until the service's reset date (else the 1st of next month,
   * UTC), or until one of the clearing events. Returns the reset date.
   */
  async exceeded(error: QuotaExceededError): Promise<Date> {
    const now = this.#now();
    const said = error.rateLimit?.resetAt;
    const resetAt = said !== undefined && said > now ? said : nextMonthStart(now);
    const state = await this.#store.quota.get();
    const limit = error.rateLimit?.limit ?? (state.service?.month === monthOf(now) ? state.service.limit : undefined);
    const by: QuotaMarkAccount = { account: this.#account?.fingerprint, plan: this.#account?.plan, limit };
    await this.#store.quota.markExhausted(resetAt, now, by);
    this.#log.error(
      { code: 'quota-used-up', resetAt: resetAt.toISOString(), limit },
      'monthly quota used up: one request at a time goes out to see whether it is back; upgrading the plan, buying characters or changing the key ends this at the next request',
    );
    return resetAt;
  }

  async #clear(why: string): Promise<void> {
    if (await this.#store.quota.clearExhausted())
      this.#log.warn({ code: 'quota-available-again', reason: why }, `monthly quota no longer marked used up: ${why}`);
  }
}

/** A refusal told while another request is on its way to find out whether the month is back. */
function asking(refusal: Refusal): Refusal {
  const { reason } = refusal;
  return reason.code === 'quota-used-up' ? new Refusal({ ...reason, asking: true }) : refusal;
}

/** The refusal of `needed` characters the service's last figure (`tooFew`) leaves too few for. */
function tooFewLeft(
  tooFew: { left: number; resetAt?: Date | undefined; saidAt?: Date | undefined },
  needed: number,
  at: Date,
  cause?: unknown,
): Refusal {
  const resetAt = tooFew.resetAt ?? nextMonthStart(at);
  const options = { level: 'warn' as const, ...(cause === undefined ? {} : { cause }) };
  const { left, saidAt } = tooFew;
  return new Refusal(
    { code: 'quota-too-few-left', left, needed, resetAt, ...(saidAt === undefined ? {} : { saidAt }) },
    options,
  );
}

// The month as the service counts it: the usage figures its answers carry (X-RateLimit-*: a 2xx's and a refusal's
// alike), kept with the time they arrived (store.quota, src/core/store/areas/quota-state.ts). What they tell: the
// whole bot's used and left, said as "the service's count" only when they are the service's own; and that a request
// longer than what is left will likely be refused, so only one at a time goes out to find out (a hint, not a wall).
/** The usage figures of a failed call, when the answer is provably the service's own (retry.ts); else undefined. */
export function serviceFiguresOf(error: unknown): UsageInfo | undefined {
  if (!(error instanceof VoiceApiError) || error.status === undefined || error.rateLimit === undefined)
    return undefined;
  if (!error.fromService && error.charge !== 'not-charged') return undefined;
  const { retryAfterSeconds: _, ...usage } = error.rateLimit;
  return Object.keys(usage).length === 0 ? undefined : usage;
}

/**
 * What the kept figures of this month say of the whole bot's month, when the service sent any: used and left by its
 * own count (`planLimit` if it sent no limit), and when it said so.
 */
export function serviceCount(service: QuotaState['service'], planLimit: number) {
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

/**
 * What is left by the service's last word, when that word leaves fewer than `needed` but some: a hint that a request of
 * `needed` will be refused, so only one at a time goes out to find out (UsedUpMonth): characters bought or a new
 * month are seen at the next answer. The word lapses at its reset date, and one kept from before `since` (this start)
 * is not taken without a new answer. Nothing left at all is the used-up month's.
 */
function knownTooFew(
  service: QuotaState['service'],
  needed: number,
  now: Date,
  since: Date,
): { left: number; resetAt?: Date; saidAt: Date } | undefined {
  const left = service?.remaining;
  if (service === undefined || left === undefined || left <= 0 || needed <= left) return undefined;
  if (service.month !== monthOf(now) || service.updatedAt < since) return undefined;
  if (service.resetAt !== undefined && service.resetAt <= now) return undefined;
  return { left, saidAt: service.updatedAt, ...(service.resetAt === undefined ? {} : { resetAt: service.resetAt }) };
}

/**
 * What the service's own 429 says to a call of `characters`, by the figure in that same answer: none left (or none
 * sent), the month used up (the error itself); some, too few for it (the refusal with the figure); enough, a refusal
 * for now, not for the month: told as busy, nothing charged (a RateLimitedError of the same answer).
 */
export function monthAnswer(error: QuotaExceededError, characters: number, at: Date): VoiceApiError | Refusal {
  const { remaining: left, resetAt } = error.rateLimit ?? {};
  if (left === undefined || left === 0) return error;
  if (left < characters) return tooFewLeft({ left, resetAt }, characters, at, error);
  const { status, requestId, serviceMessage, rateLimit, fromService } = error;
  const details = {
    status,
    requestId,
    serviceMessage,
    rateLimit,
    fromService,
    cause: error,
    charge: 'not-charged' as const,
  };
  return new RateLimitedError(`The Voice API refused for now, ${left} characters left by its figure`, details);
}
