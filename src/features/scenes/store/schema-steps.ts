// Scenes' part of the schema: the table of scenes a server saved (/scene save). Written once with Kysely's schema
// builder, compiled for SQLite and PostgreSQL.
import type { SchemaStep } from '../../../core/store/schema-steps.ts';

export const SCENE_SCHEMA_STEPS: readonly SchemaStep[] = [
  {
    version: 22,
    name: 'saved scenes',
    // One per server and name (name_key: src/core/store/names.ts' nameKey); the script as written, bounded by the
    // command (SCENE_CAPS.scriptChars).
    up: (db, types) => [
      db.schema
        .createTable('scenes')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('name_key', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('script', 'text', (column) => column.notNull())
        .addColumn('saved_by', 'text', (column) => column.notNull())
        .addColumn('saved_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('scenes_pk', ['guild_id', 'name_key']),
    ],
  },
];
