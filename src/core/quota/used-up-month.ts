// The used-up month: the service's own 429 "quota exceeded" marks it, and the mark must never outlive the operator
// fixing it. Every paid call runs under it (callUnderQuota): such a 429 marks the month used up before the caller
// hears of it, unless the service says characters are left (only this request is too long for them: that is what
// the caller is told); any other answer's usage figures may show that a used-up month is over. Only the service may
// say the month is used up: a 429 whose answer the retry rule (src/core/api/response.ts) does not prove the service's
// own, with its usage figures (a rate-limiting proxy's page, a gateway's JSON without the service's figures), is a
// refusal on the way, worded as what SayBot knows, and marks nothing, as a gateway's 401 or 403 does. The service's
// last figure of what is left (service-figures.ts) is a hint the same way: a request it leaves too few for goes out
// one at a time, through the same turn, so characters bought or a new month are seen at the next request.
import { QuotaExceededError, VoiceApiError, type UsageInfo } from '../api/errors.ts';
import { accountRefusalProven } from '../api/response.ts';
import type { Logger } from '../log.ts';
import { Refusal } from '../refusal.ts';
import type { QuotaMarkAccount, QuotaState } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';
import { nextMonthStart } from './calendar.ts';
import { knownTooFew, serviceFiguresOf } from './service-figures.ts';

/** The account SayBot runs under now: a change since the month was marked means the operator acted. */
export interface CurrentAccount {
  /** A fingerprint of the API key (VoiceApiClient.keyFingerprint), never the key. */
  fingerprint: string;
  /** VOICE_API_PLAN. */
  plan: string;
}

/** A request allowed through a marked month to find out whether the quota is back. */
export interface Probe {
  readonly id: symbol;
  readonly startedAt: number;
  /** The store hold that is the turn to probe, shared by every process (released by Accounting). */
  readonly hold: string;
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
 * A probe that has not had its answer by then no longer blocks the next one: its request may be waiting behind
 * a long voice queue (a part is fetched just before its turn), and the others must not wait for it.
 */
export const PROBE_TURN_MS = 30_000;

/**
 * The used-up month: a 429 "quota exceeded" marks it, and it must never outlive the operator fixing it.
 *
 * While marked, one request at a time goes out (a 429 bills nothing, so asking costs nothing) and the others
 * are refused at once, naming the mark; so is the next part of a request accepted before the month was marked, as
 * it is about to be sent (Accounting's write ahead), since the service would refuse it the same way. The mark is cleared by: the first request the service accepts; any
 * answer that shows characters left or a higher monthly limit than when it was marked (a plan upgrade or a
 * top-up shows so); a start under another API key or plan; and the reset date passing. It never depends on the
 * configured plan alone: the service's own answers decide.
 */
export class UsedUpMonth {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #account: CurrentAccount | undefined;
  /** This process's request finding out whether the quota is back, if one is under way. */
  #probe: Probe | undefined;
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
    await this.#start();
    const mark = (await this.#store.quota.get()).exhausted;
    if (mark && mark.resetAt <= this.#now()) {
      await this.#clear('the reset date has passed');
      return undefined;
    }
    return mark;
  }

