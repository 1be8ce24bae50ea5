import { Area } from '../dialect.ts';
import { outputDefaultsOf } from '../rows.ts';
import type { OutputDefaults, OutputDefaultsStore, OutsideVoiceOutput } from '../types.ts';

/** The server's and members' output defaults for replies outside voice. */
export class OutputDefaultsArea extends Area implements OutputDefaultsStore {
  async get(guildId: string, userId: string): Promise<OutputDefaults> {
    return outputDefaultsOf(await this.d.db.selectNoFrom((eb) => [
      eb.selectFrom('guild_output_defaults').select('output').where('guild_id', '=', guildId).as('server'),
      eb.selectFrom('member_output_defaults').select('output').where('guild_id', '=', guildId).where('user_id', '=', userId).as('member'),
    ]).executeTakeFirst());
  }

  async setServer(guildId: string, output: OutsideVoiceOutput | null, updatedBy: string): Promise<void> {
    const db = this.d.db;
    if (output === null) {
      await db.deleteFrom('guild_output_defaults').where('guild_id', '=', guildId).execute();
      return;
    }
    const values = { output, updated_by: updatedBy, updated_at: Date.now() };
    await db.insertInto('guild_output_defaults').values({ guild_id: guildId, ...values }).onConflict((oc) => oc.column('guild_id').doUpdateSet(values)).execute();
  }

  async setMember(guildId: string, userId: string, output: OutsideVoiceOutput | null): Promise<void> {
    const db = this.d.db;
    if (output === null) {
      await db.deleteFrom('member_output_defaults').where('guild_id', '=', guildId).where('user_id', '=', userId).execute();
      return;
    }
    const values = { output, updated_at: Date.now() };
    await db.insertInto('member_output_defaults').values({ guild_id: guildId, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(values)).execute();
  }
}
