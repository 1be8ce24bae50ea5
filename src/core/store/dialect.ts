// What every area of the store is built on: the dialect its queries run on (what differs between SQLite and
// PostgreSQL, chosen in one place), the Area base, and, at the end, the mapping of rows every area shares.
import { type Expression, type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { likeContains, nameKey } from './names.ts';
import type { Database } from './schema.ts';
import type { SpeechSettings } from './common-types.ts';
import {
  SPEECH_SETTING_COLUMNS,
  SPEECH_SETTING_NAMES,
  type SpeechSettingColumns,
} from '../settings/setting-declarations.ts';

export type Db = Kysely<Database>;

/** A text column in code point order: SQLite's default (BINARY on UTF-8), PostgreSQL's "C" collation. */
export function byCodePoint(kind: 'sqlite' | 'postgres', column: string): RawBuilder<string> {
  return kind === 'postgres' ? sql<string>`${sql.ref(column)} COLLATE "C"` : sql.ref<string>(column);
}

/** What differs between SQLite and PostgreSQL beyond Kysely's SQL: every query is written once against `db`. */
export class Dialect {
  readonly kind: 'sqlite' | 'postgres';
  readonly db: Db;

  constructor(kind: 'sqlite' | 'postgres', db: Db) {
    this.kind = kind;
    this.db = db;
  }

  /** Runs `work` as one transaction. SQLite begins IMMEDIATE: the write lock first, one writer across processes.
   * PostgreSQL first takes `lockKey`'s advisory lock (per guild, mostly), so checks-then-writes on a key never
   * interleave while other keys never wait. */
  transaction<T>(lockKey: string | undefined, work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (lockKey !== undefined) await this.lock(trx, lockKey);
      return work(trx);
    });
  }

  /** One more advisory lock inside a transaction (PostgreSQL); SQLite's transaction already holds the write lock. */
  async lock(trx: Db, key: string): Promise<void> {
    if (this.kind === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }

  /** A text column in code point order (byCodePoint above). */
  byCodePoint(column: string): RawBuilder<string> {
    return byCodePoint(this.kind, column);
  }
}

/** The tables whose rows belong to a guild (a `guild_id` column). */
type GuildTable = { [T in keyof Database]: Database[T] extends { guild_id: unknown } ? T : never }[keyof Database];

/** How many rows of `table` belong to `guildId` (for a bound checked before an insert). */
export async function guildRows(db: Db, table: GuildTable, guildId: string): Promise<number> {
  // One table's type stands for the union: the query names only guild_id, which every one of them has.
  const { n } = await db
    .selectFrom(table as 'presets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('guild_id', '=', guildId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** What every area of the store holds: the dialect its queries run on. */
export abstract class Area {
  protected readonly d: Dialect;

  constructor(dialect: Dialect) {
    this.d = dialect;
  }
}

/** `column` (a name key, or the lower-cased text) holds each word of `text`, in any order, ignoring case (names.ts'
 * rules), as the built-in voices are matched (src/core/interactions/choices.ts); '' keeps all. */
export const containsKey = (column: Expression<string> | string, text: string | undefined): RawBuilder<SqlBool> => {
  const ref = typeof column === 'string' ? sql.ref(column) : column;
  const words = nameKey(text ?? '').split(' ');
  const each = words.map((word) => sql`${ref} LIKE ${likeContains(word)} ESCAPE '\\'`);
  return sql<SqlBool>`(${sql.join(each, sql` AND `)})`;
};

// The row mapping every area shares: snake_case to camelCase, milliseconds to Dates, 0/1 flags, unset fields left out.
export type Row<T extends keyof Database> = Selectable<Database[T]>;
type Present<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

/** Only the fields that hold a value (no null, no explicit undefined), so readers see only what is set. */
export const present = <T extends object>(fields: T): Present<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as Present<T>;

/** Only the fields given (null kept: it clears a column), for an update that leaves the others as they are. */
export const given = <T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const dateOf = (ms: number | null): Date | undefined => (ms === null ? undefined : new Date(ms));
/** A 0/1 flag column (NULL: unset). */
export const flagOf = (v: number | null): boolean | undefined => (v === null ? undefined : v !== 0);

/** The settings a row of presets or member_defaults fixes (the columns SPEECH_SETTINGS declares). */
export const speechSettingsOf = (row: SpeechSettingColumns): SpeechSettings =>
  present(
    Object.fromEntries(SPEECH_SETTING_NAMES.map((name) => [name, row[SPEECH_SETTING_COLUMNS[name]]])) as {
      [K in keyof SpeechSettings]-?: SpeechSettings[K] | null;
    },
  );

/** Each setting's column: the value a setting fixes (a column holds it as it is), `unset` for one left out. */
export const speechColumnsOf = <U extends null | undefined>(
  settings: SpeechSettings,
  unset: U,
): { [C in keyof SpeechSettingColumns]: Exclude<SpeechSettingColumns[C], null> | U } =>
  Object.fromEntries(SPEECH_SETTING_NAMES.map((name) => [SPEECH_SETTING_COLUMNS[name], settings[name] ?? unset])) as {
    [C in keyof SpeechSettingColumns]: Exclude<SpeechSettingColumns[C], null> | U;
  };
