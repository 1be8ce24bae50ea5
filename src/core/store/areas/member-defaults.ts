import { Area, given, present, speechColumnsOf, speechSettingsOf, type Dialect, type Row } from '../dialect.ts';
import type {
  MemberDefaults,
  MemberDefaultsChange,
  MemberDefaultsField,
  MemberField,
} from '../member-defaults-store.ts';
import { SPEECH_SETTING_COLUMNS } from '../../settings/setting-declarations.ts';

type Column = string | number | null;

/** Each member's own speech defaults in a guild, and the features' fields (table member_defaults): `store.memberDefaults`. */
export class MemberDefaultsArea extends Area {
  readonly #fields: readonly MemberField[];
  /** Every field's column, the speech settings' and the features'. */
  readonly #columns: Readonly<Record<string, string>>;

  constructor(dialect: Dialect, fields: readonly MemberField[]) {
    super(dialect);
    this.#fields = fields;
    this.#columns = {
      ...SPEECH_SETTING_COLUMNS,
      voiceDeleted: 'voice_deleted',
      ...Object.fromEntries(fields.map(([name, declared]) => [name, declared.column])),
    };
  }

  #defaultsOf(row: Row<'member_defaults'>): MemberDefaults {
    const columns = row as unknown as Readonly<Record<string, Column>>;
    const fields = Object.fromEntries(
      this.#fields.map(([name, declared]) => {
        const value = columns[declared.column] ?? null;
        return [name, declared.kind === 'flag' && value !== null ? value !== 0 : value];
      }),
    );
    return {
      ...speechSettingsOf(row),
      ...present({ ...fields, voiceDeleted: row.voice_deleted }),
      guildId: row.guild_id,
      userId: row.user_id,
      updatedAt: new Date(row.updated_at),
    };
  }

  /** The features' fields of a change as their columns: a flag as 0/1. */
  #fieldColumns(change: MemberDefaultsChange): Record<string, Column | undefined> {
    const values = change as Readonly<Record<string, string | number | boolean | undefined>>;
    return Object.fromEntries(
      this.#fields.map(([name, declared]) => {
        const value = values[name];
        return [declared.column, typeof value === 'boolean' ? Number(value) : value];
      }),
    );
  }

  async get(guildId: string, userId: string): Promise<MemberDefaults | undefined> {
    const row = await this.d.db
      .selectFrom('member_defaults')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && this.#defaultsOf(row);
  }

  /** Merges the given fields into the member's defaults (creating them); fields left undefined stay as they were. */
  async set(guildId: string, userId: string, settings: MemberDefaultsChange): Promise<MemberDefaults> {
    const changed = {
      ...given({ ...speechColumnsOf(settings, undefined), ...this.#fieldColumns(settings) }),
      ...(settings.voice === undefined ? {} : { voice_deleted: null }),
      updated_at: Date.now(),
    };
    // One statement, so the merge is atomic without an explicit transaction.
    const row = await this.d.db
      .insertInto('member_defaults')
      .values({ guild_id: guildId, user_id: userId, ...changed })
      .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(changed))
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.#defaultsOf(row);
  }

  async clear(guildId: string, userId: string): Promise<boolean> {
    const result = await this.d.db
      .deleteFrom('member_defaults')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Forgets only these fields and returns the rest; undefined (row deleted, as `clear`) when nothing is left. */
  async unset(
    guildId: string,
    userId: string,
    fields: readonly MemberDefaultsField[],
  ): Promise<MemberDefaults | undefined> {
    const nulls = Object.fromEntries(fields.map((field) => [this.#columns[field], null]));
    const row = await this.d.db
      .updateTable('member_defaults')
      .set({ ...nulls, updated_at: Date.now() })
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    const columns = Object.values(this.#columns) as Array<keyof Row<'member_defaults'>>;
    if (!row || columns.some((column) => row[column] !== null)) return row && this.#defaultsOf(row);
    // Nothing left: the row goes, but only if still empty (a `set` in between keeps it, and what it set).
    let empty = this.d.db.deleteFrom('member_defaults').where('guild_id', '=', guildId).where('user_id', '=', userId);
    for (const column of columns) empty = empty.where(column as 'voice', 'is', null);
    await empty.execute();
    return undefined;
  }
}
