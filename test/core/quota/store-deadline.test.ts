// A store that hangs is a refusal, not a stall: on the real PostgreSQL the tests start, another
// session holds the lock one guild's budget hold needs; that guild's request is refused ("storage unavailable")
// after the deadline, while another guild's request goes through meanwhile.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { budgetLockKey } from '../../../src/core/store/areas/budget-holds.ts';
import { openPgStore } from '../../../src/app/store.ts';
import type { Store } from '../../../src/core/store/types.ts';
import { POSTGRES_SKIPPED, postgresBackend } from '../store/backends.ts';
import { booksOn, paid } from './helpers.ts';

const budgets = { guildMonthlyChars: 10_000, memberDailyChars: 0, memberCooldownSeconds: 0 };
const stuck = { guildId: '200000000000000001', userId: '300000000000000001', command: 'say' };
const other = { guildId: '200000000000000002', userId: '300000000000000002', command: 'say' };

const skipped = POSTGRES_SKIPPED;
describe.skipIf(skipped !== undefined)('a PostgreSQL store that hangs', () => {
  const backend = postgresBackend();
  let store: Store;
  let blocker: pg.Client | undefined;

  beforeAll(async () => {
    store = await backend.open();
  }, 120_000);
  afterEach(async () => {
    await blocker?.query('ROLLBACK').catch(() => {});
    await blocker?.end();
    blocker = undefined;
  });
  afterAll(async () => {
    await store?.close();
    await backend.stop();
  });

  it("refuses the stuck guild's request after the deadline while another guild's goes through", async () => {
    blocker = new pg.Client({ connectionString: backend.url() });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [budgetLockKey(stuck.guildId)]);

    const books = booksOn(store, { budgets, storeDeadlineMs: 1500 });
    const order: string[] = [];
    const refused = books.authorize(stuck, [paid(10, 'stuck')]).then(
      () => 'held',
      (error: unknown) => (error instanceof Refusal ? describeFailure(error).message.key : String(error)),
    );
    void refused.then(() => order.push('stuck settled'));
    const fine = await books.authorize(other, [paid(10, 'fine')]);
    order.push('other held');
    expect(fine.reserved).toBe(10);
    fine.close();
    expect(await refused).toBe('quota.storageUnavailable');
    expect(order).toEqual(['other held', 'stuck settled']);

    // Once the other session lets go, the guild is served again, and the refused request left no hold behind.
    await blocker.query('ROLLBACK');
    const later = await books.authorize(stuck, [paid(10_000, 'whole budget')]);
    expect(later.reserved).toBe(10_000);
    later.close();
    books.close();
  }, 60_000);

  it("turns PostgreSQL's own lock timeout (DATABASE_LOCK_TIMEOUT_MS) into the same refusal, before a longer deadline", async () => {
    blocker = new pg.Client({ connectionString: backend.url() });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [budgetLockKey(stuck.guildId)]);
    const impatient = await openPgStore(backend.url(), { timeouts: { lockMs: 300 } });
    const books = booksOn(impatient, { budgets, storeDeadlineMs: 60_000 });
    try {
      const error = await books.authorize(stuck, [paid(10, 'stuck')]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Refusal);
      expect((error as Refusal).reason.code).toBe('storage-unavailable');
      expect(((error as Refusal).cause as { code?: string }).code).toBe('55P03');
    } finally {
      books.close();
      await impatient.close();
    }
  }, 60_000);
});
