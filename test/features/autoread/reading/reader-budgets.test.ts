// Auto-read and the budget rules (src/core/quota/money.ts), checked as production checks them (Accounting.authorize
// against a store): a chat message is not a /say, so the member cooldown does not hold it back; the day and month
// budgets count every character it reads.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNEL_READING as AUTOREAD } from '../../../../src/features/autoread/reading/reader.ts';
import { MEMBER_REQUEST as SAY } from '../../../../src/core/order/pipeline.ts';
import { type OperatorBudgets } from '../../../../src/core/config.ts';
import { openSqliteStore } from '../../../../src/app/store.ts';
import type { Store } from '../../../../src/core/store/types.ts';
import type { Refusal } from '../../../../src/core/refusal.ts';
import { booksOn, paid } from '../../../core/quota/helpers.ts';

const limits: OperatorBudgets = { guildMonthlyChars: 1000, memberDailyChars: 100, memberCooldownSeconds: 60 };
const now = new Date('2026-05-10T12:00:00Z');
const member = { guildId: 'G', userId: 'alice', command: 'say' };

let store: Store;
let at: Date;
beforeEach(async () => {
  store = openSqliteStore(':memory:');
  at = now;
  // Just spent: 10 characters today, 5 s ago.
  await store.spends.record({
    ...member,
    at: new Date(now.getTime() - 5_000),
    endpoint: 'tts',
    characters: 10,
    cached: false,
  });
});
afterEach(async () => {
  await store.close();
});

const books = () => booksOn(store, { budgets: limits, now: () => at });
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => (e as Refusal).reason,
  );

describe('budgets for auto-read', () => {
  it('lifts the member cooldown for autoread only', async () => {
    const accounting = books();
    expect(await reasonOf(accounting.authorize(member, [paid(10)], SAY))).toMatchObject({
      code: 'budget-cooldown',
      limit: 60,
    });
    const read = await accounting.authorize(member, [paid(10)], AUTOREAD);
    expect(read.reserved).toBe(10);
    read.close();
  });

  it('keeps the day and month budgets for autoread, as for /say once its cooldown is over', async () => {
    // Someone else in the server spent 985 earlier this month: the server's month stands at 995.
    await store.spends.record({
      ...member,
      userId: 'bob',
      at: new Date('2026-05-02T09:00:00Z'),
      endpoint: 'tts',
      characters: 985,
      cached: false,
    });
    const accounting = books();
    const afterCooldown = new Date(now.getTime() + 60_000);
    for (const [policy, when] of [
      [AUTOREAD, now],
      [SAY, afterCooldown],
    ] as const) {
      at = when;
      expect(await reasonOf(accounting.authorize(member, [paid(91)], policy))).toMatchObject({
        code: 'budget-member-day',
        limit: 100,
        used: 10,
        needed: 91,
      });
      expect(await reasonOf(accounting.authorize(member, [paid(10)], policy))).toMatchObject({
        code: 'budget-guild-month',
        limit: 1000,
        used: 995,
        needed: 10,
      });
    }
  });
});
