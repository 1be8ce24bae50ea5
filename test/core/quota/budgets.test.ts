import { describe, expect, it } from 'vitest';
import { checkBudgets, effectiveBudgets, serverValueAllowed } from '../../../src/core/quota/budgets.ts';

const none = { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 };
const now = new Date('2025-03-10T15:30:00Z');

describe('budgets', () => {
  it("take the lower of the operator's and the server's limits; 0 means none", () => {
    const operator = { guildMonthlyChars: 10_000, memberDailyChars: 0, memberCooldownSeconds: 30 };
    expect(effectiveBudgets(operator, {})).toEqual(operator);
    expect(
      effectiveBudgets(operator, { guildMonthlyChars: 5000, memberDailyChars: 200, memberCooldownSeconds: 60 }),
    ).toEqual({
      guildMonthlyChars: 5000,
      memberDailyChars: 200,
      memberCooldownSeconds: 30,
    });
  });

  it('let a server lower a limit or set one where the operator has none, never raise one', () => {
    const operator = { ...none, guildMonthlyChars: 10_000 };
    expect(serverValueAllowed(operator, 'guildMonthlyChars', 9_999)).toBe(true);
    expect(serverValueAllowed(operator, 'guildMonthlyChars', 10_001)).toBe(false);
    expect(serverValueAllowed(operator, 'guildMonthlyChars', 0)).toBe(true);
    expect(serverValueAllowed(operator, 'memberDailyChars', 1_000_000)).toBe(true);
  });

  it('refuse with the budget broken and when it resets (UTC midnight, the 1st of next month, seconds left)', () => {
    const limits = { guildMonthlyChars: 100, memberDailyChars: 50, memberCooldownSeconds: 60 };
    expect(checkBudgets(limits, { guildMonthChars: 0, memberDayChars: 40 }, 10, now)).toBeUndefined();
    expect(checkBudgets(limits, { guildMonthChars: 0, memberDayChars: 40 }, 11, now)).toEqual({
      budget: 'memberDailyChars',
      limit: 50,
      used: 40,
      needed: 11,
      resetAt: new Date('2025-03-11T00:00:00Z'),
    });
    expect(checkBudgets(limits, { guildMonthChars: 95, memberDayChars: 0 }, 10, now)).toEqual({
      budget: 'guildMonthlyChars',
      limit: 100,
      used: 95,
      needed: 10,
      resetAt: new Date('2025-04-01T00:00:00Z'),
    });
    expect(
      checkBudgets(
        limits,
        { guildMonthChars: 0, memberDayChars: 0, memberLastSpendAt: new Date(now.getTime() - 45_500) },
        1,
        now,
      ),
    ).toEqual({
      budget: 'memberCooldownSeconds',
      limit: 60,
      waitSeconds: 15,
    });
    // Nothing to spend (all cached): no budget applies, not even the cooldown.
    expect(
      checkBudgets(limits, { guildMonthChars: 1000, memberDayChars: 1000, memberLastSpendAt: now }, 0, now),
    ).toBeUndefined();
  });
});
