import { likeContains, nameKey } from '../names.ts';
import { memberDefaultsOf, num, orNull, presetColumns, presetOf } from '../rows.ts';
import type { DeletedPreset, MemberDefaults, NewPreset, Preset, PresetListOptions, PresetStore, SavePresetResult, VoiceSettings } from '../types.ts';
import type { PgDb } from './db.ts';

/** Presets, the default preset and member defaults on PostgreSQL; changes to a guild's presets lock `presets:<guild>`. */
export class PgPresets implements PresetStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  async savePreset(preset: NewPreset, options: { maxPerGuild?: number } = {}): Promise<SavePresetResult> {
    const { key, values } = presetColumns(preset);
    return this.#db.transaction(`presets:${preset.guildId}`, async (db): Promise<SavePresetResult> => {
      const existing = num((await db.get('SELECT id FROM presets WHERE guild_id = $1 AND name_key = $2', [preset.guildId, key]))?.['id']);
      if (existing !== undefined) {
        const row = await db.get(
          `UPDATE presets SET name = $1, voice = $2, language = $3, tone = $4, exaggeration = $5, format = $6, created_by = $7, created_at = $8
           WHERE id = $9 RETURNING *`,
          [...values, existing],
        );
        if (!row) throw new Error(`preset ${existing} vanished inside its own transaction`);
        return { status: 'updated', preset: presetOf(row) };
      }
      const max = options.maxPerGuild;
      if (max !== undefined) {
        const count = num((await db.get('SELECT count(*) AS n FROM presets WHERE guild_id = $1', [preset.guildId]))?.['n']) ?? 0;
        if (count >= max) return { status: 'full', limit: max };
      }
      const row = await db.get(
        `INSERT INTO presets (name, voice, language, tone, exaggeration, format, created_by, created_at, guild_id, name_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        [...values, preset.guildId, key],
      );
      if (!row) throw new Error('preset vanished inside its own transaction');
      return { status: 'created', preset: presetOf(row) };
    });
  }

  async getPreset(guildId: string, name: string): Promise<Preset | undefined> {
    const row = await this.#db.get('SELECT * FROM presets WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]);
    return row && presetOf(row);
  }

  async listPresets(guildId: string, options: PresetListOptions = {}): Promise<Preset[]> {
    const rows = await this.#db.all(
      `SELECT * FROM presets
       WHERE guild_id = $1 AND name_key LIKE $2 ESCAPE '\\' AND ($3::text IS NULL OR language IS NULL OR language = $3)
       ORDER BY name_key COLLATE "C" LIMIT $4`,
      [guildId, likeContains(options.contains ?? ''), orNull(options.language), orNull(options.limit)],
    );
    return rows.map(presetOf);
  }

  async deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined> {
    return this.#db.transaction(`presets:${guildId}`, async (db) => {
      const row = await db.get('SELECT * FROM presets WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]);
      if (!row) return undefined;
      const wasDefault = (await db.get('SELECT 1 AS yes FROM guild_settings WHERE guild_id = $1 AND default_preset_id = $2', [guildId, row['id']])) !== undefined;
      await db.run('DELETE FROM presets WHERE id = $1', [row['id']]);
      return { preset: presetOf(row), wasDefault };
    });
  }

  async setDefaultPreset(guildId: string, name: string | null): Promise<boolean> {
    return this.#db.transaction(`presets:${guildId}`, async (db) => {
      let id: number | null = null;
      if (name !== null) {
        const found = num((await db.get('SELECT id FROM presets WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]))?.['id']);
        if (found === undefined) return false;
        id = found;
      }
      await db.run(
        `INSERT INTO guild_settings (guild_id, default_preset_id, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET default_preset_id = excluded.default_preset_id, updated_at = excluded.updated_at`,
        [guildId, id, Date.now()],
      );
      return true;
    });
  }

  async getDefaultPreset(guildId: string): Promise<Preset | undefined> {
    const row = await this.#db.get('SELECT p.* FROM guild_settings g JOIN presets p ON p.id = g.default_preset_id WHERE g.guild_id = $1', [guildId]);
    return row && presetOf(row);
  }

  async getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined> {
    const row = await this.#db.get('SELECT * FROM member_defaults WHERE guild_id = $1 AND user_id = $2', [guildId, userId]);
    return row && memberDefaultsOf(row);
  }

  async setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults> {
    const row = await this.#db.get(
      `INSERT INTO member_defaults AS m (guild_id, user_id, voice, language, tone, exaggeration, format, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET
         voice = coalesce(excluded.voice, m.voice),
         language = coalesce(excluded.language, m.language),
         tone = coalesce(excluded.tone, m.tone),
         exaggeration = coalesce(excluded.exaggeration, m.exaggeration),
         format = coalesce(excluded.format, m.format),
         updated_at = excluded.updated_at
       RETURNING *`,
      [guildId, userId, orNull(settings.voice), orNull(settings.language), orNull(settings.tone), orNull(settings.exaggeration), orNull(settings.format), Date.now()],
    );
    if (!row) throw new Error('member defaults vanished right after being written');
    return memberDefaultsOf(row);
  }

  async clearMemberDefaults(guildId: string, userId: string): Promise<boolean> {
    return (await this.#db.run('DELETE FROM member_defaults WHERE guild_id = $1 AND user_id = $2', [guildId, userId])) > 0;
  }
}
