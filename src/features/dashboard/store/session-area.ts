import { Area } from '../../../core/store/dialect.ts';
import type { Database } from '../../../core/store/schema.ts';
import type { DashboardSession, SessionLifetimes } from './session-store.ts';

/** The most sessions one member keeps at once: a new login ends the oldest past it (a bounded table). */
export const MAX_SESSIONS_PER_MEMBER = 10;
/** The most server hints a session keeps (Discord's guild list gives 200 at most). */
export const MAX_GUILD_HINTS = 200;
/** A session's last use is written at most this often (not on every request). */
const SEEN_WRITE_MS = 60_000;

type Row = Database['dashboard_sessions'];

const sessionOf = (row: Row): DashboardSession => ({
  idHash: row.id_hash,
  userId: row.user_id,
  userName: row.user_name,
  guildHints: row.guild_hints === '' ? [] : row.guild_hints.split(','),
  createdAt: Number(row.created_at),
  seenAt: Number(row.seen_at),
});

const expired = (session: DashboardSession, now: number, lifetimes: SessionLifetimes): boolean =>
  now - session.seenAt >= lifetimes.idleMs || now - session.createdAt >= lifetimes.absoluteMs;

/** The dashboard's sessions (table dashboard_sessions), found by their ID's hash, so the table alone lets no one in. */
export class DashboardSessionArea extends Area {
  /** Records a new session; the member's oldest beyond MAX_SESSIONS_PER_MEMBER end. */
  async create(session: Omit<DashboardSession, 'seenAt'>): Promise<void> {
    await this.d.transaction(`dashboard-sessions:${session.userId}`, async (trx) => {
      await trx
        .insertInto('dashboard_sessions')
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          user_name: session.userName,
          guild_hints: session.guildHints.slice(0, MAX_GUILD_HINTS).join(','),
          created_at: session.createdAt,
          seen_at: session.createdAt,
        })
        .execute();
      const older = await trx
        .selectFrom('dashboard_sessions')
        .select('id_hash')
        .where('user_id', '=', session.userId)
        .orderBy('created_at', 'desc')
        .offset(MAX_SESSIONS_PER_MEMBER)
        .limit(1000)
        .execute();
      if (older.length > 0)
        await trx
          .deleteFrom('dashboard_sessions')
          .where(
            'id_hash',
            'in',
            older.map((row) => row.id_hash),
          )
          .execute();
    });
  }

  /** The live session with this hash, its last use moved to `now`; an expired one is deleted. */
  async find(idHash: string, now: number, lifetimes: SessionLifetimes): Promise<DashboardSession | undefined> {
    const row = await this.d.db
      .selectFrom('dashboard_sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const session = sessionOf(row);
    if (expired(session, now, lifetimes)) {
      await this.end(idHash);
      return undefined;
    }
    if (now - session.seenAt >= SEEN_WRITE_MS)
      await this.d.db.updateTable('dashboard_sessions').set({ seen_at: now }).where('id_hash', '=', idHash).execute();
    return { ...session, seenAt: now };
  }

  /** Ends one session (logout). */
  async end(idHash: string): Promise<void> {
    await this.d.db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
  }

  /** Ends every session of a member (logout everywhere); how many there were. */
  async endAllOf(userId: string): Promise<number> {
    const result = await this.d.db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes the expired sessions; how many. */
  async sweep(now: number, lifetimes: SessionLifetimes): Promise<number> {
    const result = await this.d.db
      .deleteFrom('dashboard_sessions')
      .where((eb) =>
        eb.or([eb('seen_at', '<=', now - lifetimes.idleMs), eb('created_at', '<=', now - lifetimes.absoluteMs)]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
