import { Area } from '../dialect.ts';
import { type PlannedStatement, forgottenMarker, planDescribeMember, planForgetGuild, planForgetMember } from '../forget-plan.ts';
import { clonedVoiceOf } from '../rows.ts';
import type { ClonedVoice, ForgetResult, PrivacyStore, PrivacyTrace, RemovedGuildStore } from '../types.ts';

/** Deletion on request: the statements are forget-plan.ts' rules, run in one transaction. */
export class PrivacyArea extends Area implements PrivacyStore {
  async #runAll(statements: PlannedStatement[]): Promise<ForgetResult> {
    return this.d.transaction(undefined, async (trx) => {
      const result: ForgetResult = { deleted: 0, anonymised: 0 };
      for (const s of statements) {
        const changed = Number((await s.query.execute(trx)).numAffectedRows ?? 0);
        if (s.action === 'delete') result.deleted += changed;
        else result.anonymised += changed;
      }
      return result;
    });
  }

  async clonedVoicesOf(userId: string, guildId?: string): Promise<ClonedVoice[]> {
    const query = this.d.db.selectFrom('voice_library').selectAll().where('created_by', '=', userId);
    return (await (guildId === undefined ? query : query.where('guild_id', '=', guildId)).orderBy('created_at').limit(1000).execute()).map(clonedVoiceOf);
  }

  async describeMember(guildId: string, userId: string): Promise<PrivacyTrace[]> {
    const traces: PrivacyTrace[] = [];
    for (const q of planDescribeMember(userId, guildId)) {
      const rows = Number((await q.query.execute(this.d.db)).rows[0]?.n ?? 0);
      if (rows > 0) traces.push({ table: q.table, column: q.column, rows });
    }
    return traces;
  }

  async forgetMember(userId: string, guildId?: string): Promise<ForgetResult> {
    return this.#runAll(planForgetMember(userId, guildId, forgottenMarker()));
  }

  async forgetGuild(guildId: string): Promise<ForgetResult> {
    return this.#runAll(planForgetGuild(guildId, forgottenMarker()));
  }
}

/** The servers SayBot was removed from, until their grace period ends. */
export class RemovedGuildArea extends Area implements RemovedGuildStore {
  async mark(guildId: string, at: Date): Promise<void> {
    await this.d.db.insertInto('removed_guilds').values({ guild_id: guildId, removed_at: at.getTime() }).onConflict((oc) => oc.column('guild_id').doNothing()).execute();
  }

  async cancel(guildId: string): Promise<boolean> {
    const result = await this.d.db.deleteFrom('removed_guilds').where('guild_id', '=', guildId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async removedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.d.db.selectFrom('removed_guilds').select('guild_id').where('removed_at', '<=', cutoff.getTime())
      .orderBy('removed_at').orderBy('guild_id').limit(limit).execute();
    return rows.map((r) => r.guild_id);
  }
}
