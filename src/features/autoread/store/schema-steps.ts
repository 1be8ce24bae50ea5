// Auto-read's part of the schema; step 6 runs with the core's step 6 in one transaction.
import { sql } from 'kysely';
import type { SchemaStep } from '../../../core/store/schema-steps.ts';

/** auto_read's columns from step 27 on: the server's settings (as steps 6 to 26 made them), who changed them, when. */
const AUTO_READ_SETTINGS_COLUMNS = [
  'guild_id',
  'say_author_name',
  'max_length',
  'read_bots',
  'required_role_id',
  'only_members_in_voice',
  'announce_join_leave',
  'skip_prefix',
  'read_silent',
  'autojoin',
  'faster_after',
  'max_speed',
  'skip_after',
  'voices',
  'read_attachments',
  'free_voice',
  'settings_updated_by',
  'updated_at',
] as const;

export const AUTO_READ_SCHEMA_STEPS: readonly SchemaStep[] = [
  {
    version: 6,
    name: 'auto-read, pronunciation dictionary',
    // auto_read: NULL is the default. dictionary_entries: word_key is entryKey, one entry per word whatever its case.
    up: (db, types, dialect) => [
      db.schema
        .createTable('auto_read')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('reading', types.flag, (column) =>
          column
            .notNull()
            .defaultTo(0)
            .check(sql`reading IN (0, 1)`),
        )
        .addColumn('text_channel_id', 'text')
        .addColumn('voice_channel_id', 'text')
        .addColumn('started_by', 'text')
        .addColumn('started_at', types.milliseconds)
        .addColumn('say_author_name', types.flag, (column) => column.check(sql`say_author_name IN (0, 1)`))
        .addColumn('max_length', types.count, (column) => column.check(sql`max_length > 0`))
        .addColumn('read_bots', types.flag, (column) => column.check(sql`read_bots IN (0, 1)`))
        .addColumn('required_role_id', 'text')
        .addColumn('only_members_in_voice', types.flag, (column) => column.check(sql`only_members_in_voice IN (0, 1)`))
        .addColumn('announce_join_leave', types.flag, (column) => column.check(sql`announce_join_leave IN (0, 1)`))
        .addColumn('settings_updated_by', 'text')
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .addCheckConstraint(
          'auto_read_check',
          sql`reading = 0 OR (text_channel_id IS NOT NULL AND voice_channel_id IS NOT NULL)`,
        )
        .$call(dialect.strict),
      db.schema.createIndex('auto_read_reading').on('auto_read').column('guild_id').where(sql.ref('reading'), '=', 1),
      db.schema
        .createTable('dictionary_entries')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('word_key', 'text', (column) => column.notNull())
        .addColumn('word', 'text', (column) => column.notNull())
        .addColumn('reading', 'text', (column) => column.notNull())
        .addColumn('updated_by', 'text', (column) => column.notNull())
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('dictionary_entries_pkey', ['guild_id', 'word_key'])
        .$call(dialect.strict),
    ],
  },
  {
    version: 12,
    name: 'how auto-read names a member, and whether it reads them',
    // On the member's own row (deleted with it on request: member_defaults.user_id). NULL: their display name; read.
    up: (db, types) => [
      db.schema.alterTable('member_defaults').addColumn('spoken_name', 'text'),
      db.schema.alterTable('member_defaults').addColumn('read_me', types.flag),
    ],
  },
  {
    version: 13,
    name: 'auto-read skip prefix, silent messages, auto-join, backlog control',
    // NULL: the default. stopped_why: 'asked' (/autoread stop) or 'left-voice', which auto-join reads.
    up: (db, types) => [
      db.schema.alterTable('auto_read').addColumn('skip_prefix', 'text'),
      db.schema.alterTable('auto_read').addColumn('read_silent', types.flag),
      db.schema.alterTable('auto_read').addColumn('autojoin', types.flag),
      db.schema
        .alterTable('auto_read')
        .addColumn('faster_after', 'integer', (column) => column.check(sql`faster_after >= 0`)),
      db.schema
        .alterTable('auto_read')
        .addColumn('max_speed', types.real, (column) => column.check(sql`max_speed >= 1 AND max_speed <= 2`)),
      db.schema
        .alterTable('auto_read')
        .addColumn('skip_after', 'integer', (column) => column.check(sql`skip_after >= 0`)),
      db.schema.alterTable('auto_read').addColumn('stopped_why', 'text'),
    ],
  },
  {
    version: 14,
    name: "auto-read's distinct voices and the managers' ignore list",
    // voices NULL: 'one'. The pool, each member's pool voice (kept across restarts) and the ignored members.
    up: (db, types, dialect) => [
      db.schema
        .alterTable('auto_read')
        .addColumn('voices', 'text', (column) => column.check(sql`voices IN ('one', 'distinct')`)),
      db.schema
        .createTable('auto_read_voice_pool')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('voice', 'text', (column) => column.notNull())
        .addColumn('added_by', 'text', (column) => column.notNull())
        .addColumn('added_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('auto_read_voice_pool_pkey', ['guild_id', 'voice'])
        .$call(dialect.strict),
      db.schema
        .createTable('auto_read_member_voices')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('voice', 'text', (column) => column.notNull())
        .addColumn('assigned_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('auto_read_member_voices_pkey', ['guild_id', 'user_id'])
        .$call(dialect.strict),
      db.schema
        .createIndex('auto_read_member_voices_voice')
        .on('auto_read_member_voices')
        .columns(['guild_id', 'voice']),
      db.schema
        .createTable('auto_read_ignored')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull())
        .addColumn('ignored_by', 'text', (column) => column.notNull())
        .addColumn('ignored_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('auto_read_ignored_pkey', ['guild_id', 'user_id'])
        .$call(dialect.strict),
    ],
  },
  {
    version: 16,
    name: 'dictionary patterns and order',
    // A pattern's word_key is patternKey; entries apply by position. Existing entries keep their keys' order.
    up: (db, _types, dialect) => [
      db.schema.alterTable('dictionary_entries').addColumn('kind', 'text', (column) =>
        column
          .notNull()
          .defaultTo('word')
          .check(sql`kind IN ('word', 'pattern')`),
      ),
      db.schema
        .alterTable('dictionary_entries')
        .addColumn('position', 'integer', (column) => column.notNull().defaultTo(0)),
      db.updateTable('dictionary_entries').set((eb) => ({
        position: eb(
          eb.lit<number>(1),
          '+',
          eb
            .selectFrom('dictionary_entries as earlier')
            .select((earlier) => earlier.fn.countAll<number>().as('before'))
            .whereRef('earlier.guild_id', '=', 'dictionary_entries.guild_id')
            .where(
              sql<boolean>`${dialect.byCodePoint('earlier.word_key')} < ${dialect.byCodePoint('dictionary_entries.word_key')}`,
            ),
        ),
      })),
    ],
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
    version: 26,
    name: 'auto-read in the free voice',
    // NULL: the default (off), as every auto-read setting.
    up: (db, types) => [
      db.schema
        .alterTable('auto_read')
        .addColumn('free_voice', types.flag, (column) => column.check(sql`free_voice IN (0, 1)`)),
    ],
  },
  {
    version: 25,
    name: 'dictionary versions',
    // A token written with every change of a dictionary, so a reader knows its copy is current without reading it.
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
  {
    version: 27,
    name: 'auto-read bindings per voice channel',
    // A binding per (server, voice channel) in auto_read_bindings, each as it was; auto_read keeps the server's
    // settings. SQLite drops no column a table CHECK names, so auto_read is made again without the binding's columns
    // (its settings held in a copy meanwhile, so each constraint keeps the name it had).
    up: (db, types, dialect) => [
      db.schema
        .createTable('auto_read_bindings')
        .addColumn('guild_id', 'text', (column) => column.notNull())
        .addColumn('voice_channel_id', 'text', (column) => column.notNull())
        .addColumn('text_channel_id', 'text', (column) => column.notNull())
        .addColumn('reading', types.flag, (column) =>
          column
            .notNull()
            .defaultTo(0)
            .check(sql`reading IN (0, 1)`),
        )
        .addColumn('stopped_why', 'text', (column) => column.check(sql`stopped_why IN ('asked', 'left-voice')`))
        .addColumn('started_by', 'text', (column) => column.notNull())
        .addColumn('started_at', types.milliseconds, (column) => column.notNull())
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .addPrimaryKeyConstraint('auto_read_bindings_pkey', ['guild_id', 'voice_channel_id'])
        .$call(dialect.strict),
      db.schema
        .createIndex('auto_read_bindings_reading')
        .on('auto_read_bindings')
        .columns(['guild_id', 'voice_channel_id'])
        .where(sql.ref('reading'), '=', 1),
      db
        .insertInto('auto_read_bindings')
        .columns([
          'guild_id',
          'voice_channel_id',
          'text_channel_id',
          'reading',
          'stopped_why',
          'started_by',
          'started_at',
          'updated_at',
        ])
        .expression(
          db
            .selectFrom('auto_read')
            .select((eb) => [
              'guild_id',
              'voice_channel_id',
              'text_channel_id',
              'reading',
              sql<string>`CASE WHEN stopped_why IN ('asked', 'left-voice') THEN stopped_why END`.as('stopped_why'),
              eb.fn.coalesce('started_by', sql<string>`'unknown'`).as('started_by'),
              eb.fn.coalesce('started_at', 'updated_at').as('started_at'),
              'updated_at',
            ])
            .where('text_channel_id', 'is not', null)
            .where('voice_channel_id', 'is not', null),
        ),
      db.schema
        .createTable('auto_read_settings_copy')
        .as(db.selectFrom('auto_read').select(AUTO_READ_SETTINGS_COLUMNS)),
      db.schema.dropTable('auto_read'),
      db.schema
        .createTable('auto_read')
        .addColumn('guild_id', 'text', (column) => column.primaryKey())
        .addColumn('say_author_name', types.flag, (column) => column.check(sql`say_author_name IN (0, 1)`))
        .addColumn('max_length', types.count, (column) => column.check(sql`max_length > 0`))
        .addColumn('read_bots', types.flag, (column) => column.check(sql`read_bots IN (0, 1)`))
        .addColumn('required_role_id', 'text')
        .addColumn('only_members_in_voice', types.flag, (column) => column.check(sql`only_members_in_voice IN (0, 1)`))
        .addColumn('announce_join_leave', types.flag, (column) => column.check(sql`announce_join_leave IN (0, 1)`))
        .addColumn('skip_prefix', 'text')
        .addColumn('read_silent', types.flag)
        .addColumn('autojoin', types.flag)
        .addColumn('faster_after', 'integer', (column) => column.check(sql`faster_after >= 0`))
        .addColumn('max_speed', types.real, (column) => column.check(sql`max_speed >= 1 AND max_speed <= 2`))
        .addColumn('skip_after', 'integer', (column) => column.check(sql`skip_after >= 0`))
        .addColumn('voices', 'text', (column) => column.check(sql`voices IN ('one', 'distinct')`))
        .addColumn('read_attachments', types.flag, (column) => column.check(sql`read_attachments IN (0, 1)`))
        .addColumn('free_voice', types.flag, (column) => column.check(sql`free_voice IN (0, 1)`))
        .addColumn('settings_updated_by', 'text')
        .addColumn('updated_at', types.milliseconds, (column) => column.notNull())
        .$call(dialect.strict),
      db
        .insertInto('auto_read')
        .columns(AUTO_READ_SETTINGS_COLUMNS)
        .expression(db.selectFrom('auto_read_settings_copy').select(AUTO_READ_SETTINGS_COLUMNS)),
      db.schema.dropTable('auto_read_settings_copy'),
    ],
  },
];
