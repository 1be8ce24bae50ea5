import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';

export type SqliteRow = Record<string, SQLOutputValue>;

/**
 * The one connection every SQLite area shares: prepared statements cached by their SQL, and transactions.
 * node:sqlite is synchronous, so an area finishes its statements, transaction included, before its method
 * returns: no transaction is ever held open across an `await`.
 */
export class SqliteDb {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  get(sql: string, ...params: SQLInputValue[]): SqliteRow | undefined {
    return this.#statement(sql).get(...params) as SqliteRow | undefined;
  }

  all(sql: string, ...params: SQLInputValue[]): SqliteRow[] {
    return this.#statement(sql).all(...params) as SqliteRow[];
  }

  /** Runs a write; how many rows it changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#statement(sql).run(...params).changes);
  }

  /** Runs an INSERT; the new row's id. */
  insert(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#statement(sql).run(...params).lastInsertRowid);
  }

  /** Runs `work` as one transaction; IMMEDIATE takes the write lock first, so reads inside see what it writes over. */
  transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Forgets the prepared statements and closes the connection: every later call fails. */
  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

/** `ListOptions.limit` as SQLite's LIMIT wants it (-1: no limit). */
export const sqliteLimit = (options: { limit?: number } | undefined): number => options?.limit ?? -1;
