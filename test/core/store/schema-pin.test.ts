// What each version of the schema builds, pinned on both backends and read from the database itself
// (schema-facts.ts): tables, columns, constraints, indexes and the rows the steps write. The fixtures
// test/core/store/fixtures/schema-sqlite.txt and test/core/store/fixtures/schema-postgres.txt were made by the steps as
// first released (steps 1 to 16 then SQL written for each database), so the steps written once with the schema builder
// build exactly what those did, version by version. A changed line means a released step changed, which it never may (a change is a new step);
// a new step adds its own lines (`npx vitest run test/core/store/schema-pin.test.ts --update`, then read the diff).
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA } from '../../../src/app/store.ts';
import { migrate } from '../../../src/core/store/migrations.ts';
import { migratePostgres } from '../../../src/core/store/pg-migrations.ts';
import type { SchemaVersion } from '../../../src/core/store/schema-steps.ts';
import { BACKENDS, type Backend, notePostgresSkipped } from './backends.ts';
import { factsByVersion, postgresFacts, sqliteFacts } from './schema-facts.ts';

/** An empty database of a backend's, run by hand: migrated to a chosen version, seeded, read. */
interface EmptyDatabase {
  migrate(versions: readonly SchemaVersion[]): Promise<number[]>;
  exec(sql: string): Promise<void>;
  rows(sql: string): Promise<Array<Record<string, unknown>>>;
  facts(): Promise<string[]>;
  close(): Promise<void>;
}

/** SQLite: a database in memory. PostgreSQL: a new database of the test's, its public schema emptied. */
async function emptyDatabase(backend: Backend): Promise<EmptyDatabase> {
  if (backend.name === 'sqlite') {
    const db = new DatabaseSync(':memory:');
    return {
      migrate: async (versions) => migrate(db, versions),
      exec: async (sql) => db.exec(sql),
      rows: async (sql) => db.prepare(sql).all(),
      facts: async () => sqliteFacts(db),
      close: async () => db.close(),
    };
  }
  await (await backend.open()).close();
  const pool = new pg.Pool({ connectionString: backend.url(), max: 1 });
  const client = await pool.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  return {
    migrate: (versions) => migratePostgres(client, versions),
    exec: async (sql) => void (await client.query(sql)),
    rows: async (sql) => (await client.query<Record<string, unknown>>(sql)).rows,
    facts: () => postgresFacts(client),
    close: async () => {
      client.release();
      await pool.end();
    },
  };
}

const upTo = (last: number): SchemaVersion[] => SCHEMA.filter((version) => version.version <= last);

