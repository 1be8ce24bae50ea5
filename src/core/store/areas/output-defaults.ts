import { Area, present } from '../dialect.ts';
import type { OutputDefaults, OutsideVoiceOutput } from '../output-defaults-store.ts';

/** Output defaults outside voice, per server and member (`store.outputDefaults`); the caller picks which applies. */
export class OutputDefaultsArea extends Area {
  /** Both levels for this member in this guild, in one read (each absent when not set). */
  async get(guildId: string, userId: string): Promise<OutputDefaults> {
    const row = await this.d.db
      .selectNoFrom((eb) => [
        eb.selectFrom('guild_output_defaults').select('output').where('guild_id', '=', guildId).as('server'),
        eb
          .selectFrom('member_output_defaults')
          .select('output')
          .where('guild_id', '=', guildId)
          .where('user_id', '=', userId)
          .as('member'),
      ])
      .executeTakeFirst();
    return present({ server: row?.server, member: row?.member });
  }

  /** Sets the server's default; null removes it. */
  async setServer(guildId: string, output: OutsideVoiceOutput | null, updatedBy: string): Promise<void> {
    const db = this.d.db;
    if (output === null) {
      await db.deleteFrom('guild_output_defaults').where('guild_id', '=', guildId).execute();
      return;
    }
    const values = { output, updated_by: updatedBy, updated_at: Date.now() };
    await db
      .insertInto('guild_output_defaults')
      .values({ guild_id: guildId, ...values })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
      .execute();
  }

  /** Sets the member's own default in the guild; null removes it. */
  async setMember(guildId: string, userId: string, output: OutsideVoiceOutput | null): Promise<void> {
    const db = this.d.db;
    if (output === null) {
      await db
        .deleteFrom('member_output_defaults')
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .execute();
      return;
    }
    const values = { output, updated_at: Date.now() };
    await db
      .insertInto('member_output_defaults')
      .values({ guild_id: guildId, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(values))
      .execute();
  }
}
