import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CORE_SCHEMA_STEPS, migrate, schemaVersion } from '../../../src/core/store/migrations.ts';
import {
  type SchemaStep,
  SchemaTooNewError,
  type SchemaVersion,
  compileStep,
  composeSchema,
  statementsOf,
} from '../../../src/core/store/schema-steps.ts';
import { AUTO_READ_SCHEMA_STEPS } from '../../../src/features/autoread/index-store.ts';
import { LATEST_SCHEMA_VERSION as LATEST_VERSION, SCHEMA, openSqliteStore } from '../../../src/app/store.ts';
import { tempDir } from './helpers.ts';

/**
 * A database exactly as SayBot's schema version 1 left it, frozen here on purpose: if migration 1 were ever
 * edited, this snapshot still stands for the files already out there.
 */
const V1_SNAPSHOT = `
  CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT;
  CREATE TABLE presets (
    id INTEGER PRIMARY KEY, guild_id TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL, voice TEXT NOT NULL,
    language TEXT, tone TEXT, exaggeration REAL CHECK (exaggeration BETWEEN 0 AND 1), format TEXT CHECK (format IN ('wav', 'mp3')),
    created_by TEXT NOT NULL, created_at INTEGER NOT NULL, UNIQUE (guild_id, name_key)
  ) STRICT;
  CREATE TABLE guild_settings (
    guild_id TEXT PRIMARY KEY, default_preset_id INTEGER REFERENCES presets (id) ON DELETE SET NULL, updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX guild_settings_default_preset ON guild_settings (default_preset_id);
  CREATE TABLE member_defaults (
    guild_id TEXT NOT NULL, user_id TEXT NOT NULL, voice TEXT, language TEXT, tone TEXT,
    exaggeration REAL CHECK (exaggeration BETWEEN 0 AND 1), format TEXT CHECK (format IN ('wav', 'mp3')),
    updated_at INTEGER NOT NULL, PRIMARY KEY (guild_id, user_id)
  ) STRICT;
  INSERT INTO schema_migrations VALUES (1, 'presets, guild settings, member defaults', 1700000000000);
  INSERT INTO presets VALUES (7, 'G', 'Old One', 'old one', 'voice-b-ko-m-01', 'ko', 'slow', NULL, 'mp3', 'U', 1700000000000);
  INSERT INTO guild_settings VALUES ('G', 7, 1700000000000);
  INSERT INTO member_defaults VALUES ('G', 'M', 'voice-b-ja-f-01', NULL, NULL, NULL, 'wav', 1700000000000);
`;

/** Step 2 as released (frozen for the same reason), applied on top of V1_SNAPSHOT, with a cloned voice in it. */
const V2_STEP = `
  CREATE TABLE voice_library (
    guild_id TEXT NOT NULL, voice_id TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL, created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL, clip_seconds REAL NOT NULL CHECK (clip_seconds > 0),
    PRIMARY KEY (guild_id, voice_id), UNIQUE (guild_id, name_key)
  ) STRICT;
  CREATE INDEX presets_voice ON presets (guild_id, voice);
  CREATE INDEX member_defaults_voice ON member_defaults (guild_id, voice);
  INSERT INTO schema_migrations VALUES (2, 'voice library (cloned voices)', 1700000000001);
  INSERT INTO voice_library VALUES ('G', 'clone_old', 'Old Voice', 'old voice', 'U', 1700000000000, 4.5);
`;