describe('the schema, version by version', () => {
  notePostgresSkipped();
  for (const make of BACKENDS) {
    const backend = make();
    afterAll(() => backend.stop());

    it(`${backend.name}: each version adds and takes away what fixtures/schema-${backend.name}.txt says`, async () => {
      const db = await emptyDatabase(backend);
      const versions: Array<{ version: number; name: string; facts: string[] }> = [];
      for (const { version, name } of SCHEMA) {
        expect(await db.migrate(upTo(version))).toEqual([version]);
        versions.push({ version, name, facts: await db.facts() });
      }
      await db.close();
      expect(versions.at(-1)!.facts.length).toBeGreaterThan(200);
      await expect(factsByVersion(versions)).toMatchFileSnapshot(`./fixtures/schema-${backend.name}.txt`);
    });

    it(`${backend.name}: a database the released steps left at version 10 goes on to the schema a new one gets`, async () => {
      const old = await emptyDatabase(backend);
      await old.exec(readFileSync(new URL(`./fixtures/schema-v10-${backend.name}.sql`, import.meta.url), 'utf8'));
      expect(await old.migrate(SCHEMA)).toEqual(SCHEMA.filter((v) => v.version > 10).map((v) => v.version));
      const onward = await old.facts();
      await old.close();
      const fresh = await emptyDatabase(backend);
      await fresh.migrate(SCHEMA);
      expect(onward).toEqual(await fresh.facts());
      await fresh.close();
    });

    it(`${backend.name}: step 8 starts the running totals from the spends already recorded, cache hits aside`, async () => {
      const db = await emptyDatabase(backend);
      await db.migrate(upTo(7));
      await db.exec(`INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached)
        VALUES (0, '2025-03', '2025-03-04', 'G', 'M', 'say', 'tts', 40, 0),
               (0, '2025-03', '2025-03-04', 'G', 'M', 'say', 'tts', 500, 1),
               (0, '2025-03', '2025-03-05', 'G', 'N', 'say', 'tts', 30, 0),
               (0, '2025-03', '2025-03-05', 'H', 'M', 'say', 'tts', 900, 0),
               (0, '2025-04', '2025-04-01', 'G', 'M', 'say', 'tts', 7, 0)`);
      await db.migrate(upTo(8));
      expect(
        await db.rows(`SELECT guild_id, month, CAST(characters AS INTEGER) AS characters
                       FROM spend_totals_guild_month ORDER BY guild_id, month`),
      ).toEqual([
        { guild_id: 'G', month: '2025-03', characters: 70 },
        { guild_id: 'G', month: '2025-04', characters: 7 },
        { guild_id: 'H', month: '2025-03', characters: 900 },
      ]);
      expect(
        await db.rows(`SELECT guild_id, user_id, day, CAST(characters AS INTEGER) AS characters
                       FROM spend_totals_member_day ORDER BY guild_id, user_id, day`),
      ).toEqual([
        { guild_id: 'G', user_id: 'M', day: '2025-03-04', characters: 40 },
        { guild_id: 'G', user_id: 'M', day: '2025-04-01', characters: 7 },
        { guild_id: 'G', user_id: 'N', day: '2025-03-05', characters: 30 },
        { guild_id: 'H', user_id: 'M', day: '2025-03-05', characters: 900 },
      ]);
      await db.close();
    });

    it(`${backend.name}: step 16 numbers each server's entries from 1 in code point order of their keys, as words`, async () => {
      const db = await emptyDatabase(backend);
      await db.migrate(upTo(15));
      // By code point '-' comes before 'b' and 'é' after 'z'; a language's collation would order them otherwise.
      await db.exec(`INSERT INTO dictionary_entries (guild_id, word_key, word, reading, updated_by, updated_at)
        VALUES ('G', 'zeta', 'zeta', 'r', 'U', 0), ('G', 'émile', 'Émile', 'r', 'U', 0),
               ('G', 'ab', 'ab', 'r', 'U', 0), ('G', 'a-c', 'a-c', 'r', 'U', 0), ('G', 'alpha', 'Alpha', 'r', 'U', 0),
               ('H', 'only', 'only', 'r', 'U', 0)`);
      await db.migrate(upTo(16));
      expect(
        await db.rows(`SELECT guild_id, word_key, kind, CAST(position AS INTEGER) AS position
                       FROM dictionary_entries ORDER BY guild_id, position`),
      ).toEqual([
        { guild_id: 'G', word_key: 'a-c', kind: 'word', position: 1 },
        { guild_id: 'G', word_key: 'ab', kind: 'word', position: 2 },
        { guild_id: 'G', word_key: 'alpha', kind: 'word', position: 3 },
        { guild_id: 'G', word_key: 'zeta', kind: 'word', position: 4 },
        { guild_id: 'G', word_key: 'émile', kind: 'word', position: 5 },
        { guild_id: 'H', word_key: 'only', kind: 'word', position: 1 },
      ]);
      await db.close();
    });

    it(`${backend.name}: step 27 keeps every binding, reading or not, in auto_read_bindings, and each server's settings`, async () => {
      const db = await emptyDatabase(backend);
      await db.migrate(upTo(26));
      await db.exec(`INSERT INTO auto_read (guild_id, reading, text_channel_id, voice_channel_id, started_by, started_at,
                       stopped_why, max_length, autojoin, settings_updated_by, updated_at)
        VALUES ('G', 1, 'T1', 'V1', 'M', 100, NULL, 120, 1, 'M', 200),
               ('H', 0, 'T2', 'V2', 'N', 300, 'left-voice', NULL, NULL, NULL, 400),
               ('J', 0, NULL, NULL, NULL, NULL, NULL, 80, NULL, 'M', 500)`);
      await db.migrate(upTo(27));
      expect(
        await db.rows(`SELECT guild_id, voice_channel_id, text_channel_id, CAST(reading AS INTEGER) AS reading,
                         stopped_why, started_by, CAST(started_at AS INTEGER) AS started_at
                       FROM auto_read_bindings ORDER BY guild_id`),
      ).toEqual([
        {
          guild_id: 'G',
          voice_channel_id: 'V1',
          text_channel_id: 'T1',
          reading: 1,
          stopped_why: null,
          started_by: 'M',
          started_at: 100,
        },
        {
          guild_id: 'H',
          voice_channel_id: 'V2',
          text_channel_id: 'T2',
          reading: 0,
          stopped_why: 'left-voice',
          started_by: 'N',
          started_at: 300,
        },
      ]);
      expect(
        await db.rows(`SELECT guild_id, CAST(max_length AS INTEGER) AS max_length, CAST(autojoin AS INTEGER) AS autojoin,
                         settings_updated_by FROM auto_read ORDER BY guild_id`),
      ).toEqual([
        { guild_id: 'G', max_length: 120, autojoin: 1, settings_updated_by: 'M' },
        { guild_id: 'H', max_length: null, autojoin: null, settings_updated_by: null },
        { guild_id: 'J', max_length: 80, autojoin: null, settings_updated_by: 'M' },
      ]);
      await db.close();
    });
  }
});
