// The stores SayBot opens, with the core's areas and every feature's, so none holds a store without a feature's areas.
import type { DatabaseTarget } from '../core/config.ts';
import type { StoreTimeouts } from '../core/store/types.ts';
import { PgStore, type PgStoreOptions } from '../core/store/pg-store.ts';
import { SqliteStore } from '../core/store/sqlite-store.ts';
import type { StoreFeatures } from '../core/store/kysely-store.ts';
import type { Store } from '../core/store/types.ts';
import {
  AUTO_READ_FORGET_RULES,
  AUTO_READ_SCHEMA_STEPS,
  AUTO_READ_VOICE_ROWS,
  MEMBER_READING_LIST,
  autoReadAreas,
} from '../features/autoread/index-store.ts';
import { SCENE_FORGET_RULES, SCENE_SCHEMA_STEPS, sceneAreas } from '../features/scenes/index-store.ts';
import { storeSchema } from '../core/store/migrations.ts';
import { DASHBOARD_SCHEMA_STEPS, dashboardAreas } from '../features/dashboard/index-store.ts';

/** The features' part of every store: their areas, what the core's deletions do in their tables. */
export const STORE_FEATURES: StoreFeatures = {
  areas: (dialect) => ({ ...autoReadAreas(dialect), ...sceneAreas(dialect), ...dashboardAreas(dialect) }),
  forgetRules: [...AUTO_READ_FORGET_RULES, ...SCENE_FORGET_RULES],
  voiceRows: [...AUTO_READ_VOICE_ROWS],
  memberFields: [...MEMBER_READING_LIST],
  schemaSteps: [AUTO_READ_SCHEMA_STEPS, SCENE_SCHEMA_STEPS, DASHBOARD_SCHEMA_STEPS],
};

/** The whole schema every store the app opens is migrated to: the core's steps and every feature's. */
export const SCHEMA = storeSchema(STORE_FEATURES.schemaSteps);

/** The schema version a store the app opens ends at. */
export const LATEST_SCHEMA_VERSION = SCHEMA.at(-1)?.version ?? 0;

/** The store in a SQLite file (or ':memory:'), migrated before it returns. */
export const openSqliteStore = (file: string): SqliteStore & Store => SqliteStore.open(file, STORE_FEATURES);

/** The store in a PostgreSQL database, migrated before it resolves. */
export const openPgStore = (connectionString: string, options?: PgStoreOptions): Promise<PgStore & Store> =>
  PgStore.open(connectionString, STORE_FEATURES, options);

/** Opens the store a config names (SQLite, or PostgreSQL for a postgres:// URL), its schema migrated. */
export async function openStore(target: DatabaseTarget, timeouts?: StoreTimeouts): Promise<Store> {
  return target.kind === 'postgres' ? openPgStore(target.url, { timeouts }) : openSqliteStore(target.path);
}