const tables = (db: DatabaseSync) =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => String(r['name']));

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('migrations', () => {
  it('are numbered 1, 2, … without gaps', () => {
    expect(SCHEMA.map((m) => m.version)).toEqual(SCHEMA.map((_, i) => i + 1));
  });

  it("run each version's steps in their owners' order: step 6 is auto-read's tables, then the core's output defaults", () => {
    const six = SCHEMA.find((m) => m.version === 6)!;
    expect(six.name).toBe('auto-read, pronunciation dictionary, output defaults');
    expect(six.steps).toEqual([
      AUTO_READ_SCHEMA_STEPS.find((step) => step.version === 6),
      CORE_SCHEMA_STEPS.find((step) => step.version === 6),
    ]);
  });

  it('stop at a schema with a gap or an owner declaring a version twice, naming the version', () => {
    const step = (version: number): SchemaStep => ({ version, name: `step ${version}`, up: () => [] });
    expect(() => composeSchema([[step(1), step(3)]])).toThrow('schema step 2 is missing (the next is 3)');
    expect(() => composeSchema([[step(1)], [step(1), step(2), step(2)]])).toThrow(
      'schema step 2 is declared twice by one owner',
    );
    expect(composeSchema([[step(2)], [step(1), step(2)]]).map((m) => m.name)).toEqual(['step 1', 'step 2, step 2']);
  });

  it('build the whole schema on an empty file, recording each step, and do nothing the second time', async () => {
    const store = openSqliteStore(tmp.file());
    await store.close();
    const db = new DatabaseSync(tmp.file());
    expect(tables(db)).toEqual([
      'auto_read',
      'auto_read_bindings',
      'auto_read_ignored',
      'auto_read_member_voices',
      'auto_read_voice_pool',
      'budget_holds',
      'clone_name_reservations',
      'dashboard_sessions',
      'dictionary_entries',
      'dictionary_versions',
      'forget_notices',
      'free_voice_lines',
      'guild_budgets',
      'guild_output_defaults',
      'guild_settings',
      'member_defaults',
      'member_output_defaults',
      'presets',
      'quota_state',
      'removed_guilds',
      'scenes',
      'schema_migrations',
      'soundboard_sounds',
      'spend_totals_guild_month',
      'spend_totals_member_day',
      'spends',
      'store_secrets',
      'voice_library',
    ]);
    expect(
      db
        .prepare('SELECT version FROM schema_migrations ORDER BY version')
        .all()
        .map((r) => r['version']),
    ).toEqual(SCHEMA.map((m) => m.version));
    expect(migrate(db, SCHEMA)).toEqual([]);
    db.close();
  });

  it('bring a version 1 file up to date and keep its data working', async () => {
    const seed = new DatabaseSync(tmp.file());
    seed.exec(V1_SNAPSHOT);
    seed.close();

    const store = openSqliteStore(tmp.file());
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    expect(await store.presets.getDefault('G')).toMatchObject({
      name: 'Old One',
      voice: 'voice-b-ko-m-01',
      tone: 'slow',
      format: 'mp3',
    });
    expect((await store.memberDefaults.get('G', 'M'))?.voice).toBe('voice-b-ja-f-01');
    // The step-2 table is there and the step-2 rule (a cloned voice takes its presets with it) holds for old rows.
    await store.voiceLibrary.add({ guildId: 'G', name: 'c', voiceId: 'clone_1', createdBy: 'U', clipSeconds: 5 });
    await store.presets.save({ guildId: 'G', name: 'Old One', voice: 'clone_1', createdBy: 'U' });
    expect((await store.voiceLibrary.delete('G', 'clone_1'))?.presetsRemoved).toEqual(['Old One']);
    await store.close();
  });

  it('bring a version 2 file up to date: its data kept, accounting and budgets working', async () => {
    const seed = new DatabaseSync(tmp.file());
    seed.exec(V1_SNAPSHOT);
    seed.exec(V2_STEP);
    seed.close();

    const store = openSqliteStore(tmp.file());
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    expect(await store.voiceLibrary.get('G', 'clone_old')).toMatchObject({ name: 'Old Voice', clipSeconds: 4.5 });
    expect(await store.presets.getDefault('G')).toMatchObject({ name: 'Old One' });
    // Nothing spent yet, no quota mark, no server budgets.
    expect(await store.spends.monthTotals('2025-03')).toEqual({ spent: 0, saved: 0 });
    expect(await store.quota.get()).toEqual({});
    expect(await store.budgets.get('G')).toEqual({});
    await store.spends.record({
      at: new Date('2025-03-04T05:06:07Z'),
      guildId: 'G',
      userId: 'M',
      command: 'say',
      endpoint: 'tts',
      characters: 12,
      cached: false,
    });
    await store.budgets.set('G', { memberDailyChars: 500 }, 'M');
    expect(await store.spends.monthTotals('2025-03', 'G')).toEqual({ spent: 12, saved: 0 });
    expect(await store.budgets.get('G')).toEqual({ memberDailyChars: 500 });
    // Step 6's areas start empty: nothing read, no dictionary, no output defaults.
    expect((await store.autoRead.get('G')).bindings).toEqual([]);
    expect(await store.dictionary.list('G')).toEqual([]);
    expect(await store.outputDefaults.get('G', 'M')).toEqual({});
    await store.close();
  });

  it('start the running spend totals of step 8 from the spends already recorded', async () => {
    const seed = new DatabaseSync(tmp.file());
    migrate(
      seed,
      SCHEMA.filter((m) => m.version < 8),
    );
    const insert =
      seed.prepare(`INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached)
                                 VALUES (0, '2025-03', ?, ?, ?, 'say', 'tts', ?, ?)`);
    insert.run('2025-03-04', 'G', 'M', 40, 0);
    insert.run('2025-03-04', 'G', 'M', 500, 1); // a cache hit spends nothing
    insert.run('2025-03-05', 'G', 'N', 30, 0);
    insert.run('2025-03-05', 'H', 'M', 900, 0);
    seed.close();

    const store = openSqliteStore(tmp.file());
    const at = new Date('2025-03-04T10:00:00Z');
    const hold = (characters: number, limits: { guildMonthlyChars?: number; memberDailyChars?: number }) =>
      store.budgets.hold({ guildId: 'G', userId: 'M', characters, limits, ttlMs: 1000, at });
    expect(await hold(31, { guildMonthlyChars: 100 })).toMatchObject({ status: 'refused', used: 70 });
    expect(await hold(61, { memberDailyChars: 100 })).toMatchObject({ status: 'refused', used: 40 });
    expect((await hold(30, { guildMonthlyChars: 100, memberDailyChars: 100 })).status).toBe('held');
    await store.close();
  });

  it('keep a dictionary from before step 16 in the order it was listed in, words all, new entries after them', async () => {
    const seed = new DatabaseSync(tmp.file());
    migrate(
      seed,
      SCHEMA.filter((m) => m.version < 16),
    );
    const insert = seed.prepare(
      "INSERT INTO dictionary_entries (guild_id, word_key, word, reading, updated_by, updated_at) VALUES (?, ?, ?, ?, 'U', 0)",
    );
    for (const [guild, word] of [
      ['G', 'zeta'],
      ['G', 'Alpha'],
      ['H', 'only'],
      ['G', 'mid'],
    ] as const)
      insert.run(guild, word.toLowerCase(), word, 'r');
    seed.close();

    const store = openSqliteStore(tmp.file());
    expect(await store.dictionary.list('G')).toEqual([
      { word: 'Alpha', reading: 'r' },
      { word: 'mid', reading: 'r' },
      { word: 'zeta', reading: 'r' },
    ]);
    await store.dictionary.put('G', { pattern: 'a+' }, 'a', 'U');
    await store.dictionary.put('G', 'aaa', 'a', 'U');
    expect((await store.dictionary.list('G')).slice(3)).toEqual([
      { pattern: 'a+', reading: 'a' },
      { word: 'aaa', reading: 'a' },
    ]);
    expect(await store.dictionary.list('H')).toEqual([{ word: 'only', reading: 'r' }]);
    await store.close();
  });

  it('give every server with a dictionary from before step 25 a version, and none to the others', async () => {
    const seed = new DatabaseSync(tmp.file());
    migrate(
      seed,
      SCHEMA.filter((m) => m.version < 25),
    );
    const insert = seed.prepare(
      "INSERT INTO dictionary_entries (guild_id, word_key, word, reading, updated_by, updated_at, kind, position) VALUES (?, ?, ?, 'r', 'U', 0, 'word', ?)",
    );
    insert.run('G', 'one', 'one', 1);
    insert.run('G', 'two', 'two', 2);
    insert.run('H', 'only', 'only', 1);
    seed.close();

    const store = openSqliteStore(tmp.file());
    const [g, h, none] = await Promise.all(['G', 'H', 'N'].map((guild) => store.dictionary.version(guild)));
    expect(g).toBeDefined();
    expect(h).toBeDefined();
    expect(none).toBeUndefined();
    // The first change after it gives a version of its own.
    await store.dictionary.put('G', 'three', 'r', 'U');
    expect(await store.dictionary.version('G')).not.toBe(g);
    await store.close();
  });

  it('run a step written once with the schema builder: its statements, data with parameters included, in its transaction', () => {
    const db = new DatabaseSync(tmp.file());
    migrate(db, SCHEMA);
    db.prepare("INSERT INTO auto_read (guild_id, updated_at) VALUES ('G', 0)").run();
    const step: SchemaStep = {
      version: LATEST_VERSION + 1,
      name: 'a test-only step',
      up: (kysely, types) => [
        kysely.schema
          .createTable('notes')
          .addColumn('guild_id', 'text', (c) => c.primaryKey())
          .addColumn('at', types.milliseconds, (c) => c.notNull())
          .addColumn('pinned', types.flag, (c) => c.check(sql`pinned IN (0, 1)`))
          .modifyEnd(sql` STRICT`),
        kysely.insertInto('notes').values({ guild_id: 'G', at: 1_700_000_000_000, pinned: 1 }),
      ],
    };
    const next: SchemaVersion = { version: step.version, name: step.name, steps: [step] };
    expect(migrate(db, [...SCHEMA, next])).toEqual([step.version]);
    expect(db.prepare('SELECT guild_id, at, pinned FROM notes').all()).toEqual([
      { guild_id: 'G', at: 1_700_000_000_000, pinned: 1 },
    ]);
    expect(() => db.prepare("INSERT INTO notes VALUES ('H', 0, 2)").run()).toThrow(/CHECK/);
    expect(schemaVersion(db)).toBe(step.version);
    db.close();
    // The same step in PostgreSQL's types (pg-migrations.ts runs it there; step 17 runs on both in the store contract).
    expect(compileStep(step, 'postgres')[0]?.sql).toMatch(/"at" bigint not null, "pinned" smallint check/);
    expect(compileStep(step, 'postgres')[1]?.parameters).toEqual(['G', 1_700_000_000_000, 1]);
  });

  it('compile every step for both databases: SQLite keeps the released types, PostgreSQL numbers its keys itself', () => {
    for (const version of SCHEMA)
      for (const dialect of ['sqlite', 'postgres'] as const)
        expect(statementsOf(version, dialect).length, `${version.version} on ${dialect}`).toBeGreaterThan(0);
    const [presets] = statementsOf(SCHEMA[0]!, 'sqlite');
    expect(presets?.sql).toMatch(/^create table "presets" \("id" integer primary key, .*\) strict$/);
    expect(statementsOf(SCHEMA[0]!, 'postgres')[0]?.sql).toMatch(
      /^create table "presets" \("id" bigint generated by default as identity primary key, .*\)$/,
    );
  });

  it('leave the previous version intact when a step fails, and apply it on the next start', () => {
    const db = new DatabaseSync(tmp.file());
    const step: SchemaStep = {
      version: 2,
      name: 'broken',
      up: (kysely) => [
        kysely.schema.createTable('half').addColumn('x', 'integer'),
        kysely.insertInto('nowhere').values({ x: 1 }),
      ],
    };
    const broken = [SCHEMA[0]!, { version: 2, name: 'broken', steps: [step] }];
    expect(() => migrate(db, broken)).toThrow(/nowhere/);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).not.toContain('half'); // the step's first statement was rolled back with it
    expect(migrate(db, SCHEMA)).toEqual(SCHEMA.slice(1).map((m) => m.version));
    db.close();
  });

  it('refuse a file from a newer SayBot instead of guessing', () => {
    const db = new DatabaseSync(tmp.file());
    migrate(db, SCHEMA);
    db.prepare("INSERT INTO schema_migrations VALUES (?, 'from the future', 0)").run(LATEST_VERSION + 1);
    db.close();
    expect(() => openSqliteStore(tmp.file())).toThrow(SchemaTooNewError);
  });
});
