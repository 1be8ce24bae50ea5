import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { firstRefusal, holdKeys } from './budget-holds.ts';
import { likeContains, nameKey, tidyName } from './names.ts';
import { migratePostgres } from './pg-migrations.ts';
import { type Row, TOTALS, breakdownOf, clonedVoiceOf, dateOf, guildBudgetsOf, num, orNull, presetOf, quotaStateOf, settingsOf, totalsOf } from './rows.ts';
import type {
  AddClonedVoiceResult,
  BudgetHoldResult,
  ClonedVoice,
  DeletedClonedVoice,
  DeletedPreset,
  GuildBudgetSettings,
  ListOptions,
  MemberDefaults,
  MonthBreakdown,
  NameReservationResult,
  NewBudgetHold,
  NewClonedVoice,
  NewNameReservation,
  NewPreset,
  NewSpend,
  Preset,
  PresetListOptions,
  QuotaMarkAccount,
  QuotaState,
  SavePresetResult,
  SpendTotals,
  Store,
  VoiceSettings,
} from './types.ts';

type Queryable = Pick<pg.PoolClient, 'query'>;

// BIGINT (20) and NUMERIC (1700, what sum() returns) as JS numbers: every value SayBot keeps (milliseconds,
// character counts) is far below 2^53. Per pool, so other users of `pg` in the process are not affected.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};


export interface PgStoreOptions {
  /** Most connections this process holds; default 5 (SayBot's queries are short). */
  maxConnections?: number;
}

/**
 * The Store on PostgreSQL (driver: `pg`, node-postgres). Same schema and semantics as SqliteStore; what SQLite
 * gets from BEGIN IMMEDIATE (one writer at a time) PostgreSQL gets from a per-guild advisory transaction lock
 * where a check and a write must not interleave (counts against a limit), and from unique keys elsewhere.
 * Open with `PgStore.open(url)`: connecting and migrating are asynchronous.
 */
export class PgStore implements Store {
  readonly #pool: pg.Pool;
  #closed = false;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  static async open(connectionString: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 5, types });
    // An idle client losing its server must not crash the process; the next query reports the failure.
    pool.on('error', () => {});
    try {
      const client = await pool.connect();
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PgStore(pool);
  }

  get schemaVersion(): Promise<number> {
    return this.#get(this.#pool, 'SELECT max(version) AS v FROM schema_migrations').then((row) => num(row?.['v']) ?? 0);
  }

