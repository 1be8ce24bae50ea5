// A budget hold lives as long as its request: renewed while the request lives, so a request
// queued past BUDGET_HOLD_TTL_MS still counts; a hold nobody renews (its process crashed) still expires.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUDGET_HOLD_TTL_MS } from '../../../src/core/quota/accounting.ts';
import { budgetPassed } from '../../../src/core/quota/money.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { booksOn, paid, refusalKey } from './helpers.ts';

const NOW = new Date('2025-03-10T12:00:00Z');
const budgets = { guildMonthlyChars: 20_000, memberDailyChars: 0, memberCooldownSeconds: 0 };
const member = (n: number) => ({ guildId: 'G', userId: `member-${n}`, command: 'say' });

let store: Store;
beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
});

describe('budget holds under long queues', () => {
  it('six queued requests of 3,300 characters keep their holds past BUDGET_HOLD_TTL_MS: nothing more passes a 20,000 budget', async () => {
    const books = booksOn(store, { budgets, now: () => new Date() });
    const queued = [];
    for (let i = 0; i < 6; i++) queued.push(await books.authorize(member(i), [paid(3300, `part ${i}`)]));
    // The queue plays for an hour: each request fetches its part only when its turn comes.
    await vi.advanceTimersByTimeAsync(4 * BUDGET_HOLD_TTL_MS);
    expect(await refusalKey(books.authorize(member(7), [paid(3300, 'late')]))).toBe('budget.refused.guildMonth');
    for (const [i, charge] of queued.entries()) {
      await charge.record(`part ${i}`, { endpoint: 'tts', characters: 3300, cached: false });
      charge.close();
      await vi.advanceTimersByTimeAsync(BUDGET_HOLD_TTL_MS);
    }
    expect((await store.spends.monthTotals('2025-03', 'G')).spent).toBe(19_800);
    expect(await refusalKey(books.authorize(member(8), [paid(3300, 'after')]))).toBe('budget.refused.guildMonth');
    const small = await books.authorize(member(8), [paid(200, 'fits')]);
    small.close();
    await books.close();
  });

  it('a hold left by a process that crashed (never renewed) still expires after BUDGET_HOLD_TTL_MS', async () => {
    const books = booksOn(store, { budgets, now: () => new Date() });
    const crashed = await store.budgets.hold({
      guildId: 'G',
      userId: 'gone',
      characters: 20_000,
      limits: { guildMonthlyChars: 20_000 },
      refuses: budgetPassed,
      ttlMs: BUDGET_HOLD_TTL_MS,
    });
    expect(crashed.status).toBe('held');
    expect(await refusalKey(books.authorize(member(1), [paid(100, 'blocked')]))).toBe('budget.refused.guildMonth');
    await vi.advanceTimersByTimeAsync(BUDGET_HOLD_TTL_MS);
    const charge = await books.authorize(member(1), [paid(100, 'free again')]);
    expect(charge.reserved).toBe(100);
    charge.close();
    await books.close();
  });
});
