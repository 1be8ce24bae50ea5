import { likeContains, nameKey } from '../names.ts';
import { memberDefaultsOf, num, orNull, presetColumns, presetOf } from '../rows.ts';
import type { DeletedPreset, MemberDefaults, NewPreset, Preset, PresetListOptions, PresetStore, SavePresetResult, VoiceSettings } from '../types.ts';
import { type SqliteDb, sqliteLimit } from './db.ts';

/** Presets, the default preset and member defaults on SQLite. */
export class SqlitePresets implements PresetStore {
  readonly #db: SqliteDb;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  async savePreset(preset: NewPreset, options: { maxPerGuild?: number } = {}): Promise<SavePresetResult> {
    const db = this.#db;
    const { key, values } = presetColumns(preset);
    return db.transaction((): SavePresetResult => {
      const existing = num(db.get('SELECT id FROM presets WHERE guild_id = ? AND name_key = ?', preset.guildId, key)?.['id']);
      if (existing !== undefined) {
        // UPDATE, not REPLACE: the row keeps its id, so a default pointing at it stays the default.
        db.run(
          `UPDATE presets SET name = ?, voice = ?, language = ?, tone = ?, exaggeration = ?, format = ?, created_by = ?, created_at = ?
           WHERE id = ?`,
          ...values,
          existing,
        );
        return { status: 'updated', preset: this.#presetById(existing) };
      }
      const max = options.maxPerGuild;
      if (max !== undefined) {
        const count = num(db.get('SELECT count(*) AS n FROM presets WHERE guild_id = ?', preset.guildId)?.['n']) ?? 0;
        if (count >= max) return { status: 'full', limit: max };
      }
      const id = db.insert(
        `INSERT INTO presets (name, voice, language, tone, exaggeration, format, created_by, created_at, guild_id, name_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ...values,
        preset.guildId,
        key,
      );
      return { status: 'created', preset: this.#presetById(id) };
    });
  }

  #presetById(id: number): Preset {
    const row = this.#db.get('SELECT * FROM presets WHERE id = ?', id);
    if (!row) throw new Error(`preset ${id} vanished inside its own transaction`);
    return presetOf(row);
  }

  async getPreset(guildId: string, name: string): Promise<Preset | undefined> {
    const row = this.#db.get('SELECT * FROM presets WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name));
    return row && presetOf(row);
  }

  async listPresets(guildId: string, options: PresetListOptions = {}): Promise<Preset[]> {
    // One query on the (guild_id, name_key) unique index, in name order.
    return this.#db.all(
      `SELECT * FROM presets
       WHERE guild_id = ? AND name_key LIKE ? ESCAPE '\\' AND (? IS NULL OR language IS NULL OR language = ?)
       ORDER BY name_key LIMIT ?`,
      guildId,
      likeContains(options.contains ?? ''),
      orNull(options.language),
      orNull(options.language),
      sqliteLimit(options),
    ).map(presetOf);
  }

  async deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined> {
    const db = this.#db;
    return db.transaction(() => {
      const row = db.get('SELECT * FROM presets WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name));
      if (!row) return undefined;
      const wasDefault = db.get('SELECT 1 AS yes FROM guild_settings WHERE guild_id = ? AND default_preset_id = ?', guildId, row['id'] ?? null) !== undefined;
      // The foreign key (ON DELETE SET NULL) unsets the default in this same transaction.
      db.run('DELETE FROM presets WHERE id = ?', row['id'] ?? null);
      return { preset: presetOf(row), wasDefault };
    });
  }

  async setDefaultPreset(guildId: string, name: string | null): Promise<boolean> {
    const db = this.#db;
    return db.transaction(() => {
      let id: number | null = null;
      if (name !== null) {
        const found = num(db.get('SELECT id FROM presets WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name))?.['id']);
        if (found === undefined) return false;
        id = found;
      }
      db.run(
        `INSERT INTO guild_settings (guild_id, default_preset_id, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (guild_id) DO UPDATE SET default_preset_id = excluded.default_preset_id, updated_at = excluded.updated_at`,
        guildId,
        id,
        Date.now(),
      );
      return true;
    });
  }

  async getDefaultPreset(guildId: string): Promise<Preset | undefined> {
    const row = this.#db.get('SELECT p.* FROM guild_settings g JOIN presets p ON p.id = g.default_preset_id WHERE g.guild_id = ?', guildId);
    return row && presetOf(row);
  }

  async getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined> {
    const row = this.#db.get('SELECT * FROM member_defaults WHERE guild_id = ? AND user_id = ?', guildId, userId);
    return row && memberDefaultsOf(row);
  }

  async setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults> {
    // One statement, so the merge is atomic without an explicit transaction.
    this.#db.run(
      `INSERT INTO member_defaults (guild_id, user_id, voice, language, tone, exaggeration, format, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET
         voice = coalesce(excluded.voice, voice),
         language = coalesce(excluded.language, language),
         tone = coalesce(excluded.tone, tone),
         exaggeration = coalesce(excluded.exaggeration, exaggeration),
         format = coalesce(excluded.format, format),
         updated_at = excluded.updated_at`,
      guildId,
      userId,
      orNull(settings.voice),
      orNull(settings.language),
      orNull(settings.tone),
      orNull(settings.exaggeration),
      orNull(settings.format),
      Date.now(),
    );
    const stored = await this.getMemberDefaults(guildId, userId);
    if (!stored) throw new Error('member defaults vanished right after being written');
    return stored;
  }

  async clearMemberDefaults(guildId: string, userId: string): Promise<boolean> {
    return this.#db.run('DELETE FROM member_defaults WHERE guild_id = ? AND user_id = ?', guildId, userId) > 0;
  }
}
