import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { likeContains } from './names.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** A text column in code point order: SQLite's default (BINARY on UTF-8), PostgreSQL's "C" collation. */
export function byCodePoint(kind: 'sqlite' | 'postgres', column: string): RawBuilder<string> {
  return kind === 'postgres' ? sql<string>`${sql.ref(column)} COLLATE "C"` : sql.ref<string>(column);
}

/**
 * What differs between SQLite and PostgreSQL beyond the SQL Kysely writes for each, in one place. Every query is
 * written once against `db`; only these few pieces are chosen by backend.
 */
export class Dialect {
  readonly kind: 'sqlite' | 'postgres';
  readonly db: Db;

  constructor(kind: 'sqlite' | 'postgres', db: Db) {
    this.kind = kind;
    this.db = db;
  }

  /**
   * Runs `work` as one transaction. On SQLite it begins IMMEDIATE (sqlite-store.ts' driver): the write lock is
   * taken before anything is read, so one writer at a time, across processes too. On PostgreSQL it first takes the
   * advisory transaction lock of `lockKey` (per guild, mostly), so checks-then-writes on the same key never
   * interleave while other keys (guilds, shards) never wait; unique keys and row locks do the rest.
   */
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

  /** The larger and the smaller of two values: SQLite's two-argument max()/min(), PostgreSQL's greatest()/least(). */
  get greatest(): string {
    return this.kind === 'postgres' ? 'greatest' : 'max';
  }

  get least(): string {
    return this.kind === 'postgres' ? 'least' : 'min';
  }
}

/** What every area of the store holds: the dialect its queries run on. */
export abstract class Area {
  protected readonly d: Dialect;

  constructor(dialect: Dialect) {
    this.d = dialect;
  }
}

/** `column` (a name key, or the lower-cased text) contains `text` ignoring case (names.ts' rules); '' keeps all. */
export const containsKey = (column: Expression<string> | string, text: string | undefined): RawBuilder<SqlBool> =>
  sql<SqlBool>`${typeof column === 'string' ? sql.ref(column) : column} LIKE ${likeContains(text ?? '')} ESCAPE '\\'`;
