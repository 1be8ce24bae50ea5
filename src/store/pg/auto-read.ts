import { autoReadSettingsParams, autoReadSettingsUpsert } from '../auto-read-sql.ts';
import { autoReadStateOf } from '../rows.ts';
import type { AutoReadBinding, AutoReadSettingChanges, AutoReadSettings, AutoReadState, AutoReadStore } from '../types.ts';
import type { PgDb } from './db.ts';

const SETTINGS_UPSERT = autoReadSettingsUpsert((n) => `$${n}`);

/** Auto-read's binding, on/off and settings per guild on PostgreSQL (each change one statement on one row). */
export class PgAutoRead implements AutoReadStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  async getAutoRead(guildId: string): Promise<AutoReadState> {
    return autoReadStateOf(guildId, await this.#db.get('SELECT * FROM auto_read WHERE guild_id = $1', [guildId]));
  }

  async startAutoRead(guildId: string, binding: Omit<AutoReadBinding, 'startedAt'> & { startedAt?: Date }): Promise<AutoReadState> {
    const row = await this.#db.get(
      `INSERT INTO auto_read (guild_id, reading, text_channel_id, voice_channel_id, started_by, started_at, updated_at)
       VALUES ($1, 1, $2, $3, $4, $5, $6)
       ON CONFLICT (guild_id) DO UPDATE SET reading = 1, text_channel_id = excluded.text_channel_id,
         voice_channel_id = excluded.voice_channel_id, started_by = excluded.started_by, started_at = excluded.started_at,
         updated_at = excluded.updated_at
       RETURNING *`,
      [guildId, binding.textChannelId, binding.voiceChannelId, binding.startedBy, (binding.startedAt ?? new Date()).getTime(), Date.now()],
    );
    return autoReadStateOf(guildId, row);
  }

  async stopAutoRead(guildId: string): Promise<boolean> {
    return (await this.#db.run('UPDATE auto_read SET reading = 0, updated_at = $1 WHERE guild_id = $2 AND reading = 1', [Date.now(), guildId])) > 0;
  }

  async listAutoReading(): Promise<AutoReadState[]> {
    const rows = await this.#db.all('SELECT * FROM auto_read WHERE reading = 1 ORDER BY guild_id COLLATE "C"');
    return rows.map((row) => autoReadStateOf(String(row['guild_id']), row));
  }

  async setAutoReadSettings(guildId: string, changes: AutoReadSettingChanges, updatedBy: string): Promise<AutoReadSettings> {
    const row = await this.#db.get(`${SETTINGS_UPSERT} RETURNING *`, autoReadSettingsParams(guildId, changes, updatedBy, Date.now()));
    return autoReadStateOf(guildId, row).settings;
  }
}
