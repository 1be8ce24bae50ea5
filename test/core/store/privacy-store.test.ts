import { describe, expect, it } from 'vitest';
import { STORE_FEATURES } from '../../../src/app/store.ts';
import { CORE_FORGET_RULES } from '../../../src/core/store/forget-plan.ts';
import { type DatabaseScan, rowsHolding, scanUrl } from '../../support/db-scan.ts';
import { SEED_AT as AT, SEED_MONTH as MONTH, seedMemberTraces as seed } from '../../support/privacy-seed.ts';
import { G1, G2, MEMBER as A, OTHER_MEMBER as B, THIRD_MEMBER as C, forEachBackend } from './contract.ts';

/**
 * Columns that hold IDs which are not a guild's or a member's (the service's, a channel's within a guild row
 * deleted with its guild, a row's own key). Any other column named like an ID must be covered by a forget rule, the
 * core's or a feature's.
 */
const KEPT_COLUMNS = new Set([
  'presets.id',
  'guild_settings.default_preset_id',
  'voice_library.voice_id',
  'spends.id',
  'spends.request_id',
  'quota_state.id',
  'auto_read_bindings.text_channel_id',
  'auto_read_bindings.voice_channel_id',
  'auto_read.required_role_id',
  'soundboard_sounds.sound_id',
  'soundboard_sounds.voice_id',
  // A dashboard session is no server's data: it ends at logout, "log out everywhere", or 8 hours after login at most.
  'dashboard_sessions.user_id',
]);

const guildRowsHolding = (scan: DatabaseScan, guildId: string, userId: string) =>
  rowsHolding(scan, userId).filter((r) => Object.values(r.cells).includes(guildId));