  async #get(db: Queryable, sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await db.query<Row>(sql, params)).rows[0];
  }

  async #all(db: Queryable, sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await db.query<Row>(sql, params)).rows;
  }

  async #run(db: Queryable, sql: string, params: unknown[] = []): Promise<number> {
    return (await db.query(sql, params)).rowCount ?? 0;
  }

  /**
   * Runs `work` in one transaction on one connection. With `lockKey`, first takes the advisory transaction lock
   * of that key (released at COMMIT/ROLLBACK), so checks-then-writes on the same key never interleave, across
   * processes too.
   */
  async #transaction<T>(lockKey: string | undefined, work: (db: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      if (lockKey !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  // ---- presets ----

  async savePreset(preset: NewPreset, options: { maxPerGuild?: number } = {}): Promise<SavePresetResult> {
    const name = tidyName(preset.name);
    const key = nameKey(name);
    const values = [
      name,
      preset.voice,
      orNull(preset.language),
      orNull(preset.tone),
      orNull(preset.exaggeration),
      orNull(preset.format),
      preset.createdBy,
      (preset.createdAt ?? new Date()).getTime(),
    ];
    return this.#transaction(`presets:${preset.guildId}`, async (db): Promise<SavePresetResult> => {
      const existing = num((await this.#get(db, 'SELECT id FROM presets WHERE guild_id = $1 AND name_key = $2', [preset.guildId, key]))?.['id']);
      if (existing !== undefined) {
        const row = await this.#get(
          db,
          `UPDATE presets SET name = $1, voice = $2, language = $3, tone = $4, exaggeration = $5, format = $6, created_by = $7, created_at = $8
           WHERE id = $9 RETURNING *`,
          [...values, existing],
        );
        if (!row) throw new Error(`preset ${existing} vanished inside its own transaction`);
        return { status: 'updated', preset: presetOf(row) };
      }
      const max = options.maxPerGuild;
      if (max !== undefined) {
        const count = num((await this.#get(db, 'SELECT count(*) AS n FROM presets WHERE guild_id = $1', [preset.guildId]))?.['n']) ?? 0;
        if (count >= max) return { status: 'full', limit: max };
      }
      const row = await this.#get(
        db,
        `INSERT INTO presets (name, voice, language, tone, exaggeration, format, created_by, created_at, guild_id, name_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        [...values, preset.guildId, key],
      );
      if (!row) throw new Error('preset vanished inside its own transaction');
      return { status: 'created', preset: presetOf(row) };
    });
  }

  async getPreset(guildId: string, name: string): Promise<Preset | undefined> {
    const row = await this.#get(this.#pool, 'SELECT * FROM presets WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]);
    return row && presetOf(row);
  }

  async listPresets(guildId: string, options: PresetListOptions = {}): Promise<Preset[]> {
    const rows = await this.#all(
      this.#pool,
      `SELECT * FROM presets
       WHERE guild_id = $1 AND name_key LIKE $2 ESCAPE '\\' AND ($3::text IS NULL OR language IS NULL OR language = $3)
       ORDER BY name_key COLLATE "C" LIMIT $4`,
      [guildId, likeContains(options.contains ?? ''), orNull(options.language), orNull(options.limit)],
    );
    return rows.map(presetOf);
  }

  async deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined> {
    return this.#transaction(`presets:${guildId}`, async (db) => {
      const row = await this.#get(db, 'SELECT * FROM presets WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]);
      if (!row) return undefined;
      const wasDefault = (await this.#get(db, 'SELECT 1 AS yes FROM guild_settings WHERE guild_id = $1 AND default_preset_id = $2', [guildId, row['id']])) !== undefined;
      await this.#run(db, 'DELETE FROM presets WHERE id = $1', [row['id']]);
      return { preset: presetOf(row), wasDefault };
    });
  }

  // ---- guild settings ----

  async setDefaultPreset(guildId: string, name: string | null): Promise<boolean> {
    return this.#transaction(`presets:${guildId}`, async (db) => {
      let id: number | null = null;
      if (name !== null) {
        const found = num((await this.#get(db, 'SELECT id FROM presets WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]))?.['id']);
        if (found === undefined) return false;
        id = found;
      }
      await this.#run(
        db,
        `INSERT INTO guild_settings (guild_id, default_preset_id, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET default_preset_id = excluded.default_preset_id, updated_at = excluded.updated_at`,
        [guildId, id, Date.now()],
      );
      return true;
    });
  }

  async getDefaultPreset(guildId: string): Promise<Preset | undefined> {
    const row = await this.#get(this.#pool, 'SELECT p.* FROM guild_settings g JOIN presets p ON p.id = g.default_preset_id WHERE g.guild_id = $1', [guildId]);
    return row && presetOf(row);
  }

  // ---- member defaults ----

  async getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined> {
    const row = await this.#get(this.#pool, 'SELECT * FROM member_defaults WHERE guild_id = $1 AND user_id = $2', [guildId, userId]);
    return row && { ...settingsOf(row), guildId, userId, updatedAt: new Date(num(row['updated_at']) ?? 0) };
  }

  async setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults> {
    const row = await this.#get(
      this.#pool,
      `INSERT INTO member_defaults AS m (guild_id, user_id, voice, language, tone, exaggeration, format, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET
         voice = coalesce(excluded.voice, m.voice),
         language = coalesce(excluded.language, m.language),
         tone = coalesce(excluded.tone, m.tone),
         exaggeration = coalesce(excluded.exaggeration, m.exaggeration),
         format = coalesce(excluded.format, m.format),
         updated_at = excluded.updated_at
       RETURNING *`,
      [guildId, userId, orNull(settings.voice), orNull(settings.language), orNull(settings.tone), orNull(settings.exaggeration), orNull(settings.format), Date.now()],
    );
    if (!row) throw new Error('member defaults vanished right after being written');
    return { ...settingsOf(row), guildId, userId, updatedAt: new Date(num(row['updated_at']) ?? 0) };
  }

  async clearMemberDefaults(guildId: string, userId: string): Promise<boolean> {
    return (await this.#run(this.#pool, 'DELETE FROM member_defaults WHERE guild_id = $1 AND user_id = $2', [guildId, userId])) > 0;
  }

  // ---- voice library ----

  async #libraryCount(db: Queryable, guildId: string, now: number, ownToken: string | null): Promise<number> {
    const row = await this.#get(
      db,
      `SELECT (SELECT count(*) FROM voice_library WHERE guild_id = $1)
            + (SELECT count(*) FROM clone_name_reservations WHERE guild_id = $1 AND expires_at > $2 AND token IS DISTINCT FROM $3) AS n`,
      [guildId, now, ownToken],
    );
    return num(row?.['n']) ?? 0;
  }

  async reserveClonedVoiceName(reservation: NewNameReservation): Promise<NameReservationResult> {
    const key = nameKey(tidyName(reservation.name));
    const now = (reservation.now ?? new Date()).getTime();
    return this.#transaction(`voices:${reservation.guildId}`, async (db): Promise<NameReservationResult> => {
      await this.#run(db, 'DELETE FROM clone_name_reservations WHERE expires_at <= $1', [now]);
      if (await this.#get(db, 'SELECT 1 AS x FROM voice_library WHERE guild_id = $1 AND name_key = $2', [reservation.guildId, key])) return { status: 'name-taken' };
      if (await this.#get(db, 'SELECT 1 AS x FROM clone_name_reservations WHERE guild_id = $1 AND name_key = $2', [reservation.guildId, key])) return { status: 'name-taken' };
      const max = reservation.maxPerGuild;
      if (max !== undefined && (await this.#libraryCount(db, reservation.guildId, now, null)) >= max) return { status: 'full', limit: max };
      const token = randomUUID();
      await this.#run(
        db,
        'INSERT INTO clone_name_reservations (guild_id, name_key, token, reserved_by, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [reservation.guildId, key, token, reservation.reservedBy, now + reservation.ttlMs],
      );
      return { status: 'reserved', token };
    });
  }

  async releaseClonedVoiceName(token: string): Promise<void> {
    await this.#run(this.#pool, 'DELETE FROM clone_name_reservations WHERE token = $1', [token]);
  }

  async addClonedVoice(voice: NewClonedVoice, options: { maxPerGuild?: number; reservation?: string } = {}): Promise<AddClonedVoiceResult> {
    const name = tidyName(voice.name);
    const key = nameKey(name);
    const own = options.reservation ?? null;
    return this.#transaction(`voices:${voice.guildId}`, async (db): Promise<AddClonedVoiceResult> => {
      const now = Date.now();
      const existing = await this.#get(db, 'SELECT * FROM voice_library WHERE guild_id = $1 AND name_key = $2', [voice.guildId, key]);
      if (existing) return { status: 'name-taken', existing: clonedVoiceOf(existing) };
      const held = await this.#get(
        db,
        'SELECT reserved_by FROM clone_name_reservations WHERE guild_id = $1 AND name_key = $2 AND expires_at > $3 AND token IS DISTINCT FROM $4',
        [voice.guildId, key, now, own],
      );
      if (held) {
        const holder = { guildId: voice.guildId, name, voiceId: '', createdBy: String(held['reserved_by']), createdAt: new Date(now), clipSeconds: 0 };
        return { status: 'name-taken', existing: holder };
      }
      const max = options.maxPerGuild;
      if (max !== undefined && (await this.#libraryCount(db, voice.guildId, now, own)) >= max) return { status: 'full', limit: max };
      if (own !== null) await this.#run(db, 'DELETE FROM clone_name_reservations WHERE token = $1', [own]);
      const row = await this.#get(
        db,
        `INSERT INTO voice_library (guild_id, voice_id, name, name_key, created_by, created_at, clip_seconds)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [voice.guildId, voice.voiceId, name, key, voice.createdBy, (voice.createdAt ?? new Date()).getTime(), voice.clipSeconds],
      );
      if (!row) throw new Error('cloned voice vanished inside its own transaction');
      return { status: 'added', voice: clonedVoiceOf(row) };
    });
  }

  async getClonedVoice(guildId: string, voiceId: string): Promise<ClonedVoice | undefined> {
    const row = await this.#get(this.#pool, 'SELECT * FROM voice_library WHERE guild_id = $1 AND voice_id = $2', [guildId, voiceId]);
    return row && clonedVoiceOf(row);
  }

  async findClonedVoiceByName(guildId: string, name: string): Promise<ClonedVoice | undefined> {
    const row = await this.#get(this.#pool, 'SELECT * FROM voice_library WHERE guild_id = $1 AND name_key = $2', [guildId, nameKey(name)]);
    return row && clonedVoiceOf(row);
  }

  async listClonedVoices(guildId: string, options: ListOptions = {}): Promise<ClonedVoice[]> {
    const rows = await this.#all(
      this.#pool,
      `SELECT * FROM voice_library WHERE guild_id = $1 AND (name_key LIKE $2 ESCAPE '\\' OR lower(voice_id) LIKE $2 ESCAPE '\\')
       ORDER BY name_key COLLATE "C" LIMIT $3`,
      [guildId, likeContains(options.contains ?? ''), orNull(options.limit)],
    );
    return rows.map(clonedVoiceOf);
  }

  async deleteClonedVoice(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined> {
    return this.#transaction(`voices:${guildId}`, async (db) => {
      const row = await this.#get(db, 'SELECT * FROM voice_library WHERE guild_id = $1 AND voice_id = $2', [guildId, voiceId]);
      if (!row) return undefined;
      const presets = await this.#all(db, 'DELETE FROM presets WHERE guild_id = $1 AND voice = $2 RETURNING name, name_key', [guildId, voiceId]);
      const cleared = await this.#run(db, 'UPDATE member_defaults SET voice = NULL WHERE guild_id = $1 AND voice = $2', [guildId, voiceId]);
      await this.#run(db, 'DELETE FROM voice_library WHERE guild_id = $1 AND voice_id = $2', [guildId, voiceId]);
      const names = presets.sort((a, b) => (String(a['name_key']) < String(b['name_key']) ? -1 : 1)).map((p) => String(p['name']));
      return { voice: clonedVoiceOf(row), presetsRemoved: names, memberDefaultsCleared: cleared };
    });
  }

  // ---- quota accounting ----

  async recordSpend(spend: NewSpend): Promise<void> {
    const at = spend.at ?? new Date();
    const iso = at.toISOString();
    const month = iso.slice(0, 7);
    const service = spend.service ?? {};
    await this.#transaction(undefined, async (db) => {
      await this.#run(
        db,
        `INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached, request_id,
                             service_used, service_limit, service_remaining, service_reset_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          at.getTime(), month, iso.slice(0, 10), spend.guildId, spend.userId, spend.command, spend.endpoint, spend.characters,
          spend.cached ? 1 : 0, orNull(spend.requestId), orNull(service.used), orNull(service.limit), orNull(service.remaining),
          orNull(service.resetAt?.getTime()),
        ],
      );
      if (spend.cached || spend.service === undefined) return;
      // The row lock of quota_state's single row serialises concurrent updates; "used" keeps the month's highest.
      await this.#run(
        db,
        `UPDATE quota_state SET
           service_used = CASE WHEN service_month = $1 THEN greatest(coalesce(service_used, $2), coalesce($2, service_used)) ELSE $2 END,
           service_limit = coalesce($3, CASE WHEN service_month = $1 THEN service_limit END),
           service_remaining = CASE WHEN service_month = $1 AND $4::bigint IS NOT NULL THEN least(coalesce(service_remaining, $4), $4)
                                    WHEN service_month = $1 THEN service_remaining ELSE $4 END,
           service_reset_at = coalesce($5, CASE WHEN service_month = $1 THEN service_reset_at END),
           service_month = $1,
           service_updated_at = $6
         WHERE id = 1`,
        [month, orNull(service.used), orNull(service.limit), orNull(service.remaining), orNull(service.resetAt?.getTime()), at.getTime()],
      );
    });
  }

  async monthTotals(month: string, guildId?: string): Promise<SpendTotals> {
    if (guildId === undefined) return totalsOf(await this.#get(this.#pool, `SELECT ${TOTALS} FROM spends WHERE month = $1`, [month]));
    return totalsOf(await this.#get(this.#pool, `SELECT ${TOTALS} FROM spends WHERE guild_id = $1 AND month = $2`, [guildId, month]));
  }

  async monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown> {
    const where = 'FROM spends WHERE guild_id = $1 AND month = $2';
    return breakdownOf(
      await this.#all(this.#pool, `SELECT day, ${TOTALS} ${where} GROUP BY day ORDER BY day`, [guildId, month]),
      await this.#all(this.#pool, `SELECT user_id, ${TOTALS} ${where} GROUP BY user_id ORDER BY sum(characters) DESC, user_id LIMIT $3`, [guildId, month, topMembers]),
    );
  }

  async memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals> {
    return totalsOf(await this.#get(this.#pool, `SELECT ${TOTALS} FROM spends WHERE guild_id = $1 AND user_id = $2 AND day = $3`, [guildId, userId, day]));
  }

  async lastSpendAt(guildId: string, userId: string): Promise<Date | undefined> {
    return dateOf((await this.#get(this.#pool, 'SELECT max(at) AS at FROM spends WHERE guild_id = $1 AND user_id = $2 AND cached = 0', [guildId, userId]))?.['at']);
  }

  async getQuotaState(): Promise<QuotaState> {
    const row = (await this.#get(this.#pool, 'SELECT * FROM quota_state WHERE id = 1')) ?? {};
    return quotaStateOf(row);
  }

  async markQuotaExhausted(resetAt: Date, at = new Date(), by: QuotaMarkAccount = {}): Promise<void> {
    await this.#run(
      this.#pool,
      `UPDATE quota_state SET exhausted_reset_at = $1, exhausted_marked_at = $2, exhausted_account = $3, exhausted_plan = $4, exhausted_limit = $5
       WHERE id = 1`,
      [resetAt.getTime(), at.getTime(), orNull(by.account), orNull(by.plan), orNull(by.limit)],
    );
  }

  async clearQuotaExhausted(): Promise<boolean> {
    return (await this.#run(
      this.#pool,
      `UPDATE quota_state SET exhausted_reset_at = NULL, exhausted_marked_at = NULL, exhausted_account = NULL, exhausted_plan = NULL,
         exhausted_limit = NULL WHERE id = 1 AND exhausted_marked_at IS NOT NULL`,
    )) > 0;
  }

  async holdBudget(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = holdKeys(at);
    // One advisory lock for every hold: the bot-wide limit spans guilds, and holds are short transactions.
    return this.#transaction('budget-holds', async (db): Promise<BudgetHoldResult> => {
      await this.#run(db, 'DELETE FROM budget_holds WHERE expires_at <= $1', [now]);
      const row = await this.#get(
        db,
        `SELECT
           (SELECT coalesce(sum(characters), 0) FROM spends WHERE cached = 0 AND guild_id = $1 AND user_id = $2 AND day = $4)
         + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE guild_id = $1 AND user_id = $2 AND day = $4) AS member_day,
           (SELECT coalesce(sum(characters), 0) FROM spends WHERE cached = 0 AND guild_id = $1 AND month = $3)
         + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE guild_id = $1 AND month = $3) AS guild_month,
           (SELECT coalesce(sum(characters), 0) FROM spends WHERE cached = 0 AND month = $3)
         + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE month = $3) AS bot_month`,
        [hold.guildId, hold.userId, month, day],
      );
      const refusal = firstRefusal(
        hold.limits,
        { memberDailyChars: num(row?.['member_day']) ?? 0, guildMonthlyChars: num(row?.['guild_month']) ?? 0, botMonthlyChars: num(row?.['bot_month']) ?? 0 },
        hold.characters,
      );
      if (refusal) return refusal;
      const token = randomUUID();
      await this.#run(
        db,
        'INSERT INTO budget_holds (token, guild_id, user_id, month, day, characters, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [token, hold.guildId, hold.userId, month, day, hold.characters, now + hold.ttlMs],
      );
      return { status: 'held', token };
    });
  }

  async releaseBudgetHold(token: string): Promise<void> {
    await this.#run(this.#pool, 'DELETE FROM budget_holds WHERE token = $1', [token]);
  }

  // ---- server budgets ----

  async getGuildBudgets(guildId: string): Promise<GuildBudgetSettings> {
    const row = await this.#get(this.#pool, 'SELECT * FROM guild_budgets WHERE guild_id = $1', [guildId]);
    return guildBudgetsOf(row);
  }

  async setGuildBudgets(
    guildId: string,
    changes: { [K in keyof GuildBudgetSettings]?: number | null },
    updatedBy: string,
  ): Promise<GuildBudgetSettings> {
    const keep = (v: number | null | undefined) => v === undefined;
    await this.#run(
      this.#pool,
      `INSERT INTO guild_budgets AS b (guild_id, monthly_chars, member_daily_chars, member_cooldown_seconds, updated_by, updated_at)
       VALUES ($1, $2, $4, $6, $8, $9)
       ON CONFLICT (guild_id) DO UPDATE SET
         monthly_chars = CASE WHEN $3 THEN b.monthly_chars ELSE excluded.monthly_chars END,
         member_daily_chars = CASE WHEN $5 THEN b.member_daily_chars ELSE excluded.member_daily_chars END,
         member_cooldown_seconds = CASE WHEN $7 THEN b.member_cooldown_seconds ELSE excluded.member_cooldown_seconds END,
         updated_by = excluded.updated_by,
         updated_at = excluded.updated_at`,
      [
        guildId,
        orNull(changes.guildMonthlyChars), keep(changes.guildMonthlyChars),
        orNull(changes.memberDailyChars), keep(changes.memberDailyChars),
        orNull(changes.memberCooldownSeconds), keep(changes.memberCooldownSeconds),
        updatedBy, Date.now(),
      ],
    );
    return this.getGuildBudgets(guildId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}
