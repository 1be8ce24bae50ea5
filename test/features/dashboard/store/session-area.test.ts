import { describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_MEMBER } from '../../../../src/features/dashboard/store/session-area.ts';
import { G1, G2, MEMBER as A, OTHER_MEMBER as B, forEachBackend } from '../../../core/store/contract.ts';

// The dashboard's sessions area of the store contract, on SQLite and PostgreSQL: found by hash, idle and absolute
// expiry, logout everywhere, the sweep, and the bound per member.
const LIFE = { idleMs: 30 * 60_000, absoluteMs: 8 * 3_600_000 };
const T0 = 1_800_000_000_000;
const session = (idHash: string, userId = A, createdAt = T0) => ({
  idHash,
  userId,
  userName: 'alice',
  guildHints: [G1, G2],
  createdAt,
});

forEachBackend((store) => {
  describe('dashboard sessions', () => {
    it('finds a session by its hash, with its hints, and moves its last use', async () => {
      await store.dashboardSessions.create(session('h1'));
      expect(await store.dashboardSessions.find('h1', T0 + 1000, LIFE)).toMatchObject({
        userId: A,
        userName: 'alice',
        guildHints: [G1, G2],
        createdAt: T0,
      });
      expect(await store.dashboardSessions.find('other', T0, LIFE)).toBeUndefined();
      // Used at 20 minutes (written: over a minute since), so still live at 45.
      expect(await store.dashboardSessions.find('h1', T0 + 20 * 60_000, LIFE)).toBeDefined();
      expect(await store.dashboardSessions.find('h1', T0 + 45 * 60_000, LIFE)).toBeDefined();
    });

    it('ends a session idle too long, and one past its absolute life however used', async () => {
      await store.dashboardSessions.create(session('idle'));
      expect(await store.dashboardSessions.find('idle', T0 + LIFE.idleMs, LIFE)).toBeUndefined();
      expect(await store.dashboardSessions.find('idle', T0, LIFE)).toBeUndefined();

      await store.dashboardSessions.create(session('busy'));
      let now = T0;
      while (now + 20 * 60_000 < T0 + LIFE.absoluteMs) {
        now += 20 * 60_000;
        expect(await store.dashboardSessions.find('busy', now, LIFE)).toBeDefined();
      }
      expect(await store.dashboardSessions.find('busy', T0 + LIFE.absoluteMs, LIFE)).toBeUndefined();
    });

    it('ends one session, or every session of a member and no one else', async () => {
      await store.dashboardSessions.create(session('a1'));
      await store.dashboardSessions.create(session('a2'));
      await store.dashboardSessions.create(session('b1', B));
      await store.dashboardSessions.end('a1');
      expect(await store.dashboardSessions.find('a1', T0, LIFE)).toBeUndefined();
      expect(await store.dashboardSessions.endAllOf(A)).toBe(1);
      expect(await store.dashboardSessions.find('a2', T0, LIFE)).toBeUndefined();
      expect(await store.dashboardSessions.find('b1', T0, LIFE)).toBeDefined();
    });

    it('sweeps the expired sessions only', async () => {
      await store.dashboardSessions.create(session('old', A, T0 - LIFE.absoluteMs));
      await store.dashboardSessions.create(session('new', B, T0));
      expect(await store.dashboardSessions.sweep(T0 + 1000, LIFE)).toBe(1);
      expect(await store.dashboardSessions.find('new', T0 + 1000, LIFE)).toBeDefined();
    });

    it(`keeps a member's ${MAX_SESSIONS_PER_MEMBER} newest sessions`, async () => {
      for (let i = 0; i <= MAX_SESSIONS_PER_MEMBER; i += 1)
        await store.dashboardSessions.create(session(`s${i}`, A, T0 + i));
      expect(await store.dashboardSessions.find('s0', T0 + 100, LIFE)).toBeUndefined();
      expect(await store.dashboardSessions.find('s1', T0 + 100, LIFE)).toBeDefined();
      expect(await store.dashboardSessions.find(`s${MAX_SESSIONS_PER_MEMBER}`, T0 + 100, LIFE)).toBeDefined();
    });
  });
});
