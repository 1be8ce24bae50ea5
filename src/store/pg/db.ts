import type pg from 'pg';
import type { Row } from '../rows.ts';

type Queryable = Pick<pg.PoolClient, 'query'>;

/** A connection to run statements on: the pool (one statement) or the client of a transaction. */
export class PgQueries {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async get(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await this.#db.query<Row>(sql, params)).rows[0];
  }

  async all(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.#db.query<Row>(sql, params)).rows;
  }

  /** Runs a write; how many rows it changed. */
  async run(sql: string, params: unknown[] = []): Promise<number> {
    return (await this.#db.query(sql, params)).rowCount ?? 0;
  }
}

/**
 * The pool every PostgreSQL area shares. What SQLite gets from BEGIN IMMEDIATE (one writer at a time) an area
 * gets here from an advisory transaction lock on a key of its own (per guild, mostly) where a check and a write
 * must not interleave, and from unique keys elsewhere.
 */
export class PgDb extends PgQueries {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    super(pool);
    this.#pool = pool;
  }

  /**
   * Runs `work` in one transaction on one connection. With `lockKey`, first takes the advisory transaction lock
   * of that key (released at COMMIT/ROLLBACK), so checks-then-writes on the same key never interleave, across
   * processes too.
   */
  async transaction<T>(lockKey: string | undefined, work: (db: PgQueries) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      if (lockKey !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey]);
      const result = await work(new PgQueries(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
