import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { StoreTimeouts } from './types.ts';
import { Dialect } from './dialect.ts';
import { KyselyStore, type StoreFeatures } from './kysely-store.ts';
import { storeSchema } from './migrations.ts';
import { migratePostgres } from './pg-migrations.ts';
import type { Database } from './schema.ts';
import type { FeatureAreas } from './types.ts';

// BIGINT (20) and NUMERIC (1700, what sum() returns) as JS numbers: every value SayBot keeps (milliseconds,
// character counts) is far below 2^53. Per pool, so other users of `pg` in the process are not affected.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PgStoreOptions {
  /** Most connections this process holds; default 5 (SayBot's queries are short). */
  maxConnections?: number;
  /** Connect, statement, lock and idle-in-transaction timeouts and TCP keepalive; defaults below. */
  timeouts?: Partial<Omit<StoreTimeouts, 'deadlineMs'>> | undefined;
}

/** A hung server or a lock held by another session ends in an error the caller turns into a refusal. */
const DEFAULT_TIMEOUTS: Omit<StoreTimeouts, 'deadlineMs'> = {
  connectMs: 5000,
  statementMs: 15_000,
  lockMs: 4000,
  idleInTransactionMs: 15_000,
  keepAliveMs: 10_000,
};

/** The Store on PostgreSQL (`pg`) under Kysely: one pool, SQLite's queries (dialect.ts holds what differs). */
export class PgStore extends KyselyStore {
  private constructor(pool: pg.Pool, features: StoreFeatures) {
    super(
      new Dialect('postgres', new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })),
      async () => {
        if (!pool.ending && !pool.ended) await pool.end();
      },
      features,
    );
  }

  /** `features`: the features' part of it, as the composition root gathers it (src/app/store.ts opens stores). */
  static async open(
    connectionString: string,
    features: StoreFeatures,
    options: PgStoreOptions = {},
  ): Promise<PgStore & FeatureAreas> {
    const t = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const pool = new pg.Pool({
      connectionString,
      max: options.maxConnections ?? 5,
      types,
      connectionTimeoutMillis: t.connectMs,
      // Session settings at connect: the server ends a statement, lock wait or idle transaction past these.
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
        await migratePostgres(client, storeSchema(features.schemaSteps));
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return KyselyStore.withFeatures(new PgStore(pool, features), features.areas);
  }
}
