import type pg from 'pg';
import { SchemaTooNewError, statementsOf, type SchemaVersion, versionsTable } from './schema-steps.ts';

/** An arbitrary constant: the advisory lock that serialises schema changes across processes. */
const MIGRATION_LOCK = 0x5a7b07;

/** Brings a PostgreSQL schema up to date, a step per transaction, under an advisory lock (one starter applies). */
export async function migratePostgres(client: pg.PoolClient, schema: readonly SchemaVersion[]): Promise<number[]> {
  await client.query(versionsTable('postgres').sql);
  const latest = schema.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const migration of schema) {
    const statements = statementsOf(migration, 'postgres');
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const row = (await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')).rows[0];
      const current = row?.v ?? 0;
      if (current > latest) throw new SchemaTooNewError(current, latest);
      if (current < migration.version) {
        for (const { sql, parameters } of statements) await client.query(sql, [...parameters]);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          Date.now(),
        ]);
        applied.push(migration.version);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }
  return applied;
}
