// The schema a fresh database ends with, pinned on both backends: however the steps are declared or owned (the
// core's, a feature's), the released steps up to version 19 build exactly these tables, columns, constraints and
// indexes; later steps are not part of the pin. A changed digest means a released step changed, which it never may (a change is a new step).
import { createHash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA } from '../../../src/app/store.ts';
import { migrate } from '../../../src/core/store/migrations.ts';
import { migratePostgres } from '../../../src/core/store/pg-migrations.ts';
import { BACKENDS, notePostgresSkipped } from './backends.ts';

/** The last released step the digests below describe. */
const PINNED_VERSION = 19;

const digest = (lines: readonly string[]): string => createHash('sha256').update(lines.join('\n')).digest('hex');

/** SQLite's own record of every table and index, by name, as the steps wrote them. */
function sqliteSchema(file: string): { lines: string[]; version: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const lines = db
      .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map(
        (row) => `${String(row['type'])} ${String(row['name'])} on ${String(row['tbl_name'])}: ${String(row['sql'])}`,
      );
    const version = Number(db.prepare('SELECT max(version) AS v FROM schema_migrations').get()?.['v']);
    return { lines, version };
  } finally {
    db.close();
  }
}

/** PostgreSQL's columns, constraints and indexes of the public schema, in a stable order. */
async function postgresSchema(url: string): Promise<{ lines: string[]; version: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<Record<string, string>>(`
      SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, '') AS column_default,
             is_identity
      FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`);
    const constraints = await client.query<Record<string, string>>(`
      SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY table_name, conname`);
    const indexes = await client.query<Record<string, string>>(`
      SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`);
    const version = (await client.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations')).rows[0]!.v;
    return {
      lines: [
        ...columns.rows.map((r) => Object.values(r).join(' ')),
        ...constraints.rows.map((r) => Object.values(r).join(' ')),
        ...indexes.rows.map((r) => Object.values(r).join(' ')),
      ],
      version,
    };
  } finally {
    await client.end();
  }
}

const PINNED: Record<string, string> = {
  sqlite: '90339569cabfc2aabe26008be4249fb6658aec88b71bd3eb7d3ed6e64bfcf631',
  postgres: 'fed994e0e20a10bab908acacdec97015916c8482b10fec4367bf48bd2bc7bef2',
};

describe('the schema a fresh database ends with', () => {
  notePostgresSkipped();
  for (const make of BACKENDS) {
    const backend = make();
    afterAll(() => backend.stop());
    it(`${backend.name}: the released steps build the pinned tables, constraints and indexes`, async () => {
      const store = await backend.open();
      await store.close();
      const url = backend.url();
      const released = SCHEMA.filter((step) => step.version <= PINNED_VERSION);
      if (url.startsWith('sqlite:')) {
        // A new file, migrated only as far as the pinned version.
        const db = new DatabaseSync(`${url.slice('sqlite:'.length)}.pinned`);
        migrate(db, released);
        db.close();
      } else {
        // The test's own database, emptied, then migrated only as far as the pinned version.
        const pool = new pg.Pool({ connectionString: url, max: 1 });
        const client = await pool.connect();
        try {
          await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
          await migratePostgres(client, released);
        } finally {
          client.release();
          await pool.end();
        }
      }
      const { lines, version } = url.startsWith('sqlite:')
        ? sqliteSchema(`${url.slice('sqlite:'.length)}.pinned`)
        : await postgresSchema(url);
      expect(version).toBe(PINNED_VERSION);
      expect(lines.length).toBeGreaterThan(20);
      expect(digest(lines)).toBe(PINNED[backend.name]);
    });
  }
});
