import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { ensureWritableFolder } from '../data-folder.ts';
import { Dialect } from './dialect.ts';
import { KyselyStore, type StoreFeatures } from './kysely-store.ts';
import { migrate, schemaVersion, storeSchema } from './migrations.ts';
import type { SchemaVersion } from './schema-steps.ts';
import type { FeatureAreas } from './types.ts';
import type { Database } from './schema.ts';

/** Prepared statements kept per connection: SayBot's queries have few shapes; a bound all the same. */
const MAX_STATEMENTS = 500;
const isBusy = (error: unknown): boolean => (Number((error as { errcode?: unknown }).errcode) & 0xff) === 5; // SQLITE_BUSY and its extended codes

/** Kysely's connection over node:sqlite's synchronous DatabaseSync. A statement that finds the database locked is
 * retried after a pause, up to the busy timeout, without blocking the event loop (SQLite's busy handler would, and
 * could wait on a transaction this thread must finish). */
class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  readonly #busyMs: number;
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>();

  constructor(db: DatabaseSync, busyMs: number) {
    this.#db = db;
    this.#busyMs = busyMs;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.#busyMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      try {
        return this.#run<R>(query);
      } catch (error) {
        if (!isBusy(error) || this.#db.isTransaction || Date.now() >= deadline) throw error;
      }
      await sleep(pause);
    }
  }

  #run<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      if (this.#statements.size >= MAX_STATEMENTS) this.#statements.clear();
      const statement = this.#db.prepare(sql);
      prepared = { statement, reader: statement.columns().length > 0 };
      this.#statements.set(sql, prepared);
    }
    const params = parameters as SQLInputValue[];
    if (prepared.reader) return { rows: prepared.statement.all(...params) as R[] };
    return { rows: [], numAffectedRows: BigInt(prepared.statement.run(...params).changes) };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the SQLite store does not stream');
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}

/** One connection (Kysely's SQLite adapter lets one query or transaction use it at a time). */
class NodeSqliteDriver implements Driver {
  readonly #db: DatabaseSync;
  readonly #connection: NodeSqliteConnection;

  constructor(db: DatabaseSync, busyMs: number) {
    this.#db = db;
    this.#connection = new NodeSqliteConnection(db, busyMs);
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async releaseConnection(): Promise<void> {}

  /** IMMEDIATE takes the write lock first, so reads inside see nothing another process changes before the commit. */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#db.isTransaction) await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async destroy(): Promise<void> {
    this.#connection.close();
  }
}

/** Opens the file in WAL mode and migrates it; the connection closed again if either fails. */
function openDatabase(file: string, busyMs: number, schema: readonly SchemaVersion[]): DatabaseSync {
  if (file !== ':memory:') ensureWritableFolder(path.dirname(path.resolve(file)), 'DATABASE_URL', file);
  const db = new DatabaseSync(file, { timeout: busyMs, enableForeignKeyConstraints: true });
  try {
    if (file !== ':memory:') {
      const mode = db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'];
      if (mode !== 'wal') throw new Error(`SQLite would not use WAL mode for ${file} (got ${String(mode)})`);
    }
    db.exec('PRAGMA synchronous = FULL');
    migrate(db, schema);
    // From here on a lock is waited for by NodeSqliteConnection, without blocking the thread.
    db.exec('PRAGMA busy_timeout = 0');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** SQLite Store (node:sqlite) under Kysely; WAL + synchronous=FULL: a commit acknowledged survives a power cut. */
export class SqliteStore extends KyselyStore {
  readonly path: string;
  readonly #db: DatabaseSync;

  private constructor(file: string, features: StoreFeatures) {
    // How long a write waits for another connection's lock before failing (SQLITE_BUSY).
    const busyMs = 5000;
    const db = openDatabase(file, busyMs, storeSchema(features.schemaSteps));
    super(
      new Dialect(
        'sqlite',
        new Kysely<Database>({
          dialect: {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new NodeSqliteDriver(db, busyMs),
            createQueryCompiler: () => new SqliteQueryCompiler(),
            createIntrospector: (kysely) => new SqliteIntrospector(kysely),
          },
        }),
      ),
      async () => {
        if (db.isOpen) db.close();
      },
      features,
    );
    this.path = file;
    this.#db = db;
  }

  /** Opens (creating if need be) and migrates the file, or ':memory:'; `features` as src/app/store.ts makes them. */
  static open(file: string, features: StoreFeatures): SqliteStore & FeatureAreas {
    return KyselyStore.withFeatures(new SqliteStore(file, features), features.areas);
  }

  /** The schema version the file is at (for tests and the start-up log). */
  get schemaVersion(): number {
    return schemaVersion(this.#db);
  }
}
