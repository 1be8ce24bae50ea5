// Auto-read and the budget rules (src/core/quota/money.ts): a chat message is not a /say, so the member cooldown does
// not hold it back; the day and month budgets count every character it reads.
import { describe, expect, it } from 'vitest';
import { CHANNEL_READING as AUTOREAD } from '../../../../src/features/autoread/reading/reader.ts';
import { Accounting, checkBudgets } from '../../../../src/core/quota/money.ts';

const { budgetsForRequest } = Accounting;
import { type OperatorBudgets } from '../../../../src/core/config.ts';
import { MEMBER_REQUEST as SAY } from '../../../../src/core/order/pipeline.ts';

const limits: OperatorBudgets = { guildMonthlyChars: 1000, memberDailyChars: 100, memberCooldownSeconds: 60 };
const now = new Date('2026-05-10T12:00:00Z');
const justSpent = { guildMonthChars: 0, memberDayChars: 10, memberLastSpendAt: new Date(now.getTime() - 5_000) };

describe('budgets for auto-read', () => {
  it('lifts the member cooldown for autoread only', () => {
    expect(budgetsForRequest(limits, AUTOREAD)).toEqual({ ...limits, memberCooldownSeconds: 0 });
    expect(budgetsForRequest(limits, SAY)).toEqual(limits);
    expect(checkBudgets(budgetsForRequest(limits, SAY), justSpent, 10, now)).toMatchObject({
      budget: 'memberCooldownSeconds',
    });
    expect(checkBudgets(budgetsForRequest(limits, AUTOREAD), justSpent, 10, now)).toBeUndefined();
  });

  it('keeps the day and month budgets for autoread', () => {
    expect(checkBudgets(budgetsForRequest(limits, AUTOREAD), justSpent, 91, now)).toMatchObject({
      budget: 'memberDailyChars',
      limit: 100,
    });
    const month = { ...justSpent, guildMonthChars: 995 };
    expect(checkBudgets(budgetsForRequest(limits, AUTOREAD), month, 10, now)).toMatchObject({
      budget: 'guildMonthlyChars',
    });
  });
});
