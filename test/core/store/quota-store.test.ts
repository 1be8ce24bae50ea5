import { describe, expect, it } from 'vitest';
import type { NewBudgetHold, NewSpend } from '../../../src/core/store/quota-store.ts';
import { scanUrl } from '../../support/db-scan.ts';
import { G1, G2, MEMBER as A, OTHER_MEMBER as B, THIRD_MEMBER as C, forEachBackend } from './contract.ts';

// The quota's areas of the contract (quota-store.ts): spends, the quota state, server budgets, budget holds.

/** A fourth member, for a ranking where what was spent and what was read differ. */
const D = '300000000000000005';

forEachBackend((store, backend) => {
  const spend = (over: Partial<NewSpend>): NewSpend => ({
    at: new Date('2025-03-10T12:00:00Z'),
    guildId: G1,
    userId: A,
    command: 'say',
    endpoint: 'tts',
    characters: 10,
    cached: false,
    ...over,
  });

  describe('spends', () => {
    it('sums spent and saved characters per month, per guild and per member day, in UTC', async () => {
      await store.spends.record(spend({ characters: 10 }));
      await store.spends.record(spend({ characters: 7, cached: true }));
      await store.spends.record(spend({ characters: 5, userId: B }));
      await store.spends.record(spend({ characters: 3, guildId: G2 }));
      // 23:59:59 UTC on the 10th is still the 10th; 00:00 on the 11th is not.
      await store.spends.record(spend({ characters: 2, at: new Date('2025-03-10T23:59:59Z') }));
      await store.spends.record(spend({ characters: 4, at: new Date('2025-03-11T00:00:00Z') }));
      await store.spends.record(spend({ characters: 100, at: new Date('2025-04-01T00:00:00Z') }));

      expect(await store.spends.monthTotals('2025-03')).toEqual({ spent: 24, saved: 7 });
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 21, saved: 7 });
      expect(await store.spends.monthTotals('2025-03', G2)).toEqual({ spent: 3, saved: 0 });
      expect(await store.spends.memberDayTotals(G1, A, '2025-03-10')).toEqual({ spent: 12, saved: 7 });
      expect(await store.spends.memberDayTotals(G1, A, '2025-03-11')).toEqual({ spent: 4, saved: 0 });
      expect(await store.spends.monthTotals('2025-04')).toEqual({ spent: 100, saved: 0 });
    });

    it('counts an undelivered spend (charged, never received) as spent like any other', async () => {
      await store.spends.record(spend({ characters: 9, undelivered: true, requestId: 'req_lost' }));
      await store.spends.record(spend({ characters: 1 }));
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 10, saved: 0 });
      expect(await store.spends.memberDayTotals(G1, A, '2025-03-10')).toEqual({ spent: 10, saved: 0 });
    });

    it('keeps when a member last spent through their deletion on request, as it keeps their day: the cooldown survives it', async () => {
      const deletedAt = new Date('2025-03-10T00:01:00Z');
      await store.spends.record(spend({ at: new Date('2025-03-09T23:58:00Z') }));
      await store.spends.record(spend({ at: new Date('2025-03-09T23:59:00Z') }));
      await store.spends.record(spend({ at: new Date('2025-03-10T00:00:30Z'), cached: true }));
      await store.spends.record(spend({ at: new Date('2025-03-10T00:00:40Z'), userId: B }));
      await store.privacy.forgetMember(A, G1, deletedAt);
      // Yesterday's last spend, across midnight: what a cooldown of up to a day counts from.
      expect(await store.spends.lastSpendAt(G1, A, deletedAt)).toEqual(new Date('2025-03-09T23:59:00Z'));
      expect(await store.spends.lastSpendAt(G2, A, deletedAt)).toBeUndefined();
      expect(await store.spends.lastSpendAt(G1, B, deletedAt)).toEqual(new Date('2025-03-10T00:00:40Z'));
      // Past a day (the longest cooldown) nothing of it is found.
      expect(await store.spends.lastSpendAt(G1, A, new Date('2025-03-11T00:02:00Z'))).toBeUndefined();
      // No row holds the ID any more.
      expect(await store.privacy.describeMember(G1, A)).toEqual([]);
    });

    it('knows when a member last spent, ignoring cache hits and other guilds', async () => {
      expect(await store.spends.lastSpendAt(G1, A)).toBeUndefined();
      await store.spends.record(spend({ at: new Date('2025-03-10T12:00:00Z') }));
      await store.spends.record(spend({ at: new Date('2025-03-10T12:05:00Z'), cached: true }));
      await store.spends.record(spend({ at: new Date('2025-03-10T12:09:00Z'), guildId: G2 }));
      expect(await store.spends.lastSpendAt(G1, A)).toEqual(new Date('2025-03-10T12:00:00Z'));
    });

    it("breaks one guild's month down per UTC day and ranks its members by characters, spent and saved apart (the /usage chart)", async () => {
      await store.spends.record(spend({ at: new Date('2025-03-02T10:00:00Z'), characters: 10 }));
      await store.spends.record(spend({ at: new Date('2025-03-02T23:59:59Z'), characters: 4, cached: true }));
      await store.spends.record(spend({ at: new Date('2025-03-03T00:00:00Z'), userId: B, characters: 30 }));
      await store.spends.record(spend({ at: new Date('2025-03-09T12:00:00Z'), userId: C, characters: 1 }));
      await store.spends.record(
        spend({ at: new Date('2025-03-09T13:00:00Z'), userId: C, characters: 2, cached: true }),
      );
      // Another guild and another month count for neither.
      await store.spends.record(spend({ at: new Date('2025-03-02T10:00:00Z'), guildId: G2, characters: 500 }));
      await store.spends.record(spend({ at: new Date('2025-04-01T00:00:00Z'), characters: 700 }));

      const breakdown = await store.spends.monthBreakdown('2025-03', G1, 2);
      expect(breakdown.days).toEqual([
        { day: '2025-03-02', spent: 10, saved: 4 },
        { day: '2025-03-03', spent: 30, saved: 0 },
        { day: '2025-03-09', spent: 1, saved: 2 },
      ]);
      // B (30) before A (14); C (3) is third, past the two asked for.
      expect(breakdown.members).toEqual([
        { userId: B, spent: 30, saved: 0 },
        { userId: A, spent: 10, saved: 4 },
      ]);
      // Ranked by what they spent: C (1 spent, 2 saved) after a member who spent 2 and saved nothing.
      await store.spends.record(spend({ at: new Date('2025-03-09T14:00:00Z'), userId: D, characters: 2 }));
      expect((await store.spends.monthBreakdown('2025-03', G1, 4)).members.map((m) => m.userId)).toEqual([B, A, D, C]);
      expect(await store.spends.monthBreakdown('2025-05', G1, 5)).toEqual({ days: [], members: [] });
      // One member's month, spent only: A's 10 (not the 4 from the cache, nor April's 700, nor G2's).
      expect(await store.spends.memberMonthSpent(G1, A, '2025-03')).toBe(10);
      expect(await store.spends.memberMonthSpent(G1, C, '2025-03')).toBe(1);
      expect(await store.spends.memberMonthSpent(G1, A, '2025-04')).toBe(700);
      expect(await store.spends.memberMonthSpent(G2, B, '2025-03')).toBe(0);
    });
  });

  describe('spends written ahead', () => {
    const OWNER = 'app:shard-0';
    /** The spends' rows as the database holds them: characters, whose (still being read), undelivered. */
    const rows = async () =>
      (await scanUrl(backend.url())).rows
        .filter((r) => r.table === 'spends')
        .sort((a, b) => Number(a.cells['id']) - Number(b.cells['id']))
        .map((r) => ({
          characters: Number(r.cells['characters']),
          owner: r.cells['owner'] ?? null,
          undelivered: Number(r.cells['undelivered']),
          unconfirmed: Number(r.cells['unconfirmed']),
        }));
    const held = async (characters: number) => {
      const result = await store.budgets.hold({
        guildId: G1,
        userId: A,
        characters,
        limits: { guildMonthlyChars: 100 },
        ttlMs: 60_000,
        at: new Date('2025-03-10T12:00:00Z'),
        owner: OWNER,
      });
      if (result.status !== 'held') throw new Error('not held');
      return result.token;
    };
    /** What a budget (the month's by default) counts (spends plus live holds), as a refused hold reports it. */
    const counted = async (budget: 'guildMonthlyChars' | 'memberDailyChars' = 'guildMonthlyChars') => {
      const probe = await store.budgets.hold({
        guildId: G1,
        userId: A,
        characters: 101,
        limits: { [budget]: 100 },
        ttlMs: 60_000,
        at: new Date('2025-03-10T12:00:00Z'),
      });
      return probe.status === 'refused' ? probe.used : NaN;
    };

    it('count as spent from the moment they are written, moving their characters out of their hold in the same write', async () => {
      const hold = await held(30);
      expect(await counted()).toBe(30);
      const first = await store.spends.record(spend({ characters: 10, owner: OWNER, hold }));
      expect(typeof first).toBe('number');
      expect(await counted()).toBe(30);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 10, saved: 0 });
      // The hold's last characters: the hold is gone with them (no hold of 0 characters is left).
      await store.spends.record(spend({ characters: 20, owner: OWNER, hold }));
      expect(await counted()).toBe(30);
      await store.budgets.release(hold);
      expect(await counted()).toBe(30);
      expect(await rows()).toEqual([
        { characters: 10, owner: OWNER, undelivered: 0, unconfirmed: 0 },
        { characters: 20, owner: OWNER, undelivered: 0, unconfirmed: 0 },
      ]);
    });

    it('are finished once, delivered or undelivered; a finish after that changes nothing', async () => {
      const delivered = await store.spends.record(spend({ characters: 4, owner: OWNER }));
      const lost = await store.spends.record(spend({ characters: 6, owner: OWNER }));
      await store.spends.finish(delivered, 'delivered');
      await store.spends.finish(lost, 'undelivered');
      await store.spends.finish(lost, 'delivered');
      expect(await rows()).toEqual([
        { characters: 4, owner: null, undelivered: 0, unconfirmed: 0 },
        { characters: 6, owner: null, undelivered: 1, unconfirmed: 0 },
      ]);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 10, saved: 0 });
    });

    it("left by a dead process: its next start finishes its own spends written ahead as undelivered and releases its holds, no one else's", async () => {
      await held(15);
      const elsewhere = await store.budgets.hold({
        guildId: G1,
        userId: B,
        characters: 5,
        limits: { guildMonthlyChars: 100 },
        ttlMs: 60_000,
        at: new Date('2025-03-10T12:00:00Z'),
        owner: 'app:shard-1',
      });
      expect(elsewhere.status).toBe('held');
      await store.spends.record(spend({ characters: 7, owner: OWNER }));
      await store.spends.record(spend({ characters: 3, owner: 'app:shard-1' }));
      const finished = await store.spends.record(spend({ characters: 2, owner: OWNER }));
      await store.spends.finish(finished, 'delivered');
      expect(await counted()).toBe(15 + 5 + 7 + 3 + 2);

      // Written before its request left, no answer seen when the process died.
      await store.spends.record(spend({ characters: 4, owner: OWNER, unconfirmed: true }));
      expect(await counted()).toBe(15 + 5 + 7 + 3 + 2 + 4);

      expect(await store.spends.finishLeftBy(OWNER)).toEqual({ confirmed: 1, inFlight: 1, inFlightCharacters: 4 });
      expect(await store.budgets.releaseLeftBy(OWNER)).toBe(1);
      // What was in flight stays spent: the service may have charged it.
      expect(await counted()).toBe(5 + 7 + 3 + 2 + 4);
      expect(await rows()).toEqual([
        { characters: 7, owner: null, undelivered: 1, unconfirmed: 0 },
        { characters: 3, owner: 'app:shard-1', undelivered: 0, unconfirmed: 0 },
        { characters: 2, owner: null, undelivered: 0, unconfirmed: 0 },
        { characters: 4, owner: null, undelivered: 1, unconfirmed: 1 },
      ]);
      // Nothing left of it: a second start finds nothing to finish.
      expect(await store.spends.finishLeftBy(OWNER)).toEqual({ confirmed: 0, inFlight: 0, inFlightCharacters: 0 });
      expect(await store.budgets.releaseLeftBy(OWNER)).toBe(0);
    });

    it("written before the request left: the service's 2xx confirms it with its figures, and changes no count", async () => {
      const hold = await held(30);
      const id = await store.spends.record(spend({ characters: 10, owner: OWNER, hold, unconfirmed: true }));
      expect(await counted()).toBe(30);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 10, saved: 0 });
      const resetAt = new Date('2025-04-01T00:00:00Z');
      await store.spends.confirm(id, {
        requestId: 'req_1',
        service: { used: 50, limit: 300_000, remaining: 299_950, resetAt },
        at: new Date('2025-03-10T12:00:01Z'),
      });
      expect(await counted()).toBe(30);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 10, saved: 0 });
      expect((await store.quota.get()).service).toMatchObject({ month: '2025-03', used: 50, remaining: 299_950 });
      // Accepted: a definite "not charged" can no longer take it back.
      expect(await store.spends.erase(id, spend({ characters: 10, owner: OWNER, hold }))).toBe(false);
      await store.spends.finish(id, 'delivered');
      expect(await rows()).toEqual([{ characters: 10, owner: null, undelivered: 0, unconfirmed: 0 }]);
    });

    it('taken back on a definite "not charged": its row and running totals, its characters back to its live hold', async () => {
      const hold = await held(30);
      await store.spends.record(spend({ characters: 5, userId: B }));
      const sent = spend({ characters: 10, owner: OWNER, hold, unconfirmed: true });
      const id = await store.spends.record(sent);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 15, saved: 0 });
      expect(await store.spends.erase(id, sent)).toBe(true);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 5, saved: 0 });
      expect(await store.spends.memberDayTotals(G1, A, '2025-03-10')).toEqual({ spent: 0, saved: 0 });
      // The request may send the part again: its hold has the characters back while it lives.
      expect(await counted()).toBe(5 + 30);
      await store.budgets.release(hold);
      expect(await counted()).toBe(5);
      expect(await store.spends.erase(id, sent)).toBe(false);
      expect(await store.spends.finishLeftBy(OWNER)).toEqual({ confirmed: 0, inFlight: 0, inFlightCharacters: 0 });
    });

    it('written again by the same token (its first answer lost): one row, counted once', async () => {
      const saving = spend({ characters: 6, cached: true, token: 'saved-once' });
      const paidOnce = spend({ characters: 9, token: 'paid-once' });
      for (const row of [saving, saving, paidOnce, paidOnce]) await store.spends.record(row);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 9, saved: 6 });
      expect(await store.spends.memberDayTotals(G1, A, '2025-03-10')).toEqual({ spent: 9, saved: 6 });
      expect(await counted()).toBe(9);
    });

    it('written ahead, its answer lost (no ID known): taken back by its token, once; no other row touched', async () => {
      const hold = await held(30);
      await store.spends.record(spend({ characters: 7, owner: OWNER, unconfirmed: true, token: 'other' }));
      const lost = spend({ characters: 10, owner: OWNER, hold, unconfirmed: true, token: 'lost-answer' });
      await store.spends.record(lost);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 17, saved: 0 });
      expect(await store.spends.erase(undefined, lost)).toBe(true);
      expect(await store.spends.erase(undefined, lost)).toBe(false);
      expect(await store.spends.monthTotals('2025-03', G1)).toEqual({ spent: 7, saved: 0 });
      expect(await counted()).toBe(7 + 30);
      expect(await store.spends.finishLeftBy(OWNER)).toEqual({ confirmed: 0, inFlight: 1, inFlightCharacters: 7 });
    });

    it('taken back after its member asked to be forgotten: the pseudonym their day now counts under is lowered', async () => {
      const sent = spend({ characters: 10, owner: OWNER, unconfirmed: true });
      const id = await store.spends.record(sent);
      await store.privacy.forgetMember(A, G1, new Date('2025-03-10T12:00:00Z'));
      expect(await counted('memberDailyChars')).toBe(10);
      expect(await store.spends.erase(id, sent)).toBe(true);
      expect(await counted('memberDailyChars')).toBe(0);
      expect(await counted()).toBe(0);
    });
  });

  describe('quota state', () => {
    it("keeps the latest answer's figures, as the service counts them, and starts over with a new month", async () => {
      const resetAt = new Date('2025-04-01T00:00:00Z');
      await store.spends.record(spend({ service: { limit: 300_000, used: 40, remaining: 299_960, resetAt } }));
      // Fewer used under the same limit: characters bought or freed at the service (or an answer that crossed another
      // on the way, off by at most what was then in flight): the service's latest word is the month.
      await store.spends.record(spend({ service: { limit: 300_000, used: 30, remaining: 299_970, resetAt } }));
      expect((await store.quota.get()).service).toMatchObject({
        month: '2025-03',
        used: 30,
        remaining: 299_970,
        limit: 300_000,
        resetAt,
      });
      // An answer that carries only some figures keeps the month's others.
      await store.spends.record(spend({ service: { used: 35 } }));
      expect((await store.quota.get()).service).toMatchObject({ month: '2025-03', used: 35, remaining: 299_970 });
      await store.spends.record(spend({ at: new Date('2025-04-01T01:00:00Z'), service: { used: 10 } }));
      expect((await store.quota.get()).service).toMatchObject({ month: '2025-04', used: 10 });
    });

    it('keeps the used-up mark with the account it was made under until it is cleared; spends do not clear it (that is policy)', async () => {
      const resetAt = new Date('2025-04-01T00:00:00Z');
      const markedAt = new Date('2025-03-20T00:00:00Z');
      await store.quota.markExhausted(resetAt, markedAt, { account: 'abcd', plan: 'creator', limit: 300_000 });
      expect((await store.quota.get()).exhausted).toEqual({
        resetAt,
        markedAt,
        account: 'abcd',
        plan: 'creator',
        limit: 300_000,
      });
      await store.spends.record(spend({ cached: false }));
      expect((await store.quota.get()).exhausted).toBeDefined();
      expect(await store.quota.clearExhausted()).toBe(true);
      expect((await store.quota.get()).exhausted).toBeUndefined();
      expect(await store.quota.clearExhausted()).toBe(false);
      // Marked without an account: only the dates come back.
      await store.quota.markExhausted(resetAt, markedAt);
      expect((await store.quota.get()).exhausted).toEqual({ resetAt, markedAt });
    });
  });

  describe('server budgets', () => {
    it('sets, keeps what is left out, clears with null, per guild', async () => {
      expect(await store.budgets.get(G1)).toEqual({});
      expect(await store.budgets.set(G1, { guildMonthlyChars: 5000, memberCooldownSeconds: 30 }, A)).toEqual({
        guildMonthlyChars: 5000,
        memberCooldownSeconds: 30,
      });
      expect(await store.budgets.set(G1, { memberDailyChars: 200, memberCooldownSeconds: null }, A)).toEqual({
        guildMonthlyChars: 5000,
        memberDailyChars: 200,
      });
      expect(await store.budgets.get(G2)).toEqual({});
    });
  });

  describe('budget holds', () => {
    const at = new Date('2025-03-10T12:00:00Z');
    const hold = (characters: number, over: Partial<NewBudgetHold> = {}): NewBudgetHold => ({
      guildId: G1,
      userId: A,
      characters,
      limits: { guildMonthlyChars: 100 },
      ttlMs: 60_000,
      at,
      ...over,
    });

    it('counts spends and live holds against each limit, says which refused, and frees a released hold', async () => {
      await store.spends.record(spend({ characters: 50 }));
      await store.spends.record(spend({ characters: 500, cached: true })); // saved characters use no budget
      const first = await store.budgets.hold(hold(30));
      expect(first.status).toBe('held');
      expect(await store.budgets.hold(hold(30))).toEqual({
        status: 'refused',
        budget: 'guildMonthlyChars',
        limit: 100,
        used: 80,
        needed: 30,
      });
      expect((await store.budgets.hold(hold(5, { limits: { memberDailyChars: 84 } }))).status).toBe('refused');
      expect(await store.budgets.hold(hold(5, { guildId: G2, limits: { botMonthlyChars: 84 } }))).toMatchObject({
        status: 'refused',
        budget: 'botMonthlyChars',
      });
      if (first.status === 'held') await store.budgets.release(first.token);
      expect((await store.budgets.hold(hold(30))).status).toBe('held');
    });

    it("checks the limits in the order it is given them, the first one passed refusing (the rule is the caller's)", async () => {
      await store.spends.record(spend({ characters: 50 }));
      const both = { memberDailyChars: 60, guildMonthlyChars: 60 };
      expect(await store.budgets.hold(hold(20, { limits: both }))).toMatchObject({ budget: 'memberDailyChars' });
      const guildFirst = { guildMonthlyChars: 60, memberDailyChars: 60 };
      expect(await store.budgets.hold(hold(20, { limits: guildFirst }))).toEqual({
        status: 'refused',
        budget: 'guildMonthlyChars',
        limit: 60,
        used: 50,
        needed: 20,
      });
    });

    it('stops counting a hold once it expires (a process that crashed holding it)', async () => {
      expect((await store.budgets.hold(hold(100, { ttlMs: 1000 }))).status).toBe('held');
      expect((await store.budgets.hold(hold(1, { at: new Date(at.getTime() + 999) }))).status).toBe('refused');
      expect((await store.budgets.hold(hold(1, { at: new Date(at.getTime() + 1000) }))).status).toBe('held');
    });

    it('keeps a renewed hold past its first expiry; an unrenewed one still expires', async () => {
      const renewed = await store.budgets.hold(hold(60, { ttlMs: 1000 }));
      expect((await store.budgets.hold(hold(40, { ttlMs: 1000, userId: B }))).status).toBe('held');
      if (renewed.status !== 'held') throw new Error('not held');
      await store.budgets.renew([renewed.token, 'no-such-token'], new Date(at.getTime() + 5000));
      const later = new Date(at.getTime() + 2000);
      expect(await store.budgets.hold(hold(41, { at: later }))).toMatchObject({ status: 'refused', used: 60 });
      expect((await store.budgets.hold(hold(40, { at: later }))).status).toBe('held');
    });

    it('checks day and month limits against running totals that match the spends, per guild and member', async () => {
      await store.spends.record(spend({ characters: 30 }));
      await store.spends.record(spend({ characters: 20, userId: B }));
      await store.spends.record(spend({ characters: 900, cached: true }));
      await store.spends.record(spend({ characters: 500, guildId: G2 }));
      await store.spends.record(spend({ characters: 700, at: new Date('2025-02-28T23:59:59Z') }));
      await store.spends.record(spend({ characters: 15, at: new Date('2025-03-09T10:00:00Z') }));
      expect(await store.budgets.hold(hold(36, { limits: { guildMonthlyChars: 100 } }))).toMatchObject({
        status: 'refused',
        used: 65,
      });
      expect(await store.budgets.hold(hold(71, { limits: { memberDailyChars: 100 } }))).toMatchObject({
        status: 'refused',
        budget: 'memberDailyChars',
        used: 30,
      });
      expect(await store.budgets.hold(hold(1, { guildId: G2, limits: { botMonthlyChars: 565 } }))).toMatchObject({
        status: 'refused',
        budget: 'botMonthlyChars',
        used: 565,
      });
      expect(
        (await store.budgets.hold(hold(35, { limits: { guildMonthlyChars: 100, memberDailyChars: 100 } }))).status,
      ).toBe('held');
    });

    it('lets exactly one of many concurrent holds from two stores on one database through a budget with room for one', async () => {
      const other = await backend.openAnother();
      try {
        await store.spends.record(spend({ characters: 60 }));
        const attempts = Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? store : other).budgets.hold(hold(30, { userId: `30000000000000001${i}` })),
        );
        const results = await Promise.all(attempts);
        expect(results.filter((r) => r.status === 'held')).toHaveLength(1);
        expect(results.filter((r) => r.status === 'refused')).toHaveLength(7);
      } finally {
        await other.close();
      }
    });
  });
});
