import { type PlannedStatement, forgottenMarker, planDescribeMember, planForgetGuild, planForgetMember } from '../forget-plan.ts';
import { clonedVoiceOf, num } from '../rows.ts';
import type { ClonedVoice, ForgetResult, PrivacyStore, PrivacyTrace } from '../types.ts';
import type { SqliteDb } from './db.ts';

const p = (n: number): string => `?${n}`;

/** Deletion on request and removed servers, on SQLite. */
export class SqlitePrivacy implements PrivacyStore {
  readonly #db: SqliteDb;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  #runAll(statements: PlannedStatement[]): ForgetResult {
    return this.#db.transaction(() => {
      const result: ForgetResult = { deleted: 0, anonymised: 0 };
      for (const s of statements) {
        const changed = this.#db.run(s.sql, ...s.params);
        if (s.action === 'delete') result.deleted += changed;
        else result.anonymised += changed;
      }
      return result;
    });
  }

  async clonedVoicesOf(userId: string, guildId?: string): Promise<ClonedVoice[]> {
    const sql = `SELECT * FROM voice_library WHERE created_by = ?1${guildId === undefined ? '' : ' AND guild_id = ?2'} ORDER BY created_at LIMIT 1000`;
    const params = guildId === undefined ? [userId] : [userId, guildId];
    return (this.#db.all(sql, ...params)).map(clonedVoiceOf);
  }

  async describeMember(guildId: string, userId: string): Promise<PrivacyTrace[]> {
    return planDescribeMember(userId, guildId, p)
      .map((q) => ({ table: q.table, column: q.column, rows: num(this.#db.get(q.sql, ...q.params)?.['n']) ?? 0 }))
      .filter((t) => t.rows > 0);
  }

  async forgetMember(userId: string, guildId?: string): Promise<ForgetResult> {
    return this.#runAll(planForgetMember(userId, guildId, forgottenMarker(), p));
  }

  async forgetGuild(guildId: string): Promise<ForgetResult> {
    return this.#runAll(planForgetGuild(guildId, forgottenMarker(), p));
  }

  async markGuildRemoved(guildId: string, at: Date): Promise<void> {
    this.#db.run('INSERT INTO removed_guilds (guild_id, removed_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING', guildId, at.getTime());
  }

  async cancelGuildRemoval(guildId: string): Promise<boolean> {
    return this.#db.run('DELETE FROM removed_guilds WHERE guild_id = ?', guildId) > 0;
  }

  async guildsRemovedBefore(cutoff: Date, limit: number): Promise<string[]> {
    return this.#db
      .all('SELECT guild_id FROM removed_guilds WHERE removed_at <= ? ORDER BY removed_at, guild_id LIMIT ?', cutoff.getTime(), limit)
      .map((r) => String(r['guild_id']));
  }
}
