import {
  AUTO_READ_SETTING_LIST,
  type AutoReadSettingChanges,
  type AutoReadSettingColumns,
  type AutoReadSettings,
} from '../setting-declarations.ts';
import type { AutoReadBinding, AutoReadState, AutoReadStopReason } from './auto-read-store.ts';
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

/** The guild's auto_read row (or none yet): NULL settings take AUTO_READ_DEFAULTS. */
function autoReadStateOf(guildId: string, row: Row<'auto_read'> | undefined): AutoReadState {
  const settings = settingsOfRow(row);
  const reading = flagOf(row?.reading ?? null) ?? false;
  const state: AutoReadState = {
    guildId,
    reading,
    settings,
    ...(!reading && row?.stopped_why ? { stoppedWhy: row.stopped_why } : {}),
  };
  if (
    row?.text_channel_id != null &&
    row.voice_channel_id !== null &&
    row.started_by !== null &&
    row.started_at !== null
  ) {
    state.binding = {
      textChannelId: row.text_channel_id,
      voiceChannelId: row.voice_channel_id,
      startedBy: row.started_by,
      startedAt: new Date(row.started_at),
    };
  }
  return state;
}

/** Auto-read's lasting state per guild (table auto_read): the binding, whether it reads, its settings. */
export class AutoReadArea extends Area {
  /** The guild's state; a guild that never set anything reads nothing, with the default settings. */
  async get(guildId: string): Promise<AutoReadState> {
    return autoReadStateOf(
      guildId,
      await this.d.db.selectFrom('auto_read').selectAll().where('guild_id', '=', guildId).executeTakeFirst(),
    );
  }

  /** Binds the channels and turns reading on, replacing an earlier binding; the settings are kept. */
  async start(
    guildId: string,
    binding: Omit<AutoReadBinding, 'startedAt'> & { startedAt?: Date },
  ): Promise<AutoReadState> {
    // One statement: binding and "reading" change together; the settings columns are not touched.
    const values = {
      reading: 1,
      stopped_why: null,
      text_channel_id: binding.textChannelId,
      voice_channel_id: binding.voiceChannelId,
      started_by: binding.startedBy,
      started_at: (binding.startedAt ?? new Date()).getTime(),
      updated_at: Date.now(),
    };
    const row = await this.d.db
      .insertInto('auto_read')
      .values({ guild_id: guildId, ...values })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return autoReadStateOf(guildId, row);
  }

  /** Turns reading off, keeping binding and settings, and records why; true when it was reading. */
  async stop(guildId: string, why: AutoReadStopReason = 'asked'): Promise<boolean> {
    const db = this.d.db;
    const result = await db
      .updateTable('auto_read')
      .set({ reading: 0, stopped_why: why, updated_at: Date.now() })
      .where('guild_id', '=', guildId)
      .where('reading', '=', 1)
      .executeTakeFirst();
    const wasReading = result.numUpdatedRows > 0n;
    // /autoread stop after SayBot left by itself still ends the binding for auto-join.
    if (!wasReading && why === 'asked')
      await db
        .updateTable('auto_read')
        .set({ stopped_why: why })
        .where('guild_id', '=', guildId)
        .where('stopped_why', '=', 'left-voice')
        .execute();
    return wasReading;
  }

  /** Every guild reading now (in guild ID order), to resume after a restart. */
  async listReading(): Promise<AutoReadState[]> {
    const rows = await this.d.db
      .selectFrom('auto_read')
      .selectAll()
      .where('reading', '=', 1)
      .orderBy(this.d.byCodePoint('guild_id'))
      .execute();
    return rows.map((row) => autoReadStateOf(row.guild_id, row));
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
    return autoReadStateOf(guildId, row).settings;
  }
}
