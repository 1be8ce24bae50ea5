import { Area } from '../dialect.ts';
import type { MemberDefaults, MemberDefaultsChange, MemberDefaultsField } from '../member-defaults-store.ts';
import { flagOf, given, present, speechColumnsOf, speechSettingsOf, type Row } from '../rows.ts';
import { SPEECH_SETTING_COLUMNS } from '../../speech/setting-declarations.ts';

const memberDefaultsOf = (row: Row<'member_defaults'>): MemberDefaults => ({
  ...speechSettingsOf(row),
  ...present({ spokenName: row.spoken_name, readMe: flagOf(row.read_me) }),
  guildId: row.guild_id,
  userId: row.user_id,
  updatedAt: new Date(row.updated_at),
});

/** Each member's own speech defaults in a guild (table member_defaults): `store.memberDefaults`. */
export class MemberDefaultsArea extends Area {
  async get(guildId: string, userId: string): Promise<MemberDefaults | undefined> {
    const row = await this.d.db
      .selectFrom('member_defaults')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && memberDefaultsOf(row);
  }

  /** Merges the given fields into the member's defaults (creating them); fields left undefined stay as they were. */
  async set(guildId: string, userId: string, settings: MemberDefaultsChange): Promise<MemberDefaults> {
    const { spokenName, readMe } = settings;
    const changed = {
      ...given({
        ...speechColumnsOf(settings, undefined),
        spoken_name: spokenName,
        read_me: readMe === undefined ? undefined : Number(readMe),
      }),
      updated_at: Date.now(),
    };
    // One statement, so the merge is atomic without an explicit transaction.
    const row = await this.d.db
      .insertInto('member_defaults')
      .values({ guild_id: guildId, user_id: userId, ...changed })
      .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(changed))
      .returningAll()
      .executeTakeFirstOrThrow();
    return memberDefaultsOf(row);
  }

  async clear(guildId: string, userId: string): Promise<boolean> {
    const result = await this.d.db
      .deleteFrom('member_defaults')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Forgets only these fields (e.g. the spoken name) and returns what is left; undefined when nothing is left, the
   * row then deleted as by `clear`.
   */
  async unset(
    guildId: string,
    userId: string,
    fields: readonly MemberDefaultsField[],
  ): Promise<MemberDefaults | undefined> {
    const nulls = Object.fromEntries(fields.map((field) => [MEMBER_DEFAULT_COLUMNS[field], null]));
    const row = await this.d.db
      .updateTable('member_defaults')
      .set({ ...nulls, updated_at: Date.now() })
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!row || MEMBER_DEFAULT_COLUMN_LIST.some((column) => row[column] !== null)) return row && memberDefaultsOf(row);
    // Nothing left: the row goes, but only if still empty (a `set` in between keeps it, and what it set).
    let empty = this.d.db.deleteFrom('member_defaults').where('guild_id', '=', guildId).where('user_id', '=', userId);
    for (const column of MEMBER_DEFAULT_COLUMN_LIST) empty = empty.where(column, 'is', null);
    await empty.execute();
    return undefined;
  }
}

/** Each field of a member's defaults and its column. */
const MEMBER_DEFAULT_COLUMNS = {
  ...SPEECH_SETTING_COLUMNS,
  spokenName: 'spoken_name',
  readMe: 'read_me',
} as const satisfies Record<MemberDefaultsField, string>;
const MEMBER_DEFAULT_COLUMN_LIST = Object.values(MEMBER_DEFAULT_COLUMNS);
