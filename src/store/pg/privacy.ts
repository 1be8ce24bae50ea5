import { type PlannedStatement, forgottenMarker, planDescribeMember, planForgetGuild, planForgetMember } from '../forget-plan.ts';
import { clonedVoiceOf, num } from '../rows.ts';
import type { ClonedVoice, ForgetResult, PrivacyStore, PrivacyTrace } from '../types.ts';
import type { PgDb } from './db.ts';

const p = (n: number): string => `$${n}`;

/** Deletion on request and removed servers, on PostgreSQL. */
export class PgPrivacy implements PrivacyStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  async #runAll(statements: PlannedStatement[]): Promise<ForgetResult> {
    return this.#db.transaction(undefined, async (db) => {
      const result: ForgetResult = { deleted: 0, anonymised: 0 };
      for (const s of statements) {
        const changed = await db.run(s.sql, s.params);
        if (s.action === 'delete') result.deleted += changed;
        else result.anonymised += changed;
      }
      return result;
    });
  }

  async clonedVoicesOf(userId: string, guildId?: string): Promise<ClonedVoice[]> {
    const sql = `SELECT * FROM voice_library WHERE created_by = $1${guildId === undefined ? '' : ' AND guild_id = $2'} ORDER BY created_at LIMIT 1000`;
    const params = guildId === undefined ? [userId] : [userId, guildId];
    return (await this.#db.all(sql, params)).map(clonedVoiceOf);
  }

  async describeMember(guildId: string, userId: string): Promise<PrivacyTrace[]> {
    const traces: PrivacyTrace[] = [];
    for (const q of planDescribeMember(userId, guildId, p)) {
      const rows = num((await this.#db.get(q.sql, q.params))?.['n']) ?? 0;
      if (rows > 0) traces.push({ table: q.table, column: q.column, rows });
    }
    return traces;
  }

  async forgetMember(userId: string, guildId?: string): Promise<ForgetResult> {
    return this.#runAll(planForgetMember(userId, guildId, forgottenMarker(), p));
  }

  async forgetGuild(guildId: string): Promise<ForgetResult> {
    return this.#runAll(planForgetGuild(guildId, forgottenMarker(), p));
  }

  async markGuildRemoved(guildId: string, at: Date): Promise<void> {
    await this.#db.run('INSERT INTO removed_guilds (guild_id, removed_at) VALUES ($1, $2) ON CONFLICT (guild_id) DO NOTHING', [guildId, at.getTime()]);
  }

  async cancelGuildRemoval(guildId: string): Promise<boolean> {
    return (await this.#db.run('DELETE FROM removed_guilds WHERE guild_id = $1', [guildId])) > 0;
  }

  async guildsRemovedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.#db.all('SELECT guild_id FROM removed_guilds WHERE removed_at <= $1 ORDER BY removed_at, guild_id LIMIT $2', [cutoff.getTime(), limit]);
    return rows.map((r) => String(r['guild_id']));
  }
}
