import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { sql } from 'kysely';
import {
  composeSchema,
  type SchemaStep,
  type SchemaVersion,
  SchemaTooNewError,
  statementsOf,
  versionsTable,
} from './schema-steps.ts';

/** The core's part of the schema as ordered steps (run with the features' by version: schema-steps.ts' composeSchema).
 * A released step never changes: a change is a new step (test/core/store/schema-pin.test.ts pins what each builds on
 * both databases). Times are epoch milliseconds (UTC); names are unique per guild by `name_key` (names.ts). Steps
 * 1-16's tables are STRICT on SQLite; a constraint named here has the name PostgreSQL gave it when released unnamed. */
export const CORE_SCHEMA_STEPS: readonly SchemaStep[] = [
  {
    version: 1,
    name: 'presets, guild settings, member defaults',
    // A deleted preset cannot stay the default: the reference clears itself.
    up: (db, types, dialect) => [
      db.schema
        .createTable('presets')
        .addColumn('id', types.count, (column) => dialect.numbered(column).primaryKey())
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('name_key', 'text', (column) => column.notNull())
        .addColumn('voice', 'text', (column) => column.notNull())
        .addColumn('language', 'text')
        .addColumn('tone', 'text')
        .addColumn('exaggeration', types.real, (column) => column.check(sql`exaggeration BETWEEN 0 AND 1`))
        .addColumn('format', 'text', (column) => column.check(sql`format IN ('wav', 'mp3')`))
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('created_at', types.milliseconds, (column) => column.notNull())
        .addUniqueConstraint('presets_guild_id_name_key_key', ['guild_id', 'name_key'])
        .$call(dialect.strict),
      db.schema
        .createTable('guild_settings')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('default_preset_id', types.count, (column) => column.references('presets.id').onDelete('set null'))
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
      db.schema.createIndex('guild_settings_default_preset').on('guild_settings').column('default_preset_id'),
      db.schema
        .createTable('member_defaults')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('voice', 'text')
        .addColumn('language', 'text')
        .addColumn('tone', 'text')
        .addColumn('exaggeration', types.real, (column) => column.check(sql`exaggeration BETWEEN 0 AND 1`))
        .addColumn('format', 'text', (column) => column.check(sql`format IN ('wav', 'mp3')`))
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('member_defaults_pkey', ['guild_id', 'user_id'])
        .$call(dialect.strict),
    ],
  },
  {
    version: 2,
    name: 'voice library (cloned voices)',
    // Deleting a cloned voice finds the presets and member defaults that speak with it (the two indexes).
    up: (db, types, dialect) => [
      db.schema
        .createTable('voice_library')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('voice_id', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('name_key', 'text', (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addColumn('created_at', types.milliseconds, (column) => column.notNull())
        .addColumn('clip_seconds', types.real, (column) => column.notNull().check(sql`clip_seconds > 0`))
        .addPrimaryKeyConstraint('voice_library_pkey', ['guild_id', 'voice_id'])
        .addUniqueConstraint('voice_library_guild_id_name_key_key', ['guild_id', 'name_key'])
        .$call(dialect.strict),
      db.schema.createIndex('presets_voice').on('presets').columns(['guild_id', 'voice']),
      db.schema.createIndex('member_defaults_voice').on('member_defaults').columns(['guild_id', 'voice']),
    ],
  },
  {
    version: 3,
    name: 'quota accounting, server budgets',
    // spends: one row per request's characters, spent (sent, accepted) or saved (cached = 1). month/day are UTC keys
    // ('YYYY-MM', 'YYYY-MM-DD') so totals are plain indexed sums. service_* are the service's own figures.
    // quota_state: the bot-wide state, one row. exhausted_* set by a 429, cleared by the next accepted request.
    // guild_budgets: a server's own budgets (NULL: none of its own; the operator's apply).
    up: (db, types, dialect) => [
      db.schema
        .createTable('spends')
        .addColumn('id', types.count, (column) => dialect.numbered(column).primaryKey())
        .addColumn('at', types.milliseconds, (column) => column.notNull())
        .addColumn('month', 'text', (column) => column.notNull())
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('command', 'text', (column) => column.notNull())
        .addColumn('endpoint', 'text', (column) =>
          column.notNull().check(sql`endpoint IN ('tts', 'emotion-tts', 'voice-clone')`),
        )
        .addColumn('characters', types.count, (column) => column.notNull().check(sql`characters >= 0`))
        .addColumn('cached', types.flag, (column) => column.notNull().check(sql`cached IN (0, 1)`))
        .addColumn('request_id', 'text')
        .addColumn('service_used', types.count)
        .addColumn('service_limit', types.count)
        .addColumn('service_remaining', types.count)
        .addColumn('service_reset_at', types.milliseconds)
        .$call(dialect.strict),
      db.schema.createIndex('spends_month').on('spends').columns(['month', 'cached']),
      db.schema.createIndex('spends_guild_month').on('spends').columns(['guild_id', 'month', 'cached']),
      db.schema.createIndex('spends_member_day').on('spends').columns(['guild_id', 'user_id', 'day', 'cached']),
      db.schema
        .createTable('quota_state')
        .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
        .addColumn('exhausted_reset_at', types.milliseconds)
        .addColumn('exhausted_marked_at', types.milliseconds)
        .addColumn('service_month', 'text')
        .addColumn('service_used', types.count)
        .addColumn('service_limit', types.count)
        .addColumn('service_remaining', types.count)
        .addColumn('service_reset_at', types.milliseconds)
        .addColumn('service_updated_at', types.milliseconds)
        .$call(dialect.strict),
      db.insertInto('quota_state').values({ id: 1 }),
      db.schema
        .createTable('guild_budgets')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('monthly_chars', types.count, (column) => column.check(sql`monthly_chars > 0`))
        .addColumn('member_daily_chars', types.count, (column) => column.check(sql`member_daily_chars > 0`))
        .addColumn('member_cooldown_seconds', types.count, (column) => column.check(sql`member_cooldown_seconds > 0`))
        .addColumn('updated_by', 'text', (column) => column.notNull())
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
    ],
  },
  {
    version: 4,
    name: 'used-up month: who marked it; clone name reservations',
    // exhausted_*: what the mark was made under, so that a change of key or plan (or a higher limit) clears it.
    // A /clone holds its name before its paid call, so two clones of one name cannot both pay; a crash's expires.
    up: (db, types, dialect) => [
      db.schema.alterTable('quota_state').addColumn('exhausted_account', 'text'),
      db.schema.alterTable('quota_state').addColumn('exhausted_plan', 'text'),
      db.schema.alterTable('quota_state').addColumn('exhausted_limit', types.count),
      db.schema
        .createTable('clone_name_reservations')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('name_key', 'text', (column) => column.notNull())
        .addColumn('token', 'text', (column) => column.notNull().unique())
        .addColumn('reserved_by', 'text', (column) => column.notNull())
        .addColumn('expires_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('clone_name_reservations_pkey', ['guild_id', 'name_key'])
        .$call(dialect.strict),
    ],
  },
  {
    version: 5,
    name: 'budget holds shared by every process',
    // Characters held between a request's budget check and its spend record; a crash's hold stops at expires_at.
    up: (db, types, dialect) => [
      db.schema
        .createTable('budget_holds')
        .addColumn('token', 'text', (column) => column.primaryKey())
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('month', 'text', (column) => column.notNull())
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('characters', types.count, (column) => column.notNull().check(sql`characters > 0`))
        .addColumn('expires_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
      db.schema.createIndex('budget_holds_month').on('budget_holds').columns(['month', 'guild_id']),
    ],
  },
  {
    version: 6,
    name: 'output defaults',
    // How replies reach members outside voice. No row: nothing set at that level (a file).
    up: (db, types, dialect) => [
      db.schema
        .createTable('guild_output_defaults')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('output', 'text', (column) => column.notNull().check(sql`output IN ('file', 'voice-message')`))
        .addColumn('updated_by', 'text', (column) => column.notNull())
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
      db.schema
        .createTable('member_output_defaults')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('output', 'text', (column) => column.notNull().check(sql`output IN ('file', 'voice-message')`))
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('member_output_defaults_pkey', ['guild_id', 'user_id'])
        .$call(dialect.strict),
    ],
  },
  {
    version: 7,
    name: 'undelivered spends',
    // A spend charged (2xx) whose audio or voice ID never arrived: spent, marked so the operator can tell.
    up: (db, types) => [
      db.schema.alterTable('spends').addColumn('undelivered', types.flag, (column) =>
        column
          .notNull()
          .defaultTo(0)
          .check(sql`undelivered IN (0, 1)`),
      ),
    ],
  },
  {
    version: 8,
    name: 'running spend totals for budget holds',
    // Running totals per guild month and member day, kept with each spend so a hold reads one row a limit.
    up: (db, types, dialect) => [
      db.schema
        .createTable('spend_totals_guild_month')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('month', 'text', (column) => column.notNull())
        .addColumn('characters', types.count, (column) => column.notNull())
        .addPrimaryKeyConstraint('spend_totals_guild_month_pkey', ['guild_id', 'month'])
        .$call(dialect.strict),
      db.schema
        .createTable('spend_totals_member_day')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('characters', types.count, (column) => column.notNull())
        .addPrimaryKeyConstraint('spend_totals_member_day_pkey', ['guild_id', 'user_id', 'day'])
        .$call(dialect.strict),
      db
        .insertInto('spend_totals_guild_month')
        .columns(['guild_id', 'month', 'characters'])
        .expression(
          db
            .selectFrom('spends')
            .select(['guild_id', 'month', (eb) => eb.fn.sum('characters').as('characters')])
            .where('cached', '=', 0)
            .groupBy(['guild_id', 'month']),
        ),
      db
        .insertInto('spend_totals_member_day')
        .columns(['guild_id', 'user_id', 'day', 'characters'])
        .expression(
          db
            .selectFrom('spends')
            .select(['guild_id', 'user_id', 'day', (eb) => eb.fn.sum('characters').as('characters')])
            .where('cached', '=', 0)
            .groupBy(['guild_id', 'user_id', 'day']),
        ),
      db.schema.createIndex('budget_holds_member_day').on('budget_holds').columns(['guild_id', 'user_id', 'day']),
      db.schema.createIndex('budget_holds_expires').on('budget_holds').column('expires_at'),
    ],
  },
  {
    version: 9,
    name: 'servers SayBot was removed from',
    // When SayBot was removed from a server: its data goes after the grace period unless it is added back first.
    up: (db, types, dialect) => [
      db.schema
        .createTable('removed_guilds')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('removed_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
      db.schema.createIndex('removed_guilds_at').on('removed_guilds').column('removed_at'),
    ],
  },
  {
    version: 10,
    name: "the store's own secrets",
    // A per-database key (areas/forget-carry-over.ts): the forgotten's spends count under keyed pseudonyms.
    up: (db, _types, dialect) => [
      db.schema
        .createTable('store_secrets')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .$call(dialect.strict),
    ],
  },
  {
    version: 11,
    name: 'speed and volume in presets and member defaults',
    // Applied by SayBot to the audio (never sent to the Voice API): NULL = not set at this level.
    up: (db, types) => [
      db.schema.alterTable('presets').addColumn('speed', types.real),
      db.schema.alterTable('presets').addColumn('volume', types.real),
      db.schema.alterTable('member_defaults').addColumn('speed', types.real),
      db.schema.alterTable('member_defaults').addColumn('volume', types.real),
    ],
  },
  {
    version: 15,
    name: 'soundboard sounds saved from cloned voices',
    // Which soundboard sound "Save as sound" made from which cloned voice: deleting the voice removes them too.
    up: (db, types, dialect) => [
      db.schema
        .createTable('soundboard_sounds')
        .addColumn('sound_id', 'text', (column) => column.primaryKey())
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('voice_id', 'text', (column) => column.notNull())
        .addColumn('saved_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
      db.schema.createIndex('soundboard_sounds_voice').on('soundboard_sounds').columns(['guild_id', 'voice_id']),
    ],
  },
  {
    version: 18,
    name: 'spends written ahead, holds owned by a process',
    // `owner`: the process reading a spend's body until it is settled, or whose request holds a hold; a restarted
    // process settles what its predecessor left (src/core/quota/accounting.ts). NULL: settled, or a hold that only expires.
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
    // Rows live a minute (FORGET_NOTICE_TTL_MS), keyed by pseudonyms: nothing names whom it forgot.
    up: (db, types) => [
      db.schema
        .createTable('forget_notices')
        .addColumn('token', 'text', (column) => column.primaryKey())
        .addColumn('guild_key', 'text')
        .addColumn('member_key', 'text')
        .addColumn('at', types.milliseconds, (column) => column.notNull()),
    ],
  },
  {
    version: 20,
    name: 'pitch in presets and member defaults',
    // Semitones, applied by SayBot to the audio (never sent to the Voice API): NULL = not set at this level.
    up: (db, types) => [
      db.schema.alterTable('presets').addColumn('pitch', types.real),
      db.schema.alterTable('member_defaults').addColumn('pitch', types.real),
    ],
  },
  {
    version: 21,
    name: 'lines the free voice spoke',
    // Per server, month and why it spoke (chosen, or standing in for the paid voice). Counts only: no member, no text.
    up: (db, types) => [
      db.schema
        .createTable('free_voice_lines')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('month', 'text', (column) => column.notNull())
        .addColumn('cause', 'text', (column) => column.notNull())
        .addColumn('lines', types.count, (column) => column.notNull())
        .addPrimaryKeyConstraint('free_voice_lines_pk', ['guild_id', 'month', 'cause']),
    ],
  },
  {
    version: 23,
    name: 'spends written before their request leaves',
    // A paid request is written down before its first byte leaves, `unconfirmed` until its 2xx; "not charged" deletes
    // it, a crash or no answer leaves it spent and unconfirmed (src/core/quota/accounting.ts). 0 for earlier spends.
    up: (db, types) => [
      db.schema.alterTable('spends').addColumn('unconfirmed', types.flag, (column) => column.notNull().defaultTo(0)),
    ],
  },
  {
    version: 28,
    name: "a member's saved voice deleted",
    // The cloned voice's name, where it was a member's voice when deleted: told once where it would have spoken.
    up: (db) => [db.schema.alterTable('member_defaults').addColumn('voice_deleted', 'text')],
  },
  {
    version: 29,
    name: 'spends found by the token chosen before their write',
    // A write whose answer was lost (a connection dropped after its COMMIT) may have landed: found by its token, it is
    // taken back, never written twice (src/core/quota/accounting.ts). NULL for earlier spends.
    up: (db) => [
      db.schema.alterTable('spends').addColumn('token', 'text'),
      db.schema.createIndex('spends_token').on('spends').column('token').unique(),
    ],
  },
];

/** The whole schema: the features' steps, then the core's, by version (order matters only for shared version 6). */
export function storeSchema(featureSteps: ReadonlyArray<readonly SchemaStep[]>): SchemaVersion[] {
  return composeSchema([...featureSteps, CORE_SCHEMA_STEPS]);
}

export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').get();
  return Number(row?.['version'] ?? 0);
}

/** A version's statements, in the transaction migrate holds. */
function runVersion(db: DatabaseSync, version: SchemaVersion): void {
  for (const statement of statementsOf(version, 'sqlite'))
    db.prepare(statement.sql).run(...(statement.parameters as SQLInputValue[]));
}

export function migrate(db: DatabaseSync, schema: readonly SchemaVersion[]): number[] {
  db.exec(versionsTable('sqlite').sql);
  const latest = schema.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const migration of schema) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const current = schemaVersion(db);
      if (current > latest) throw new SchemaTooNewError(current, latest);
      if (current < migration.version) {
        runVersion(db, migration);
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
