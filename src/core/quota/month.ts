// The month as the service counts it (ServiceMonth), a record and nothing more: its used-up mark and the usage figures
// its answers carry (X-RateLimit-*, kept with when they arrived in store.quota, src/core/store/areas/quota-state.ts),
// read, written and cleared as it is told, and the one probe whether characters are back, kept in the store. Whether
// the month refuses an order (the mark standing, too few left) is acceptance's (src/core/quota/money.ts monthRefusal);
// what an answer says of the month is the payment's (src/core/quota/paid-call.ts heard).
import type { UsageInfo } from '../api/errors.ts';
import type { Logger } from '../log.ts';
import type { BudgetRule, QuotaState } from '../store/quota-store.ts';
import type { Store } from '../store/types.ts';

/** The account SayBot runs under now: a change since the month was marked means the operator acted. */
export interface CurrentAccount {
  /** A fingerprint of the API key (VoiceApiClient.keyFingerprint), never the key. */
  fingerprint: string;
  /** VOICE_API_PLAN. */
  plan: string;
}

// The probe to find out whether the month is back, kept in the store as a one-character hold, limited to one, under a
// guild no Discord guild can have (snowflake 0): the store's check-and-hold is serialised across processes, so one
// request at a time goes out from all shards together. Only the bot-wide budget counts it, as one character a while.
const MONTH_PROBE = { guildId: '0', userId: 'quota-probe' } as const;

/** A probe whose request has had no answer by then no longer blocks the next one: its process died and did not restart. */
export const PROBE_MS = 30_000;

export class ServiceMonth {
  readonly #store: Store;
  readonly #log: Logger;
  readonly now: () => Date;
  readonly account: CurrentAccount | undefined;
  /** Acceptance's budget rule (money.ts), which the probe's hold (limited to one) is checked by. */
  readonly #refuses: BudgetRule;
  /** Whose process its probe is: that process's restart frees it at once (Accounting.recover). */
  readonly #owner: string;
  /** This start: the service's figures kept from before it are not taken without a new answer (money.ts). */
  readonly since: Date;

  constructor(options: {
    store: Store;
    logger: Logger;
    now: () => Date;
    account?: CurrentAccount;
    rule: BudgetRule;
    owner: string;
  }) {
    this.#store = options.store;
    this.#log = options.logger;
    this.now = options.now;
    this.account = options.account;
    this.#refuses = options.rule;
    this.#owner = options.owner;
    this.since = this.now();
  }

  /** The mark and the service's last figures, as stored. */
  state(): Promise<QuotaState> {
    return this.#store.quota.get();
  }

  /** The one probe, shared by every process; undefined while another request holds it. Held by its process's owner. */
  async takeProbe(): Promise<string | undefined> {
    const hold = { characters: 1, limits: { guildMonthlyChars: 1 }, refuses: this.#refuses, owner: this.#owner };
    const probe = await this.#store.budgets.hold({ ...MONTH_PROBE, ...hold, ttlMs: PROBE_MS, at: this.now() });
    return probe.status === 'held' ? probe.token : undefined;
  }

  /** The probe given back at once, as told (one only tried). */
  releaseProbe(probe: string): Promise<void> {
    return this.#store.budgets.release(probe);
  }

  /** Marked used up until `resetAt`, under this account, with the limit said; never throws. */
  async markUsedUp(resetAt: Date, limit: number | undefined): Promise<void> {
    const now = this.now();
    const { fingerprint: account, plan } = this.account ?? {};
    await this.#store.quota.markExhausted(resetAt, now, { account, plan, limit }).then(
      () =>
        this.#log.error(
          { code: 'quota-used-up', resetAt: resetAt.toISOString(), limit },
          'monthly quota used up: one request at a time goes out to see whether it is back; upgrading the plan, buying characters or changing the key ends this at the next request',
        ),
      (e: unknown) => this.#log.error({ err: e }, 'could not record the used-up quota'),
    );
  }

  /** The service's figures kept, as a 2xx's are (/usage tells the month as the service counts it); never throws. */
  async keep(figures: UsageInfo): Promise<void> {
    await this.#store.quota
      .noteService(figures, this.now())
      .catch((e: unknown) => this.#log.error({ err: e }, "could not keep the service's usage figures"));
  }

  /** The mark cleared, `why` logged, if there is one (one read when there is none); never throws. */
  async clear(why: string): Promise<void> {
    try {
      if ((await this.#store.quota.get()).exhausted && (await this.#store.quota.clearExhausted()))
        this.#log.warn(
          { code: 'quota-available-again', reason: why },
          `monthly quota no longer marked used up: ${why}`,
        );
    } catch (error) {
      this.#log.error({ err: error }, 'could not clear the used-up month');
    }
  }
}
