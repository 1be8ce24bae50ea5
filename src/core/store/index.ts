export type * from './types.ts';
export { SqliteStore } from './sqlite-store.ts';
export { LATEST_VERSION, SchemaTooNewError } from './migrations.ts';
export { NAME_MAX_LENGTH, isValidName, nameKey, tidyName } from './names.ts';
export { AUTO_READ_DEFAULTS } from './auto-read-store.ts';

export { PgStore } from './pg-store.ts';

import type { DatabaseTarget, StoreTimeouts } from '../config.ts';
import { PgStore } from './pg-store.ts';
import { SqliteStore } from './sqlite-store.ts';
import type { Store } from './types.ts';

/**
 * Opens the store a config names: the SQLite file (the embedded default), or PostgreSQL for a postgres:// URL
 * (several processes or machines sharing one database). Either way the schema is migrated before it returns.
 */
export async function openStore(target: DatabaseTarget, timeouts?: StoreTimeouts): Promise<Store> {
  return target.kind === 'postgres' ? PgStore.open(target.url, { timeouts }) : new SqliteStore(target.path);
}
