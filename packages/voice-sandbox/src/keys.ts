import { randomBytes } from 'node:crypto';

/** The plans with API access and their characters a month (Voice API part 1), written here from the document. */
const API_PLAN_LIMITS = { creator: 300_000, pro: 700_000, business: 4_000_000 } as const;
export type ApiPlan = keyof typeof API_PLAN_LIMITS;

/** The plans without API access come first. */
export type Plan = 'free' | 'starter' | ApiPlan;

/** Characters a month, per plan (Voice API part 1). */
export const PLAN_LIMITS: Readonly<Record<Plan, number>> = Object.freeze({
  free: 10_000,
  starter: 100_000,
  ...API_PLAN_LIMITS,
});

export function planHasApiAccess(plan: Plan): plan is ApiPlan {
  return Object.hasOwn(API_PLAN_LIMITS, plan);
}

export interface NewKey {
  key?: string;
  plan?: Plan;
  active?: boolean;
  /** Characters already used this month (e.g. in the dashboard). */
  used?: number;
}

export interface KeyAccount {
  readonly key: string;
  plan: Plan;
  active: boolean;
  used: number;
  /** What `used` started at, so that resetting the counters can go back to it. */
  readonly usedAtStart: number;
  /** The UTC month `used` counts, as `YYYY-MM`: usage starts again from 0 when the month changes. */
  month: string;
  billed: number;
}

export interface Usage {
  limit: number;
  used: number;
  remaining: number;
  /** The first day of the next month, UTC: when the monthly count starts again. */
  reset: Date;
}

/** Enough of a key to tell keys apart in records and logs, never enough to use it. */
export function keyHint(key: string): string {
  return key.length >= 16 ? `…${key.slice(-4)}` : '…';
}

function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function nextMonthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

/** API keys, their plans and monthly usage. */
export class KeyStore {
  readonly #accounts = new Map<string, KeyAccount>();
  readonly #now: () => Date;

  constructor(now: () => Date) {
    this.#now = now;
  }

  add({
    key = `sandbox_${randomBytes(16).toString('hex')}`,
    plan = 'creator',
    active = true,
    used = 0,
  }: NewKey): string {
    if (key.length === 0 || /\s/.test(key)) throw new RangeError('a key must be non-empty and without whitespace');
    if (this.#accounts.has(key)) throw new RangeError(`key ${keyHint(key)} already exists`);
    if (!Object.hasOwn(PLAN_LIMITS, plan)) throw new RangeError(`unknown plan: ${String(plan)}`);
    if (!Number.isInteger(used) || used < 0) throw new RangeError('used must be a whole number >= 0');
    const month = monthOf(this.#now());
    this.#accounts.set(key, { key, plan, active, used, usedAtStart: used, month, billed: 0 });
    return key;
  }

  setActive(key: string, active: boolean): void {
    const account = this.#accounts.get(key);
    if (!account) throw new RangeError(`unknown key ${keyHint(key)}`);
    account.active = active;
  }

  /** What an operator does in the dashboard: change the plan (an upgrade raises the monthly limit). */
  setPlan(key: string, plan: Plan): void {
    const account = this.#accounts.get(key);
    if (!account) throw new RangeError(`unknown key ${keyHint(key)}`);
    if (!Object.hasOwn(PLAN_LIMITS, plan)) throw new RangeError(`unknown plan: ${String(plan)}`);
    account.plan = plan;
  }

  /** Sets this month's usage, as use outside the API (the dashboard) or a top-up would. */
  setUsed(key: string, used: number): void {
    const account = this.find(key);
    if (!account) throw new RangeError(`unknown key ${keyHint(key)}`);
    if (!Number.isInteger(used) || used < 0) throw new RangeError('used must be a whole number >= 0');
    account.used = used;
  }

  /** The account behind a key, its usage rolled over to the current month. */
  find(key: string): KeyAccount | undefined {
    const account = this.#accounts.get(key);
    if (account) {
      const month = monthOf(this.#now());
      if (account.month !== month) {
        account.month = month;
        account.used = 0;
      }
    }
    return account;
  }

  usage(account: KeyAccount): Usage {
    const limit = PLAN_LIMITS[account.plan];
    return {
      limit,
      used: account.used,
      remaining: Math.max(0, limit - account.used),
      reset: nextMonthStart(this.#now()),
    };
  }

  bill(account: KeyAccount, characters: number): void {
    account.used += characters;
    account.billed += characters;
  }

  /** Characters billed through the API since the start (or the last reset): one key's, or every key's. */
  billed(key?: string): number {
    if (key !== undefined) return this.#accounts.get(key)?.billed ?? 0;
    let total = 0;
    for (const account of this.#accounts.values()) total += account.billed;
    return total;
  }

  resetUsage(): void {
    for (const account of this.#accounts.values()) {
      account.used = account.usedAtStart;
      account.billed = 0;
    }
  }
}
