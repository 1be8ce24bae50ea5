import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { sql } from 'kysely';
import { type BuiltStep, compileStep } from './schema-steps.ts';

/** A released step as its SQLite SQL (pg-migrations.ts holds its PostgreSQL twin). */
export interface SqlStep {
  version: number;
  name: string;
  sql: string;
}

/** A step: a released one's SQL, or (from step 17 on) one built once for both databases (schema-steps.ts). */
export type Migration = SqlStep | BuiltStep;

/**
 * The schema, as the ordered steps that build it. A step, once released, is never edited: a change is a new
 * step. Each runs in its own transaction together with its row in `schema_migrations`, so a crash mid-way
 * leaves the previous version intact and the next start runs the step again.
 *
 * Times are INTEGER milliseconds since the epoch (UTC). Names are unique per guild by `name_key` (see names.ts),
 * the display `name` keeps what the member typed. STRICT tables refuse values of the wrong type.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'presets, guild settings, member defaults',
    sql: `
      CREATE TABLE presets (
        id           INTEGER PRIMARY KEY,
        guild_id     TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        name_key     TEXT    NOT NULL,
        voice        TEXT    NOT NULL,
        language     TEXT,
        tone         TEXT,
        exaggeration REAL    CHECK (exaggeration BETWEEN 0 AND 1),
        format       TEXT    CHECK (format IN ('wav', 'mp3')),
        created_by   TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        UNIQUE (guild_id, name_key)
      ) STRICT;

      -- A deleted preset cannot stay the default: the reference clears itself.
      CREATE TABLE guild_settings (
        guild_id          TEXT    PRIMARY KEY,
        default_preset_id INTEGER REFERENCES presets (id) ON DELETE SET NULL,
        updated_at        INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX guild_settings_default_preset ON guild_settings (default_preset_id);

      CREATE TABLE member_defaults (
        guild_id     TEXT    NOT NULL,
        user_id      TEXT    NOT NULL,
        voice        TEXT,
        language     TEXT,
        tone         TEXT,
        exaggeration REAL    CHECK (exaggeration BETWEEN 0 AND 1),
        format       TEXT    CHECK (format IN ('wav', 'mp3')),
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      ) STRICT;
    `,
  },
  {
    version: 2,
    name: 'voice library (cloned voices)',
    sql: `
      CREATE TABLE voice_library (
        guild_id     TEXT    NOT NULL,
        voice_id     TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        name_key     TEXT    NOT NULL,
        created_by   TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        clip_seconds REAL    NOT NULL CHECK (clip_seconds > 0),
        PRIMARY KEY (guild_id, voice_id),
        UNIQUE (guild_id, name_key)
      ) STRICT;
      -- Deleting a cloned voice finds the presets and member defaults that speak with it.
      CREATE INDEX presets_voice ON presets (guild_id, voice);
      CREATE INDEX member_defaults_voice ON member_defaults (guild_id, voice);
    `,
  },
  {
    version: 3,
    name: 'quota accounting, server budgets',
    sql: `
      -- One row per request's characters: spent (sent, accepted) or saved (cached = 1). month/day are UTC keys
      -- ('YYYY-MM', 'YYYY-MM-DD') so totals are plain indexed sums. service_* are the service's own figures.
      CREATE TABLE spends (
        id                INTEGER PRIMARY KEY,
        at                INTEGER NOT NULL,
        month             TEXT    NOT NULL,
        day               TEXT    NOT NULL,
        guild_id          TEXT    NOT NULL,
        user_id           TEXT    NOT NULL,
        command           TEXT    NOT NULL,
        endpoint          TEXT    NOT NULL CHECK (endpoint IN ('tts', 'emotion-tts', 'voice-clone')),
        characters        INTEGER NOT NULL CHECK (characters >= 0),
        cached            INTEGER NOT NULL CHECK (cached IN (0, 1)),
        request_id        TEXT,
        service_used      INTEGER,
        service_limit     INTEGER,
        service_remaining INTEGER,
        service_reset_at  INTEGER
      ) STRICT;
      CREATE INDEX spends_month ON spends (month, cached);
      CREATE INDEX spends_guild_month ON spends (guild_id, month, cached);
      CREATE INDEX spends_member_day ON spends (guild_id, user_id, day, cached);

      -- The bot-wide state: one row. exhausted_* set by a 429, cleared by the next accepted request.
      CREATE TABLE quota_state (
        id                  INTEGER PRIMARY KEY CHECK (id = 1),
        exhausted_reset_at  INTEGER,
        exhausted_marked_at INTEGER,
        service_month       TEXT,
        service_used        INTEGER,
        service_limit       INTEGER,
        service_remaining   INTEGER,
        service_reset_at    INTEGER,
        service_updated_at  INTEGER
      ) STRICT;
      INSERT INTO quota_state (id) VALUES (1);

      -- A server's own budgets (NULL: none of its own; the operator's apply).
      CREATE TABLE guild_budgets (
        guild_id                TEXT    PRIMARY KEY,
        monthly_chars           INTEGER CHECK (monthly_chars > 0),
        member_daily_chars      INTEGER CHECK (member_daily_chars > 0),
        member_cooldown_seconds INTEGER CHECK (member_cooldown_seconds > 0),
        updated_by              TEXT    NOT NULL,
        updated_at              INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 4,
    name: 'used-up month: who marked it; clone name reservations',
    sql: `
      -- What the mark was made under, so that a change of key or plan (or a higher limit) clears it.
      ALTER TABLE quota_state ADD COLUMN exhausted_account TEXT;
      ALTER TABLE quota_state ADD COLUMN exhausted_plan TEXT;
      ALTER TABLE quota_state ADD COLUMN exhausted_limit INTEGER;

      -- A /clone holds its name from before the paid call until its voice is saved (or the call fails), so two
      -- clones of one name cannot both pay. A reservation left by a crash expires.
      CREATE TABLE clone_name_reservations (
        guild_id    TEXT    NOT NULL,
        name_key    TEXT    NOT NULL,
        token       TEXT    NOT NULL UNIQUE,
        reserved_by TEXT    NOT NULL,
        expires_at  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, name_key)
      ) STRICT;
    `,
  },
  {
    version: 5,
    name: 'budget holds shared by every process',
    sql: `
      -- Characters a request may still spend, held between its budget check and its spend record (see
      -- Store.holdBudget). month/day are UTC keys like spends'; a hold left by a crash stops counting at expires_at.
      CREATE TABLE budget_holds (
        token      TEXT    PRIMARY KEY,
        guild_id   TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        month      TEXT    NOT NULL,
        day        TEXT    NOT NULL,
        characters INTEGER NOT NULL CHECK (characters > 0),
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX budget_holds_month ON budget_holds (month, guild_id);
    `,
  },
  {
    version: 6,
    name: 'auto-read, pronunciation dictionary, output defaults',
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

      -- How replies reach members outside voice. No row: nothing set at that level (a file).
      CREATE TABLE guild_output_defaults (
        guild_id   TEXT    PRIMARY KEY,
        output     TEXT    NOT NULL CHECK (output IN ('file', 'voice-message')),
        updated_by TEXT    NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE member_output_defaults (
        guild_id   TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        output     TEXT    NOT NULL CHECK (output IN ('file', 'voice-message')),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      ) STRICT;
    `,
  },
  {
    version: 7,
    name: 'undelivered spends',
    sql: `
      -- A spend the service charged (its 2xx) whose audio or voice ID never arrived: counted as spent
      -- like any other, marked so that the operator can tell what was paid for and not received.
      ALTER TABLE spends ADD COLUMN undelivered INTEGER NOT NULL DEFAULT 0 CHECK (undelivered IN (0, 1));
    `,
  },
  {
    version: 8,
    name: 'running spend totals for budget holds',
    sql: `
      -- What each guild spent per UTC month and each member per UTC day (cache hits excluded), kept with every
      -- spend (Store.recordSpend), so a budget hold reads one row per limit instead of summing the month's spends.
      CREATE TABLE spend_totals_guild_month (
        guild_id   TEXT    NOT NULL,
        month      TEXT    NOT NULL,
        characters INTEGER NOT NULL,
        PRIMARY KEY (guild_id, month)
      ) STRICT;
      CREATE TABLE spend_totals_member_day (
        guild_id   TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        day        TEXT    NOT NULL,
        characters INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id, day)
      ) STRICT;
      INSERT INTO spend_totals_guild_month (guild_id, month, characters)
        SELECT guild_id, month, sum(characters) FROM spends WHERE cached = 0 GROUP BY guild_id, month;
      INSERT INTO spend_totals_member_day (guild_id, user_id, day, characters)
        SELECT guild_id, user_id, day, sum(characters) FROM spends WHERE cached = 0 GROUP BY guild_id, user_id, day;
      -- A hold sums only its guild's (and member's) live holds; renewals and expiry find holds by token and time.
      CREATE INDEX budget_holds_member_day ON budget_holds (guild_id, user_id, day);
      CREATE INDEX budget_holds_expires ON budget_holds (expires_at);
    `,
  },
  {
    version: 9,
    name: 'servers SayBot was removed from',
    sql: `
      -- When SayBot was removed from a server: its data is deleted once the grace period has passed,
      -- unless SayBot is added back first (the row goes). Kept in the store so that a restart keeps the clock.
      CREATE TABLE removed_guilds (
        guild_id   TEXT    PRIMARY KEY,
        removed_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX removed_guilds_at ON removed_guilds (removed_at);
    `,
  },
  {
    version: 10,
    name: "the store's own secrets",
    sql: `
      -- A key made once per database (period-pseudonym.ts): a deleted member's or server's spends of the day or
      -- month under way keep counting against their budgets under a keyed pseudonym, never under their ID.
      CREATE TABLE store_secrets (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 11,
    name: 'speed and volume in presets and member defaults',
    sql: `
      -- Applied by SayBot to the audio (never sent to the Voice API): NULL = not set at this level.
      ALTER TABLE presets ADD COLUMN speed REAL;
      ALTER TABLE presets ADD COLUMN volume REAL;
      ALTER TABLE member_defaults ADD COLUMN speed REAL;
      ALTER TABLE member_defaults ADD COLUMN volume REAL;
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
  },
  {
    version: 15,
    name: 'soundboard sounds saved from cloned voices',
    sql: `
      -- Which soundboard sound "Save as sound" made from which cloned voice: deleting the voice removes them too.
      CREATE TABLE soundboard_sounds (
        sound_id TEXT    PRIMARY KEY,
        guild_id TEXT    NOT NULL,
        voice_id TEXT    NOT NULL,
        saved_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX soundboard_sounds_voice ON soundboard_sounds (guild_id, voice_id);
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
    version: 18,
    name: 'spends written ahead, holds owned by a process',
    // A spend is written when the service accepts its request, before its body is read; `owner` names the process
    // reading that body until the spend is settled (delivered, or undelivered), and a hold's `owner` the process
    // whose request holds it: a process started again settles what its predecessor left (quota/accounting.ts).
    // NULL: settled (every spend written before this step), or a hold no restart settles (it expires).
    up: (db) => [
      db.schema.alterTable('spends').addColumn('owner', 'text'),
      db.schema.alterTable('budget_holds').addColumn('owner', 'text'),
      db.schema
        .createIndex('spends_owner')
        .on('spends')
        .column('owner')
        .where(sql.ref('owner'), 'is not', sql`NULL`),
      db.schema.createIndex('budget_holds_owner').on('budget_holds').column('owner'),
    ],
  },
  {
    version: 19,
    name: 'forget notices',
    // Rows live a minute (FORGET_NOTICE_TTL_MS): only long enough for running bots to read them. Keyed
    // pseudonyms, not IDs: the store keeps nothing that names whom it forgot.
    up: (db, types) => [
      db.schema
        .createTable('forget_notices')
        .addColumn('token', 'text', (column) => column.primaryKey())
        .addColumn('guild_key', 'text')
        .addColumn('member_key', 'text')
        .addColumn('at', types.milliseconds, (column) => column.notNull()),
    ],
  },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

export class SchemaTooNewError extends Error {
  constructor(found: number) {
    super(
      `The database is at schema version ${found}, newer than this SayBot knows (${LATEST_VERSION}). ` +
        'Run the newer SayBot, or restore a backup made with this version.',
    );
    this.name = 'SchemaTooNewError';
  }
}

export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').get();
  return Number(row?.['version'] ?? 0);
}

/** A step's statements, in the transaction migrate holds. */
function runStep(db: DatabaseSync, migration: Migration): void {
  if ('sql' in migration) {
    db.exec(migration.sql);
    return;
  }
  for (const statement of compileStep(migration, 'sqlite'))
    db.prepare(statement.sql).run(...(statement.parameters as SQLInputValue[]));
}

/**
 * Brings the schema up to date; returns the versions applied. BEGIN IMMEDIATE takes the write lock before the
 * version is read, so two processes starting on one file at once cannot both apply the same step.
 */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const latest = migrations.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const migration of migrations) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const current = schemaVersion(db);
      if (current > latest) throw new SchemaTooNewError(current);
      if (current < migration.version) {
        runStep(db, migration);
        db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          migration.version,
          migration.name,
          Date.now(),
        );
        applied.push(migration.version);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  return applied;
}
