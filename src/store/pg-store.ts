import pg from 'pg';
import type { StoreTimeouts } from '../config.ts';
import { ComposedStore } from './composed-store.ts';
import { PgAccounting } from './pg/accounting.ts';
import { PgAutoRead } from './pg/auto-read.ts';
import { PgDb } from './pg/db.ts';
import { PgDictionary } from './pg/dictionary.ts';
import { PgOutputDefaults } from './pg/output-defaults.ts';
import { PgPresets } from './pg/presets.ts';
import { PgPrivacy } from './pg/privacy.ts';
import { PgVoiceLibrary } from './pg/voice-library.ts';
import { migratePostgres } from './pg-migrations.ts';
import { num } from './rows.ts';

// BIGINT (20) and NUMERIC (1700, what sum() returns) as JS numbers: every value SayBot keeps (milliseconds,
// character counts) is far below 2^53. Per pool, so other users of `pg` in the process are not affected.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PgStoreOptions {
  /** Most connections this process holds; default 5 (SayBot's queries are short). */
  maxConnections?: number;
  /** Connect, statement, lock and idle-in-transaction timeouts and TCP keepalive; defaults below. */
  timeouts?: Partial<Omit<StoreTimeouts, 'deadlineMs'>>;
}

/** A hung server or a lock held by another session ends in an error the caller turns into a refusal. */
const DEFAULT_TIMEOUTS: Omit<StoreTimeouts, 'deadlineMs'> = {
  connectMs: 5000, statementMs: 15_000, lockMs: 4000, idleInTransactionMs: 15_000, keepAliveMs: 10_000,
};

/**
 * The Store on PostgreSQL (driver: `pg`, node-postgres): one pool (pg/db.ts) shared by one module per area
 * (src/store/pg/), composed into the Store. Same schema and semantics as SqliteStore; see PgDb for how checks
 * and writes are kept from interleaving. Open with `PgStore.open(url)`: connecting and migrating are asynchronous.
 */
export class PgStore extends ComposedStore {
  readonly #pool: pg.Pool;
  readonly #db: PgDb;
  #closed = false;

  private constructor(pool: pg.Pool) {
    const db = new PgDb(pool);
    super({
      presets: new PgPresets(db),
      voiceLibrary: new PgVoiceLibrary(db),
      accounting: new PgAccounting(db),
      autoRead: new PgAutoRead(db),
      dictionary: new PgDictionary(db),
      outputDefaults: new PgOutputDefaults(db),
      privacy: new PgPrivacy(db),
    });
    this.#pool = pool;
    this.#db = db;
  }

  static async open(connectionString: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const t = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const pool = new pg.Pool({
      connectionString, max: options.maxConnections ?? 5, types,
      connectionTimeoutMillis: t.connectMs,
      // Sent as the session's settings at connect: the server itself ends a statement, a lock wait or an open
      // transaction left idle (a process stuck between statements) past these.
      statement_timeout: t.statementMs,
      lock_timeout: t.lockMs,
      idle_in_transaction_session_timeout: t.idleInTransactionMs,
      // The client's side: a server or network gone silent is noticed in seconds, not after TCP's hours.
      query_timeout: t.statementMs + 1000,
      keepAlive: true,
      keepAliveInitialDelayMillis: t.keepAliveMs,
    });
    // An idle client losing its server must not crash the process; the next query reports the failure.
    pool.on('error', () => {});
    try {
      const client = await pool.connect();
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PgStore(pool);
  }

  get schemaVersion(): Promise<number> {
    return this.#db.get('SELECT max(version) AS v FROM schema_migrations').then((row) => num(row?.['v']) ?? 0);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}
