// The dashboard's part of the schema: its server-side sessions.
import type { SchemaStep } from '../../../core/store/schema-steps.ts';

export const DASHBOARD_SCHEMA_STEPS: readonly SchemaStep[] = [
  {
    version: 24,
    name: 'dashboard sessions',
    // id_hash: SHA-256 of the session ID (the ID is only in the cookie). Sessions end at logout or expiry (swept).
    up: (db, types) => [
      db.schema
        .createTable('dashboard_sessions')
        .addColumn('id_hash', 'text', (column) => column.primaryKey())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('user_name', 'text', (column) => column.notNull())
        .addColumn('guild_hints', 'text', (column) => column.notNull())
        .addColumn('created_at', types.milliseconds, (column) => column.notNull())
        .addColumn('seen_at', types.milliseconds, (column) => column.notNull()),
      db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id'),
    ],
  },
];
