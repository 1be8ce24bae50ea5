import type { BudgetHoldLimits, BudgetHoldResult } from './types.ts';

/** What is used against each limit: characters spent (not cached) plus live holds, as each backend sums them. */
export type UsedAgainst = Record<keyof BudgetHoldLimits, number>;

/** The first limit `needed` more characters would pass, or undefined when all have room. Same rule on both backends. */
export function firstRefusal(limits: BudgetHoldLimits, used: UsedAgainst, needed: number): Extract<BudgetHoldResult, { status: 'refused' }> | undefined {
  for (const budget of ['memberDailyChars', 'guildMonthlyChars', 'botMonthlyChars'] as const) {
    const limit = limits[budget];
    if (limit !== undefined && used[budget] + needed > limit) return { status: 'refused', budget, limit, used: used[budget], needed };
  }
  return undefined;
}

/** The UTC month and day keys of a moment, as spends store them. */
export function holdKeys(at: Date): { month: string; day: string } {
  const iso = at.toISOString();
  return { month: iso.slice(0, 7), day: iso.slice(0, 10) };
}
