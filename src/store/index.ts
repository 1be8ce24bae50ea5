export type * from './types.ts';
export { SqliteStore } from './sqlite-store.ts';
export { LATEST_VERSION, SchemaTooNewError } from './migrations.ts';
export { NAME_MAX_LENGTH, isValidName, nameKey, tidyName } from './names.ts';

import { SqliteStore } from './sqlite-store.ts';
import type { Store } from './types.ts';

/**
 * Opens the store a config names. Only SQLite today (config.databasePath); a postgres:// DATABASE_URL would
 * pick a PostgreSQL implementation here, and nothing else would change.
 */
export function openStore(databasePath: string): Store {
  return new SqliteStore(databasePath);
}
