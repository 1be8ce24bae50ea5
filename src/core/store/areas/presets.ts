import { Area, containsKey, guildRows, speechColumnsOf, speechSettingsOf, type Row } from '../dialect.ts';
import { nameKey, tidyName } from '../names.ts';
import type { DeletedPreset, NewPreset, Preset, PresetListOptions, SavePresetResult } from '../preset-store.ts';

const presetOf = (row: Row<'presets'>): Preset => ({
  ...speechSettingsOf(row),
  guildId: row.guild_id,
  name: row.name,
  voice: row.voice,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
});

/** A guild's presets and default preset (`store.presets`; PostgreSQL locks `presets:<guild>`). */
export class PresetArea extends Area {
  /** Creates the preset, or replaces the one of the same name (its default status is kept). */
  async save(preset: NewPreset, options: { maxPerGuild?: number } = {}): Promise<SavePresetResult> {
    const name = tidyName(preset.name);
    const key = nameKey(name);
    const values = {
      name,
      ...speechColumnsOf(preset, null),
      voice: preset.voice,
      created_by: preset.createdBy,
      created_at: (preset.createdAt ?? new Date()).getTime(),
    };
    return this.d.transaction(`presets:${preset.guildId}`, async (trx): Promise<SavePresetResult> => {
      const existing = await trx
        .selectFrom('presets')
        .select('id')
        .where('guild_id', '=', preset.guildId)
        .where('name_key', '=', key)
        .executeTakeFirst();
      if (existing) {
        // UPDATE, not REPLACE: the row keeps its id, so a default pointing at it stays the default.
        const row = await trx
          .updateTable('presets')
          .set(values)
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { status: 'updated', preset: presetOf(row) };
      }
      const max = options.maxPerGuild;
      if (max !== undefined) {
        if ((await guildRows(trx, 'presets', preset.guildId)) >= max) return { status: 'full', limit: max };
      }
      const row = await trx
        .insertInto('presets')
        .values({ ...values, guild_id: preset.guildId, name_key: key })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { status: 'created', preset: presetOf(row) };
    });
  }

  async get(guildId: string, name: string): Promise<Preset | undefined> {
    const row = await this.d.db
      .selectFrom('presets')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
    return row && presetOf(row);
  }

  async list(guildId: string, options: PresetListOptions = {}): Promise<Preset[]> {
    const { language, limit } = options;
    // One query on the (guild_id, name_key) unique index, in name order.
    let query = this.d.db
      .selectFrom('presets')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where(containsKey('name_key', options.contains));
    if (language !== undefined)
      query = query.where((eb) => eb.or([eb('language', 'is', null), eb('language', '=', language)]));
    if (limit !== undefined) query = query.limit(limit);
    return (await query.orderBy(this.d.byCodePoint('name_key')).execute()).map(presetOf);
  }

  /** Removes a preset; when it was the default, the guild is left without one. */
  async delete(guildId: string, name: string): Promise<DeletedPreset | undefined> {
    return this.d.transaction(`presets:${guildId}`, async (trx) => {
      const row = await trx
        .selectFrom('presets')
        .selectAll()
        .where('guild_id', '=', guildId)
        .where('name_key', '=', nameKey(name))
        .executeTakeFirst();
      if (!row) return undefined;
      const isDefault = await trx
        .selectFrom('guild_settings')
        .select('guild_id')
        .where('guild_id', '=', guildId)
        .where('default_preset_id', '=', row.id)
        .executeTakeFirst();
      // The foreign key (ON DELETE SET NULL) unsets the default in this same transaction.
      await trx.deleteFrom('presets').where('id', '=', row.id).execute();
      return { preset: presetOf(row), wasDefault: isDefault !== undefined };
    });
  }

  /** Sets (name) or clears (null) the default preset. False when no preset has that name. */
  async setDefault(guildId: string, name: string | null): Promise<boolean> {
    return this.d.transaction(`presets:${guildId}`, async (trx) => {
      let id: number | null = null;
      if (name !== null) {
        const found = await trx
          .selectFrom('presets')
          .select('id')
          .where('guild_id', '=', guildId)
          .where('name_key', '=', nameKey(name))
          .executeTakeFirst();
        if (!found) return false;
        id = found.id;
      }
      const values = { default_preset_id: id, updated_at: Date.now() };
      await trx
        .insertInto('guild_settings')
        .values({ guild_id: guildId, ...values })
        .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
        .execute();
      return true;
    });
  }

  async getDefault(guildId: string): Promise<Preset | undefined> {
    const row = await this.d.db
      .selectFrom('guild_settings as g')
      .innerJoin('presets as p', 'p.id', 'g.default_preset_id')
      .selectAll('p')
      .where('g.guild_id', '=', guildId)
      .executeTakeFirst();
    return row && presetOf(row);
  }
}
