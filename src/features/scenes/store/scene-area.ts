import { Area, type Db } from '../../../core/store/dialect.ts';
import { nameKey, tidyName } from '../../../core/store/names.ts';
import { shareRefusal } from '../../../core/store/member-share.ts';
import type { DeleteSceneResult, SaveSceneResult, SavedScene } from './scene-store.ts';

/** How many scenes a server keeps: a list a member can read through, and a bounded table. */
export const MAX_SAVED_SCENES = 25;

/** Saved scenes, one per name; changed only by who saved it or a manager; a member's share of MAX_SAVED_SCENES. */
export class SceneArea extends Area {
  async save(
    guildId: string,
    name: string,
    script: string,
    savedBy: string,
    manager: boolean,
  ): Promise<SaveSceneResult> {
    const key = nameKey(name);
    const shown = tidyName(name);
    return this.d.transaction(`scenes:${guildId}`, async (trx): Promise<SaveSceneResult> => {
      const existing = await authorOf(trx, guildId, key);
      const values = { name: shown, script, saved_by: savedBy, saved_at: Date.now() };
      if (existing) {
        if (existing.saved_by !== savedBy && !manager) return { status: 'refused', problem: 'not-yours' };
        await trx
          .updateTable('scenes')
          .set(values)
          .where('guild_id', '=', guildId)
          .where('name_key', '=', key)
          .execute();
        return { status: 'replaced', name: shown };
      }
      const { n, mine } = await trx
        .selectFrom('scenes')
        .select((eb) => [
          eb.fn.countAll<number>().as('n'),
          eb.fn.sum<number>(eb.case().when('saved_by', '=', savedBy).then(1).else(0).end()).as('mine'),
        ])
        .where('guild_id', '=', guildId)
        .executeTakeFirstOrThrow();
      const refused = shareRefusal({ total: Number(n), mine: Number(mine ?? 0), cap: MAX_SAVED_SCENES, manager });
      if (refused?.problem === 'full') return { status: 'refused', problem: 'full' };
      if (refused?.problem === 'member-share')
        return { status: 'refused', problem: 'member-share', share: refused.share };
      await trx
        .insertInto('scenes')
        .values({ guild_id: guildId, name_key: key, ...values })
        .execute();
      return { status: 'added', name: shown };
    });
  }

  async get(guildId: string, name: string): Promise<SavedScene | undefined> {
    const row = await this.d.db
      .selectFrom('scenes')
      .select(['name', 'script', 'saved_by', 'saved_at'])
      .where('guild_id', '=', guildId)
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
    return row && { name: row.name, script: row.script, savedBy: row.saved_by, savedAt: Number(row.saved_at) };
  }

  /** The server's scenes by name, without their scripts. */
  async list(guildId: string): Promise<Array<Omit<SavedScene, 'script'>>> {
    const rows = await this.d.db
      .selectFrom('scenes')
      .select(['name', 'saved_by', 'saved_at'])
      .where('guild_id', '=', guildId)
      .orderBy(this.d.byCodePoint('name_key'))
      .limit(MAX_SAVED_SCENES)
      .execute();
    return rows.map((row) => ({ name: row.name, savedBy: row.saved_by, savedAt: Number(row.saved_at) }));
  }

  async delete(guildId: string, name: string, by: string, manager: boolean): Promise<DeleteSceneResult> {
    const key = nameKey(name);
    return this.d.transaction(`scenes:${guildId}`, async (trx): Promise<DeleteSceneResult> => {
      const existing = await authorOf(trx, guildId, key);
      if (!existing) return { status: 'unknown' };
      if (existing.saved_by !== by && !manager) return { status: 'not-yours' };
      await trx.deleteFrom('scenes').where('guild_id', '=', guildId).where('name_key', '=', key).execute();
      return { status: 'deleted' };
    });
  }
}

/** Who saved the scene under `key`, read in the transaction that may change it. */
function authorOf(trx: Db, guildId: string, key: string): Promise<{ saved_by: string } | undefined> {
  return trx
    .selectFrom('scenes')
    .select('saved_by')
    .where('guild_id', '=', guildId)
    .where('name_key', '=', key)
    .executeTakeFirst();
}
