// The stores SayBot opens: the core's areas and every feature's, over SQLite or PostgreSQL. The bot, the entry
// points, the tests and the benchmarks open stores here, so none holds a store without a feature's areas.
import type { DatabaseTarget, StoreTimeouts } from '../core/config.ts';
import type { Dialect } from '../core/store/dialect.ts';
import { PgStore, type PgStoreOptions } from '../core/store/pg-store.ts';
import { SqliteStore, type SqliteStoreOptions } from '../core/store/sqlite-store.ts';
import type { FeatureAreas, Store } from '../core/store/types.ts';
import { autoReadAreas } from '../features/autoread/index.ts';

/** The features' areas over one store's database. */
const featureAreas = (dialect: Dialect): FeatureAreas => ({ ...autoReadAreas(dialect) });

/** The store in a SQLite file (or ':memory:'), migrated before it returns. */
export const openSqliteStore = (file: string, options?: SqliteStoreOptions): SqliteStore & Store =>
  SqliteStore.open(file, featureAreas, options);

/** The store in a PostgreSQL database, migrated before it resolves. */
export const openPgStore = (connectionString: string, options?: PgStoreOptions): Promise<PgStore & Store> =>
  PgStore.open(connectionString, featureAreas, options);

/**
 * Opens the store a config names: the SQLite file (the embedded default), or PostgreSQL for a postgres:// URL
 * (several processes or machines sharing one database). Either way the schema is migrated before it returns.
 */
export async function openStore(target: DatabaseTarget, timeouts?: StoreTimeouts): Promise<Store> {
  return target.kind === 'postgres' ? openPgStore(target.url, { timeouts }) : openSqliteStore(target.path);
}