  /**
   * For a request that would spend `needed` characters: nothing when the month is not marked and the service's last
   * figure leaves enough (or is not to be taken: service-figures.ts knownTooFew); a probe when one of them says no and
   * no other request is finding out; otherwise a refusal (Refusal) naming the mark, or the figure.
   */
  async admit(needed: number): Promise<Probe | undefined> {
    const mark = await this.current();
    const at = this.#now();
    const tooFew = mark ? undefined : await this.#tooFew(needed, at);
    // What the others are told while this one finds out.
    const refusal = mark
      ? new Refusal({ code: 'quota-used-up', markedAt: mark.markedAt, resetAt: mark.resetAt })
      : tooFew && tooFewLeft(tooFew, needed, at);
    if (refusal === undefined) return undefined;
    const turn = await this.#store.budgets.hold({
      ...PROBE_TURN,
      characters: 1,
      limits: { guildMonthlyChars: 1 },
      ttlMs: PROBE_TURN_MS,
      at,
    });
    if (turn.status === 'refused') throw refusal;
    const probe: Probe = { id: Symbol('quota probe'), startedAt: at.getTime(), hold: turn.token };
    this.#probe = probe;
    if (mark)
      this.#log.info(
        { resetAt: mark.resetAt.toISOString() },
        'monthly quota marked used up: one request goes out to find out whether it is back',
      );
    else
      this.#log.info(
        { code: 'quota-too-few-left', left: tooFew?.left, needed },
        "the service's last figure leaves too few characters: one request goes out to find out whether more were bought",
      );
    return probe;
  }

  /**
   * A part about to be sent by a request that is not the one finding out: refused (nothing sent) when the service's
   * last figure leaves too few characters for it, as the service would refuse it.
   */
  async fits(characters: number): Promise<void> {
    const at = this.#now();
    const tooFew = await this.#tooFew(characters, at);
    if (tooFew === undefined) return;
    this.#log.info(
      { code: 'quota-too-few-left', left: tooFew.left, needed: characters },
      "not sent: the service's last figure leaves too few characters for this part",
    );
    throw tooFewLeft(tooFew, characters, at);
  }

  async #tooFew(needed: number, at: Date): Promise<ReturnType<typeof knownTooFew>> {
    return knownTooFew((await this.#store.quota.get()).service, needed, at, this.#since);
  }

  /**
   * The probe's request is over (accepted, refused or failed): the next request may find out. Returns the turn's
   * hold to release the first time, undefined after (or for a probe whose turn had already run out).
   */
  settle(probe: Probe | undefined): string | undefined {
    if (probe === undefined || this.#probe !== probe) return undefined;
    this.#probe = undefined;
    return probe.hold;
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
    const limit =
      error.rateLimit?.limit ??
      (state.service?.month === now.toISOString().slice(0, 7) ? state.service.limit : undefined);
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

/** The refusal of `needed` characters the service's last figure (`tooFew`) leaves too few for. */
function tooFewLeft(tooFew: { left: number; resetAt?: Date }, needed: number, at: Date): Refusal {
  const resetAt = tooFew.resetAt ?? nextMonthStart(at);
  return new Refusal({ code: 'quota-too-few-left', left: tooFew.left, needed, resetAt }, { level: 'warn' });
}

/** What a paid call's failure is told to: the books (Accounting), which keep the month's mark. */
export interface QuotaBooks {
  /** The service's own 429: the month is used up. */
  quotaExceeded(error: QuotaExceededError): Promise<unknown>;
  /** Any other answer's usage figures, which may end a used-up month. */
  observeUsage(usage: UsageInfo | undefined): Promise<void>;
  /** The usage figures of a refusal proven the service's own: the month as the service counts it. */
  noteServiceFigures(usage: UsageInfo): Promise<void>;
}

/** Runs one API call of `characters` under the month's quota policy. */
export async function callUnderQuota<T>(
  accounting: QuotaBooks | undefined,
  log: Logger,
  characters: number,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const figures = serviceFiguresOf(error);
    if (figures !== undefined) await accounting?.noteServiceFigures(figures);
    const left = error instanceof VoiceApiError ? error.rateLimit?.remaining : undefined;
    const proven = error instanceof QuotaExceededError && accountRefusalProven(error);
    if (proven && left !== undefined && left > 0 && left < characters) {
      const reset = error.rateLimit?.resetAt;
      throw new Refusal(
        { code: 'quota-too-few-left', left, needed: characters, resetAt: reset ?? nextMonthStart(new Date()) },
        { cause: error, level: 'warn' },
      );
    }
    if (saysMonthUsedUp(error))
      await accounting
        ?.quotaExceeded(error)
        .catch((e: unknown) => log.error({ err: e }, 'could not record the used-up quota'));
    else await accounting?.observeUsage(figures);
    throw error;
  }
}

/**
 * Whether a failure is the service itself saying the month is used up: its own 429 (the retry rule proved the answer
 * the service's: its headers and its JSON error body; accountRefusalProven) whose figures, if it sends any, leave
 * nothing.
 */
export function saysMonthUsedUp(error: unknown): error is QuotaExceededError {
  if (!(error instanceof QuotaExceededError) || !accountRefusalProven(error)) return false;
  const left = error.rateLimit?.remaining;
  return left === undefined || left === 0;
}
