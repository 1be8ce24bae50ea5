// Auto-read's part of the schema: the steps that build its tables (auto_read, its voice pool, member voices and
// ignore list, the pronunciation dictionary) and its columns on the core's member_defaults (how a member is named and
// whether they are read). Released steps keep their numbers and text; step 6 was released together with the core's
// output defaults, and runs with the core's step 6 in one transaction (src/core/store/schema-steps.ts).
import { sql } from 'kysely';
import type { SchemaStep } from '../../../core/store/schema-steps.ts';

export const AUTO_READ_SCHEMA_STEPS: readonly SchemaStep[] = [
  {
    version: 6,
    name: 'auto-read, pronunciation dictionary',
    sql: `
      -- Auto-read: one row per guild that started it or changed a setting. A NULL setting means the
      -- default (AUTO_READ_DEFAULTS in auto-read-store.ts), so a default changed later reaches every server that
      -- never chose; required_role_id NULL: no role required. The binding stays when reading stops.
      CREATE TABLE auto_read (
        guild_id              TEXT    PRIMARY KEY,
        reading               INTEGER NOT NULL DEFAULT 0 CHECK (reading IN (0, 1)),
        text_channel_id       TEXT,
        voice_channel_id      TEXT,
        started_by            TEXT,
        started_at            INTEGER,
        say_author_name       INTEGER CHECK (say_author_name IN (0, 1)),
        max_length            INTEGER CHECK (max_length > 0),
        read_bots             INTEGER CHECK (read_bots IN (0, 1)),
        required_role_id      TEXT,
        only_members_in_voice INTEGER CHECK (only_members_in_voice IN (0, 1)),
        announce_join_leave   INTEGER CHECK (announce_join_leave IN (0, 1)),
        settings_updated_by   TEXT,
        updated_at            INTEGER NOT NULL,
        CHECK (reading = 0 OR (text_channel_id IS NOT NULL AND voice_channel_id IS NOT NULL))
      ) STRICT;
      -- A start finds the guilds to resume without reading every row.
      CREATE INDEX auto_read_reading ON auto_read (guild_id) WHERE reading = 1;

      -- A server's pronunciation dictionary. word_key is src/features/autoread/dictionary/dictionary.ts' entryKey: one entry
      -- per word whatever its case; word and reading are stored tidied, as validateEntry leaves them.
      CREATE TABLE dictionary_entries (
        guild_id   TEXT    NOT NULL,
        word_key   TEXT    NOT NULL,
        word       TEXT    NOT NULL,
        reading    TEXT    NOT NULL,
        updated_by TEXT    NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, word_key)
      ) STRICT;

    `,
    postgres: `
    CREATE TABLE auto_read (
      guild_id              TEXT     PRIMARY KEY,
      reading               SMALLINT NOT NULL DEFAULT 0 CHECK (reading IN (0, 1)),
      text_channel_id       TEXT,
      voice_channel_id      TEXT,
      started_by            TEXT,
      started_at            BIGINT,
      say_author_name       SMALLINT CHECK (say_author_name IN (0, 1)),
      max_length            BIGINT   CHECK (max_length > 0),
      read_bots             SMALLINT CHECK (read_bots IN (0, 1)),
      required_role_id      TEXT,
      only_members_in_voice SMALLINT CHECK (only_members_in_voice IN (0, 1)),
      announce_join_leave   SMALLINT CHECK (announce_join_leave IN (0, 1)),
      settings_updated_by   TEXT,
      updated_at            BIGINT   NOT NULL,
      CHECK (reading = 0 OR (text_channel_id IS NOT NULL AND voice_channel_id IS NOT NULL))
    );
    CREATE INDEX auto_read_reading ON auto_read (guild_id) WHERE reading = 1;
    CREATE TABLE dictionary_entries (
      guild_id   TEXT   NOT NULL,
      word_key   TEXT   NOT NULL,
      word       TEXT   NOT NULL,
      reading    TEXT   NOT NULL,
      updated_by TEXT   NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (guild_id, word_key)
    );
    `,
  },
  {
    version: 12,
    name: 'how auto-read names a member, and whether it reads them',
    sql: `
      -- On the member's own row (deleted with it on request: member_defaults.user_id). NULL: their display name; read.
      ALTER TABLE member_defaults ADD COLUMN spoken_name TEXT;
      ALTER TABLE member_defaults ADD COLUMN read_me INTEGER;
    `,
    postgres: `
    ALTER TABLE member_defaults ADD COLUMN spoken_name TEXT;
    ALTER TABLE member_defaults ADD COLUMN read_me SMALLINT;
    `,
  },
  {
    version: 13,
    name: 'auto-read skip prefix, silent messages, auto-join, backlog control',
    sql: `
      -- NULL: the default (AUTO_READ_DEFAULTS). stopped_why: why reading last stopped ('asked': /autoread stop;
      -- 'left-voice': SayBot left voice by itself), which auto-join reads; NULL while reading or never started.
      ALTER TABLE auto_read ADD COLUMN skip_prefix TEXT;
      ALTER TABLE auto_read ADD COLUMN read_silent INTEGER;
      ALTER TABLE auto_read ADD COLUMN autojoin INTEGER;
      ALTER TABLE auto_read ADD COLUMN faster_after INTEGER CHECK (faster_after >= 0);
      ALTER TABLE auto_read ADD COLUMN max_speed REAL CHECK (max_speed >= 1 AND max_speed <= 2);
      ALTER TABLE auto_read ADD COLUMN skip_after INTEGER CHECK (skip_after >= 0);
      ALTER TABLE auto_read ADD COLUMN stopped_why TEXT;
    `,
    postgres: `
    ALTER TABLE auto_read ADD COLUMN skip_prefix TEXT;
    ALTER TABLE auto_read ADD COLUMN read_silent SMALLINT;
    ALTER TABLE auto_read ADD COLUMN autojoin SMALLINT;
    ALTER TABLE auto_read ADD COLUMN faster_after INTEGER CHECK (faster_after >= 0);
    ALTER TABLE auto_read ADD COLUMN max_speed DOUBLE PRECISION CHECK (max_speed >= 1 AND max_speed <= 2);
    ALTER TABLE auto_read ADD COLUMN skip_after INTEGER CHECK (skip_after >= 0);
    ALTER TABLE auto_read ADD COLUMN stopped_why TEXT;
    `,
  },
  {
    version: 14,
    name: "auto-read's distinct voices and the managers' ignore list",
    sql: `
      -- voices: 'one' (the server's voice for everyone) or 'distinct' (a voice from the pool per member); NULL: 'one'.
      ALTER TABLE auto_read ADD COLUMN voices TEXT CHECK (voices IN ('one', 'distinct'));
      -- The voices the managers chose to give members (none: the documented presets of the server's language).
      CREATE TABLE auto_read_voice_pool (
        guild_id TEXT    NOT NULL,
        voice    TEXT    NOT NULL,
        added_by TEXT    NOT NULL,
        added_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, voice)
      ) STRICT;
      -- The pool voice each member was given, kept so it stays theirs across restarts and pool changes.
      CREATE TABLE auto_read_member_voices (
        guild_id    TEXT    NOT NULL,
        user_id     TEXT    NOT NULL,
        voice       TEXT    NOT NULL,
        assigned_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      ) STRICT;
      CREATE INDEX auto_read_member_voices_voice ON auto_read_member_voices (guild_id, voice);
      -- Members whose messages auto-read never reads, by a manager's choice.
      CREATE TABLE auto_read_ignored (
        guild_id   TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        ignored_by TEXT    NOT NULL,
        ignored_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      ) STRICT;
    `,
    postgres: `
    ALTER TABLE auto_read ADD COLUMN voices TEXT CHECK (voices IN ('one', 'distinct'));
    CREATE TABLE auto_read_voice_pool (
      guild_id TEXT   NOT NULL,
      voice    TEXT   NOT NULL,
      added_by TEXT   NOT NULL,
      added_at BIGINT NOT NULL,
      PRIMARY KEY (guild_id, voice)
    );
    CREATE TABLE auto_read_member_voices (
      guild_id    TEXT   NOT NULL,
      user_id     TEXT   NOT NULL,
      voice       TEXT   NOT NULL,
      assigned_at BIGINT NOT NULL,
      PRIMARY KEY (guild_id, user_id)
    );
    CREATE INDEX auto_read_member_voices_voice ON auto_read_member_voices (guild_id, voice);
    CREATE TABLE auto_read_ignored (
      guild_id   TEXT   NOT NULL,
      user_id    TEXT   NOT NULL,
      ignored_by TEXT   NOT NULL,
      ignored_at BIGINT NOT NULL,
      PRIMARY KEY (guild_id, user_id)
    );
    `,
  },
  {
    version: 16,
    name: 'dictionary patterns and order',
    sql: `
      -- Entries are words or patterns (a pattern's word_key is src/features/autoread/dictionary/dictionary.ts' patternKey) and apply in the
      -- order the managers set: position, from 1 per guild. Entries already there keep the order they were listed in.
      ALTER TABLE dictionary_entries ADD COLUMN kind TEXT NOT NULL DEFAULT 'word' CHECK (kind IN ('word', 'pattern'));
      ALTER TABLE dictionary_entries ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
      UPDATE dictionary_entries SET position = 1 + (SELECT count(*) FROM dictionary_entries AS earlier
        WHERE earlier.guild_id = dictionary_entries.guild_id AND earlier.word_key < dictionary_entries.word_key);
    `,
    postgres: `
    ALTER TABLE dictionary_entries ADD COLUMN kind TEXT NOT NULL DEFAULT 'word' CHECK (kind IN ('word', 'pattern'));
    ALTER TABLE dictionary_entries ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
    UPDATE dictionary_entries SET position = 1 + (SELECT count(*) FROM dictionary_entries AS earlier
      WHERE earlier.guild_id = dictionary_entries.guild_id AND earlier.word_key COLLATE "C" < dictionary_entries.word_key COLLATE "C");
    `,
  },
  {
    version: 17,
    name: 'auto-read says files or not',
    // NULL: the default (AUTO_READ_DEFAULTS), as every auto-read setting.
    up: (db, types) => [
      db.schema
        .alterTable('auto_read')
        .addColumn('read_attachments', types.flag, (column) => column.check(sql`read_attachments IN (0, 1)`)),
    ],
  },
  {
    version: 25,
    name: 'dictionary versions',
    // One row per server whose dictionary changed: a random token written with every change, in the change's own
    // transaction, so that a reader (the Speak menu) can tell its compiled copy is the store's without reading the
    // entries (src/features/autoread/dictionary/dictionary-cache.ts). A token never comes back, not even after the
    // server's data is deleted with its row. Servers that already have entries get one now.
    up: (db) => [
      db.schema
        .createTable('dictionary_versions')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('version', 'text', (column) => column.notNull()),
      db
        .insertInto('dictionary_versions')
        .columns(['guild_id', 'version'])
        .expression(
          db
            .selectFrom('dictionary_entries')
            .select(['guild_id', sql<string>`'before-25'`.as('version')])
            .distinct(),
        ),
    ],
  },
];
