import { Area } from '../dialect.ts';
import { autoReadStateOf, given } from '../rows.ts';
import type { AutoReadBinding, AutoReadSettingChanges, AutoReadSettings, AutoReadState, AutoReadStopReason, AutoReadStore } from '../types.ts';

/** A flag's change as its column holds it: 0/1, null (back to the default) as NULL, undefined (kept) as it is. */
const flag = (change: boolean | null | undefined): number | null | undefined => (typeof change === 'boolean' ? Number(change) : change);

/** Auto-read's binding, on/off and settings per guild (each change one statement on one row). */
export class AutoReadArea extends Area implements AutoReadStore {
  async get(guildId: string): Promise<AutoReadState> {
    return autoReadStateOf(guildId, await this.d.db.selectFrom('auto_read').selectAll().where('guild_id', '=', guildId).executeTakeFirst());
  }

  async start(guildId: string, binding: Omit<AutoReadBinding, 'startedAt'> & { startedAt?: Date }): Promise<AutoReadState> {
    // One statement: binding and "reading" change together; the settings columns are not touched.
    const values = {
      reading: 1, stopped_why: null, text_channel_id: binding.textChannelId, voice_channel_id: binding.voiceChannelId, started_by: binding.startedBy,
      started_at: (binding.startedAt ?? new Date()).getTime(), updated_at: Date.now(),
    };
    const row = await this.d.db.insertInto('auto_read').values({ guild_id: guildId, ...values })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(values)).returningAll().executeTakeFirstOrThrow();
    return autoReadStateOf(guildId, row);
  }

  async stop(guildId: string, why: AutoReadStopReason = 'asked'): Promise<boolean> {
    const db = this.d.db;
    const result = await db.updateTable('auto_read').set({ reading: 0, stopped_why: why, updated_at: Date.now() }).where('guild_id', '=', guildId).where('reading', '=', 1).executeTakeFirst();
    const wasReading = result.numUpdatedRows > 0n;
    // /autoread stop after SayBot left by itself still ends the binding for auto-join.
    if (!wasReading && why === 'asked') await db.updateTable('auto_read').set({ stopped_why: why }).where('guild_id', '=', guildId).where('stopped_why', '=', 'left-voice').execute();
    return wasReading;
  }

  async listReading(): Promise<AutoReadState[]> {
    const rows = await this.d.db.selectFrom('auto_read').selectAll().where('reading', '=', 1).orderBy(this.d.byCodePoint('guild_id')).execute();
    return rows.map((row) => autoReadStateOf(row.guild_id, row));
  }

  async setSettings(guildId: string, changes: AutoReadSettingChanges, updatedBy: string): Promise<AutoReadSettings> {
    // Each changed setting set, each null one cleared (NULL: the default), each undefined one kept: one statement.
    const changed = {
      ...given({
        say_author_name: flag(changes.sayAuthorName), max_length: changes.maxLength, read_bots: flag(changes.readBots),
        required_role_id: changes.requiredRoleId, only_members_in_voice: flag(changes.onlyMembersInVoice),
        announce_join_leave: flag(changes.announceJoinLeave), skip_prefix: changes.skipPrefix, read_silent: flag(changes.readSilent),
        autojoin: flag(changes.autojoin), faster_after: changes.fasterAfter, max_speed: changes.maxSpeed, skip_after: changes.skipAfter,
      }),
      settings_updated_by: updatedBy,
      updated_at: Date.now(),
    };
    const row = await this.d.db.insertInto('auto_read').values({ guild_id: guildId, ...changed })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(changed)).returningAll().executeTakeFirstOrThrow();
    return autoReadStateOf(guildId, row).settings;
  }
}
