import {
  AUTO_READ_SETTING_LIST,
  type AutoReadSettingChanges,
  type AutoReadSettingColumns,
  type AutoReadSettings,
} from '../setting-declarations.ts';
import {
  AUTO_READ_BINDINGS_MAX,
  type AutoReadBinding,
  type AutoReadState,
  type AutoReadStopReason,
  type NewBinding,
  type StartResult,
} from './auto-read-store.ts';
import { Area, flagOf, type Row } from '../../../core/store/dialect.ts';

type SettingColumn = keyof AutoReadSettingColumns;
type SettingValue = AutoReadSettings[keyof AutoReadSettings];

/** The settings in a guild's auto_read row (or none yet), by their declarations: a NULL column takes the default. */
export function settingsOfRow(row: Partial<Pick<Row<'auto_read'>, SettingColumn>> | undefined): AutoReadSettings {
  const settings: Partial<Record<keyof AutoReadSettings, SettingValue>> = {};
  for (const [name, declared] of AUTO_READ_SETTING_LIST) {
    const held = row?.[declared.column as SettingColumn] ?? null;
    const value = declared.kind === 'flag' ? flagOf(held as number | null) : (held ?? undefined);
    const chosen = value ?? ('default' in declared ? declared.default : undefined);
    // A setting without a default (a role, a prefix) is left out while unset, so readers see only what is set.
    if (chosen !== undefined) settings[name] = chosen;
  }
  return settings as AutoReadSettings;
}

/** Changes as their columns hold them: a flag as 0/1, null (back to the default) as NULL; an undefined one left out. */
export function rowOfChanges(changes: AutoReadSettingChanges): Partial<AutoReadSettingColumns> {
  const row: Partial<Record<SettingColumn, string | number | null>> = {};
  for (const [name, declared] of AUTO_READ_SETTING_LIST) {
    const change = changes[name];
    if (change === undefined) continue;
    row[declared.column as SettingColumn] = typeof change === 'boolean' ? Number(change) : change;
  }
  return row as Partial<AutoReadSettingColumns>;
}

function bindingOf(row: Row<'auto_read_bindings'>): AutoReadBinding {
  const reading = flagOf(row.reading) ?? false;
  return {
    textChannelId: row.text_channel_id,
    voiceChannelId: row.voice_channel_id,
    startedBy: row.started_by,
    startedAt: new Date(row.started_at),
    reading,
    ...(!reading && row.stopped_why !== null ? { stoppedWhy: row.stopped_why } : {}),
  };
}

/** Auto-read's lasting state: each server's settings (auto_read), its bindings (auto_read_bindings). */
export class AutoReadArea extends Area {
  /** The guild's settings and bindings; a guild that never set anything has none, with the default settings. */
  async get(guildId: string): Promise<AutoReadState> {
    const db = this.d.db;
    const [row, bindings] = await Promise.all([
      db.selectFrom('auto_read').selectAll().where('guild_id', '=', guildId).executeTakeFirst(),
      db
        .selectFrom('auto_read_bindings')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy(this.d.byCodePoint('voice_channel_id'))
        .execute(),
    ]);
    return { guildId, bindings: bindings.map(bindingOf), settings: settingsOfRow(row) };
  }

  /**
   * Binds a text channel to a voice channel and reads, replacing that voice channel's binding. A server holding `max`
   * bindings lets its oldest one not reading go; all reading, or the text channel read elsewhere, refuses.
   */
  async start(guildId: string, binding: NewBinding, max = AUTO_READ_BINDINGS_MAX): Promise<StartResult> {
    return this.d.transaction(`autoread-bindings:${guildId}`, async (trx): Promise<StartResult> => {
      const kept = await trx
        .selectFrom('auto_read_bindings')
        .select(['voice_channel_id', 'text_channel_id', 'reading'])
        .where('guild_id', '=', guildId)
        .orderBy('updated_at')
        .orderBy(this.d.byCodePoint('voice_channel_id'))
        .execute();
      const others = kept.filter((row) => row.voice_channel_id !== binding.voiceChannelId);
      const taken = others.find((row) => row.reading === 1 && row.text_channel_id === binding.textChannelId);
      if (taken) return { kind: 'text-taken', voiceChannelId: taken.voice_channel_id };
      if (others.length >= max) {
        const oldest = others.find((row) => row.reading !== 1);
        if (!oldest) return { kind: 'full' };
        await trx
          .deleteFrom('auto_read_bindings')
          .where('guild_id', '=', guildId)
          .where('voice_channel_id', '=', oldest.voice_channel_id)
          .execute();
      }
      const values = {
        text_channel_id: binding.textChannelId,
        reading: 1,
        stopped_why: null,
        started_by: binding.startedBy,
        started_at: (binding.startedAt ?? new Date()).getTime(),
        updated_at: Date.now(),
      };
      const row = await trx
        .insertInto('auto_read_bindings')
        .values({ guild_id: guildId, voice_channel_id: binding.voiceChannelId, ...values })
        .onConflict((oc) => oc.columns(['guild_id', 'voice_channel_id']).doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return { kind: 'started', binding: bindingOf(row) };
    });
  }

  /**
   * Turns reading off in one voice channel's binding (every one of the guild's without `voiceChannelId`), keeping it,
   * and records why; true when one was reading.
   */
  async stop(guildId: string, voiceChannelId?: string, why: AutoReadStopReason = 'asked'): Promise<boolean> {
    const db = this.d.db;
    const result = await db
      .updateTable('auto_read_bindings')
      .set({ reading: 0, stopped_why: why, updated_at: Date.now() })
      .where('guild_id', '=', guildId)
      .$if(voiceChannelId !== undefined, (query) => query.where('voice_channel_id', '=', voiceChannelId!))
      .where('reading', '=', 1)
      .executeTakeFirst();
    const wasReading = result.numUpdatedRows > 0n;
    // /autoread stop after SayBot left by itself still ends the binding for auto-join.
    if (!wasReading && why === 'asked')
      await db
        .updateTable('auto_read_bindings')
        .set({ stopped_why: why })
        .where('guild_id', '=', guildId)
        .$if(voiceChannelId !== undefined, (query) => query.where('voice_channel_id', '=', voiceChannelId!))
        .where('stopped_why', '=', 'left-voice')
        .execute();
    return wasReading;
  }

  /** Every binding reading now (in guild, then voice channel ID order), to resume after a restart. */
  async listReading(): Promise<Array<{ guildId: string; binding: AutoReadBinding }>> {
    const rows = await this.d.db
      .selectFrom('auto_read_bindings')
      .selectAll()
      .where('reading', '=', 1)
      .orderBy(this.d.byCodePoint('guild_id'))
      .orderBy(this.d.byCodePoint('voice_channel_id'))
      .execute();
    return rows.map((row) => ({ guildId: row.guild_id, binding: bindingOf(row) }));
  }

  /** Changes the settings (see AutoReadSettingChanges) and returns those in force after the change. */
  async setSettings(guildId: string, changes: AutoReadSettingChanges, updatedBy: string): Promise<AutoReadSettings> {
    // Each changed setting set, each null one cleared (NULL: the default), each undefined one kept: one statement.
    const changed = {
      ...rowOfChanges(changes),
      settings_updated_by: updatedBy,
      updated_at: Date.now(),
    };
    const row = await this.d.db
      .insertInto('auto_read')
      .values({ guild_id: guildId, ...changed })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(changed))
      .returningAll()
      .executeTakeFirstOrThrow();
    return settingsOfRow(row);
  }
}
