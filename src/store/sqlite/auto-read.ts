import { autoReadSettingsParams, autoReadSettingsUpsert } from '../auto-read-sql.ts';
import { autoReadStateOf } from '../rows.ts';
import type { AutoReadBinding, AutoReadSettingChanges, AutoReadSettings, AutoReadState, AutoReadStore } from '../types.ts';
import type { SqliteDb } from './db.ts';

const SETTINGS_UPSERT = autoReadSettingsUpsert((n) => `?${n}`);

/** Auto-read's binding, on/off and settings per guild on SQLite. */
export class SqliteAutoRead implements AutoReadStore {
  readonly #db: SqliteDb;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  async getAutoRead(guildId: string): Promise<AutoReadState> {
    return autoReadStateOf(guildId, this.#db.get('SELECT * FROM auto_read WHERE guild_id = ?', guildId));
  }

  async startAutoRead(guildId: string, binding: Omit<AutoReadBinding, 'startedAt'> & { startedAt?: Date }): Promise<AutoReadState> {
    const at = (binding.startedAt ?? new Date()).getTime();
    // One statement: binding and "reading" change together; the settings columns are not touched.
    this.#db.run(
      `INSERT INTO auto_read (guild_id, reading, text_channel_id, voice_channel_id, started_by, started_at, updated_at)
       VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (guild_id) DO UPDATE SET reading = 1, text_channel_id = excluded.text_channel_id,
         voice_channel_id = excluded.voice_channel_id, started_by = excluded.started_by, started_at = excluded.started_at,
         updated_at = excluded.updated_at`,
      guildId, binding.textChannelId, binding.voiceChannelId, binding.startedBy, at, Date.now(),
    );
    return this.getAutoRead(guildId);
  }

  async stopAutoRead(guildId: string): Promise<boolean> {
    return this.#db.run('UPDATE auto_read SET reading = 0, updated_at = ? WHERE guild_id = ? AND reading = 1', Date.now(), guildId) > 0;
  }

  async listAutoReading(): Promise<AutoReadState[]> {
    return this.#db.all('SELECT * FROM auto_read WHERE reading = 1 ORDER BY guild_id').map((row) => autoReadStateOf(String(row['guild_id']), row));
  }

  async setAutoReadSettings(guildId: string, changes: AutoReadSettingChanges, updatedBy: string): Promise<AutoReadSettings> {
    this.#db.run(SETTINGS_UPSERT, ...autoReadSettingsParams(guildId, changes, updatedBy, Date.now()));
    return (await this.getAutoRead(guildId)).settings;
  }
}