forEachBackend((store, backend) => {
  describe('deletion on request', () => {
    it('has a rule for every column of every table that may hold a guild or member ID (read from the database)', async () => {
      const scan = await scanUrl(backend.url());
      const covered = new Set(
        [...CORE_FORGET_RULES, ...STORE_FEATURES.forgetRules].flatMap((r) => [
          `${r.table}.guild_id`,
          ...Object.keys(r.memberColumns).map((c) => `${r.table}.${c}`),
        ]),
      );
      const idColumns = scan.tables
        .filter((t) => t.table !== 'schema_migrations')
        .flatMap((t) => t.columns.filter((c) => /(^id$|_id$|_by$)/.test(c)).map((c) => `${t.table}.${c}`));
      expect(idColumns.length).toBeGreaterThan(10);
      expect(idColumns.filter((c) => !covered.has(c) && !KEPT_COLUMNS.has(c))).toEqual([]);
      // And every rule names a real table and column.
      const real = new Set(scan.tables.flatMap((t) => t.columns.map((c) => `${t.table}.${c}`)));
      expect([...covered].filter((c) => !real.has(c))).toEqual([]);
    });

    it('shows what it keeps about a member in a guild, and nothing about another member', async () => {
      await seed(store, G1, A, 'a');
      const traces = await store.privacy.describeMember(G1, A);
      expect(traces.map((t) => t.table)).toEqual(
        expect.arrayContaining([
          'member_defaults',
          'member_output_defaults',
          'presets',
          'dictionary_entries',
          'voice_library',
          'spends',
          'budget_holds',
          'auto_read_voice_pool',
          'auto_read_member_voices',
          'auto_read_ignored',
        ]),
      );
      expect(traces.find((t) => t.table === 'spends')?.rows).toBe(2);
      expect(await store.privacy.describeMember(G1, B)).toEqual([]);
      expect(await store.privacy.describeMember(G2, A)).toEqual([]);
    });

    it('forgets a member in one guild: no row of that guild holds their ID, the books still add up, others untouched', async () => {
      await seed(store, G1, A, 'a');
      await seed(store, G1, B, 'b');
      await seed(store, G2, A, 'a2');
      const before = { g1: await store.spends.monthTotals(MONTH, G1), all: await store.spends.monthTotals(MONTH) };
      const bTraces = await store.privacy.describeMember(G1, B);

      expect((await store.privacy.clonedVoicesOf(A, G1)).map((v) => v.name)).toEqual(['v-a']);
      expect((await store.privacy.clonedVoicesOf(A)).map((v) => v.name).sort()).toEqual(['v-a', 'v-a2']);
      const result = await store.privacy.forgetMember(A, G1);
      expect(result.deleted).toBeGreaterThan(0);
      expect(result.anonymised).toBeGreaterThan(0);

      const scan = await scanUrl(backend.url());
      // Only the managers' record about them stays: the ignore (by themselves, in the seed: that ID is marked).
      expect(guildRowsHolding(scan, G1, A).map((r) => r.table)).toEqual(['auto_read_ignored']);
      expect(await store.autoReadMembers.ignored(G1)).toContain(A);
      expect(guildRowsHolding(scan, G2, A).length).toBeGreaterThan(0);
      expect(await store.privacy.describeMember(G1, A)).toEqual([
        { table: 'auto_read_ignored', column: 'user_id', rows: 1, kept: true },
      ]);
      expect((await store.privacy.describeMember(G1, B)).map((t) => t.table)).toEqual(bTraces.map((t) => t.table));
      expect(await store.spends.monthTotals(MONTH, G1)).toEqual(before.g1);
      expect(await store.spends.monthTotals(MONTH)).toEqual(before.all);
      // The anonymised spends keep one marker per member, not the ID, so a day's totals still add up per person.
      const marked = scan.rows.filter(
        (r) => r.table === 'spends' && r.cells['guild_id'] === G1 && r.cells['user_id']?.startsWith('forgotten:'),
      );
      expect(marked).toHaveLength(2);
      expect(new Set(marked.map((r) => r.cells['user_id'])).size).toBe(1);
      expect(await store.memberDefaults.get(G1, A)).toBeUndefined();
      expect((await store.presets.get(G1, 'p-a'))?.createdBy).toMatch(/^forgotten:/);
    });

    it('forgets a member in every guild when no guild is named (the operator)', async () => {
      await seed(store, G1, A, 'a');
      await seed(store, G2, A, 'a2');
      await seed(store, G1, B, 'b');
      await store.privacy.forgetMember(A, undefined, new Date(), 'operator');
      const scan = await scanUrl(backend.url());
      // The operator's erasure takes the managers' records about them too.
      expect(rowsHolding(scan, A)).toEqual([]);
      expect(rowsHolding(scan, B).length).toBeGreaterThan(0);
    });

    it('forgets a guild: no row holds its ID, its spends still count in the month', async () => {
      await seed(store, G1, A, 'a');
      await seed(store, G1, B, 'b');
      await seed(store, G2, A, 'a2');
      await store.removedGuilds.mark(G1, AT);
      const all = await store.spends.monthTotals(MONTH);
      await store.privacy.forgetGuild(G1);
      const scan = await scanUrl(backend.url());
      expect(rowsHolding(scan, G1)).toEqual([]);
      // Nothing of G1 names its members either: B was only ever in G1.
      expect(rowsHolding(scan, B)).toEqual([]);
      expect(rowsHolding(scan, G2).length).toBeGreaterThan(0);
      expect(await store.spends.monthTotals(MONTH)).toEqual(all);
      expect(await store.spends.monthTotals(MONTH, G1)).toEqual({ spent: 0, saved: 0 });
      expect(await store.removedGuilds.removedBefore(new Date(AT.getTime() + 1), 10)).toEqual([]);
    });

    it("does not reset a budget: a forgotten member's day, and a forgotten server's month, still count under no ID", async () => {
      const spend = (guildId: string, userId: string, characters: number) =>
        store.spends.record({ at: AT, guildId, userId, command: 'say', endpoint: 'tts', characters, cached: false });
      const hold = (
        guildId: string,
        userId: string,
        characters: number,
        limits: { memberDailyChars?: number; guildMonthlyChars?: number },
      ) => store.budgets.hold({ guildId, userId, characters, limits, ttlMs: 60_000, at: AT });
      await spend(G1, A, 90);
      await spend(G2, A, 30);
      await store.privacy.forgetMember(A, G1, AT);
      // A's 90 of today in G1 still count against their daily 100; their G2 day is their own.
      expect(await hold(G1, A, 20, { memberDailyChars: 100 })).toMatchObject({
        status: 'refused',
        budget: 'memberDailyChars',
        used: 90,
      });
      expect((await hold(G1, A, 10, { memberDailyChars: 100 })).status).toBe('held');
      // Forgotten twice the same day (after more spending): both counted.
      await spend(G1, A, 5);
      await store.privacy.forgetMember(A, undefined, AT);
      expect(await hold(G2, A, 80, { memberDailyChars: 100 })).toMatchObject({ status: 'refused', used: 30 });
      expect(await hold(G1, B, 1, { memberDailyChars: 100 })).toMatchObject({ status: 'held' });
      // 90 + 5 spent, and the hold of 10 still in flight: it keeps counting for the day, under no ID.
      expect(await hold(G1, A, 1, { memberDailyChars: 100 })).toMatchObject({ status: 'refused', used: 105 });
      // A spend of a request accepted before the deletion, recorded after it: no ID, still counted for the day.
      await store.spends.record({
        at: AT,
        guildId: G1,
        userId: A,
        command: 'say',
        endpoint: 'tts',
        characters: 4,
        cached: false,
        forgotten: 'member',
      });
      expect(await hold(G1, A, 1, { memberDailyChars: 100 })).toMatchObject({ status: 'refused', used: 109 });
      // A server forgotten keeps its month (and the holds in flight: 10 and B's 1) against its monthly budget; none of
      // its rows holds its ID, nor does a late spend.
      await store.privacy.forgetGuild(G1, AT);
      expect(await hold(G1, B, 10, { guildMonthlyChars: 100 })).toMatchObject({
        status: 'refused',
        budget: 'guildMonthlyChars',
        used: 110,
      });
      await store.spends.record({
        at: AT,
        guildId: G1,
        userId: B,
        command: 'say',
        endpoint: 'tts',
        characters: 3,
        cached: false,
        forgotten: 'guild',
      });
      expect(await hold(G1, B, 10, { guildMonthlyChars: 100 })).toMatchObject({ status: 'refused', used: 113 });
      const scan = await scanUrl(backend.url());
      expect(rowsHolding(scan, G1)).toEqual([]);
      expect(rowsHolding(scan, B)).toEqual([]);
      expect(rowsHolding(scan, A).filter((r) => !Object.values(r.cells).includes(G2))).toEqual([]);
    });

    it("what a member's day shows is what their budget counts, across a deletion; the spends carried are counted as no longer naming them", async () => {
      const spend = (characters: number) =>
        store.spends.record({
          at: AT,
          guildId: G1,
          userId: A,
          command: 'say',
          endpoint: 'tts',
          characters,
          cached: false,
        });
      await spend(90);
      await spend(30);
      expect(await store.spends.memberDaySpent(G1, A, AT)).toBe(120);
      const result = await store.privacy.forgetMember(A, G1, AT);
      // Both spend rows now stand under the day's pseudonym, not under A: they no longer name them.
      expect(result.anonymised).toBeGreaterThanOrEqual(2);
      expect(await store.spends.memberDaySpent(G1, A, AT)).toBe(120);
      const refused = await store.budgets.hold({
        guildId: G1,
        userId: A,
        characters: 1,
        limits: { memberDailyChars: 120 },
        ttlMs: 60_000,
        at: AT,
      });
      expect(refused).toMatchObject({ status: 'refused', used: 120 });
      expect(await store.spends.memberDaySpent(G1, B, AT)).toBe(0);
    });

    it("a server's deletion carries over what a member's does: each member's day, their last spend (the cooldown) and their holds", async () => {
      const spend = (guildId: string, userId: string, characters: number, at: Date) =>
        store.spends.record({ at, guildId, userId, command: 'say', endpoint: 'tts', characters, cached: false });
      const hold = (userId: string, characters: number, at = AT) =>
        store.budgets.hold({
          guildId: G1,
          userId,
          characters,
          limits: { memberDailyChars: 300 },
          ttlMs: 60_000,
          at,
        });
      await spend(G1, A, 250, new Date(AT.getTime() - 60_000));
      // B last spent yesterday, a minute before midnight: their cooldown (up to a day) still counts from it.
      await spend(G1, B, 40, new Date('2025-03-09T23:59:00Z'));
      await spend(G2, A, 5, AT);
      // C's request is under way: its hold of 280 counts against their day.
      expect((await hold(C, 280)).status).toBe('held');
      await store.privacy.forgetGuild(G1, AT);
      // A's day (250) and last spend survive, as they do a member's own deletion.
      expect(await store.spends.memberDaySpent(G1, A, AT)).toBe(250);
      expect(await hold(A, 58)).toMatchObject({ status: 'refused', budget: 'memberDailyChars', used: 250 });
      expect(await store.spends.lastSpendAt(G1, A, AT)).toEqual(new Date(AT.getTime() - 60_000));
      expect(await store.spends.lastSpendAt(G1, B, AT)).toEqual(new Date('2025-03-09T23:59:00Z'));
      expect(await store.spends.lastSpendAt(G1, B, new Date('2025-03-11T00:00:00Z'))).toBeUndefined();
      expect(await hold(C, 21)).toMatchObject({ status: 'refused', used: 280 });
      // Another guild's own rows are untouched.
      expect(await store.spends.lastSpendAt(G2, A, AT)).toEqual(AT);
      // Forgotten again the same day, after spending more (the server came back): both counted.
      await spend(G1, A, 20, AT);
      await store.privacy.forgetGuild(G1, AT);
      expect(await hold(A, 31)).toMatchObject({ status: 'refused', used: 270 });
      expect(await store.spends.lastSpendAt(G1, A, AT)).toEqual(AT);
      const scan = await scanUrl(backend.url());
      expect(rowsHolding(scan, G1)).toEqual([]);
      expect(rowsHolding(scan, B)).toEqual([]);
      expect(rowsHolding(scan, C)).toEqual([]);
      expect(rowsHolding(scan, A).filter((r) => !Object.values(r.cells).includes(G2))).toEqual([]);
    });

    it("a server's month reads the same after its deletion as its budget counts it; the deleted members' characters are no one's", async () => {
      const spend = (userId: string, characters: number, cached = false, guildId = G1) =>
        store.spends.record({ at: AT, guildId, userId, command: 'say', endpoint: 'tts', characters, cached });
      await spend(A, 300);
      await spend(B, 300);
      await spend(C, 270);
      await spend(A, 7, true);
      await spend(A, 11, false, G2);
      await store.privacy.forgetGuild(G1, AT);
      await spend(A, 63);
      // The budget counts 933 (870 before the deletion, 63 after); so does the month.
      expect(
        await store.budgets.hold({
          guildId: G1,
          userId: A,
          characters: 106,
          limits: { guildMonthlyChars: 1000 },
          ttlMs: 60_000,
          at: AT,
        }),
      ).toMatchObject({ status: 'refused', budget: 'guildMonthlyChars', used: 933 });
      expect(await store.spends.monthTotals(MONTH, G1)).toEqual({ spent: 933, saved: 7 });
      expect(await store.spends.monthTotals(MONTH, G2)).toEqual({ spent: 11, saved: 0 });
      expect(await store.spends.monthTotals(MONTH)).toEqual({ spent: 944, saved: 7 });
      // The days count every character; the members' ranking names only members still known: A's 63.
      const breakdown = await store.spends.monthBreakdown(MONTH, G1, 5);
      expect(breakdown.days).toEqual([{ day: '2025-03-10', spent: 933, saved: 7 }]);
      expect(breakdown.members).toEqual([{ userId: A, spent: 63, saved: 0 }]);
      // A member's own deletion: their characters stay in the server's month, attributed to no one.
      await spend(B, 9);
      await store.privacy.forgetMember(A, G1, AT);
      expect(await store.spends.monthTotals(MONTH, G1)).toEqual({ spent: 942, saved: 7 });
      expect((await store.spends.monthBreakdown(MONTH, G1, 5)).members).toEqual([{ userId: B, spent: 9, saved: 0 }]);
      // Past the month, nothing of it is found under the server.
      expect(await store.spends.monthTotals('2025-04', G1)).toEqual({ spent: 0, saved: 0 });
    });

    it("a late spend (a request under way when its member or server was forgotten) still starts the member's cooldown", async () => {
      const late = (userId: string, forgotten: 'member' | 'guild', at: Date) =>
        store.spends.record({
          at,
          guildId: G1,
          userId,
          command: 'say',
          endpoint: 'tts',
          characters: 5,
          cached: false,
          forgotten,
        });
      await store.privacy.forgetMember(A, G1, AT);
      await late(A, 'member', new Date(AT.getTime() + 1_000));
      await store.privacy.forgetGuild(G1, AT);
      await late(B, 'guild', new Date(AT.getTime() + 2_000));
      expect(await store.spends.lastSpendAt(G1, A, AT)).toEqual(new Date(AT.getTime() + 1_000));
      expect(await store.spends.lastSpendAt(G1, B, AT)).toEqual(new Date(AT.getTime() + 2_000));
      expect(await store.spends.memberDaySpent(G1, B, AT)).toBe(5);
      const scan = await scanUrl(backend.url());
      expect(rowsHolding(scan, G1)).toEqual([]);
      expect(rowsHolding(scan, A)).toEqual([]);
      expect(rowsHolding(scan, B)).toEqual([]);
    });

    it('keeps when SayBot was removed from a guild, the first time only, until it is cancelled', async () => {
      const t0 = new Date('2025-03-01T00:00:00Z');
      await store.removedGuilds.mark(G1, t0);
      await store.removedGuilds.mark(G1, new Date('2025-03-05T00:00:00Z'));
      await store.removedGuilds.mark(G2, new Date('2025-03-02T00:00:00Z'));
      expect(await store.removedGuilds.removedBefore(new Date('2025-03-01T00:00:00Z'), 10)).toEqual([G1]);
      expect(await store.removedGuilds.removedBefore(new Date('2025-03-03T00:00:00Z'), 10)).toEqual([G1, G2]);
      expect(await store.removedGuilds.removedBefore(new Date('2025-03-03T00:00:00Z'), 1)).toEqual([G1]);
      expect(await store.removedGuilds.cancel(G1)).toBe(true);
      expect(await store.removedGuilds.cancel(G1)).toBe(false);
      expect(await store.removedGuilds.removedBefore(new Date('2025-03-03T00:00:00Z'), 10)).toEqual([G2]);
    });
  });
});
