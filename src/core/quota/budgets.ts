// Budgets: how many characters a server may spend a month, a member a day, and how often a member may spend.
// Pure rules, no storage: accounting.ts feeds them the figures.
import { nextDayStart, nextMonthStart } from './calendar.ts';

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
