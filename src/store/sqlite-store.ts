import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from 'node:sqlite';
import { firstRefusal, holdKeys } from './budget-holds.ts';
import { migrate } from './migrations.ts';
import { likeContains, nameKey, tidyName } from './names.ts';
import { TOTALS, breakdownOf, clonedVoiceOf, dateOf, guildBudgetsOf, num, orNull, presetOf, quotaStateOf, settingsOf, totalsOf } from './rows.ts';
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

type Row = Record<string, SQLOutputValue>;

export interface SqliteStoreOptions {
  /** How long a write waits for another connection's lock before failing (SQLITE_BUSY); default 5000 ms. */
  busyTimeoutMs?: number;
}


const limitOf = (options: ListOptions | undefined) => options?.limit ?? -1;

/**
 * The Store on SQLite through Node's built-in node:sqlite (synchronous; every method finishes its statements,
 * transaction included, before it returns, so no transaction is ever held open across an `await`).
 *
 * Durability: WAL journal with synchronous=FULL. WAL lets readers (autocomplete) proceed while a write commits
 * and survives a killed process with either setting; FULL also syncs the WAL at every commit, so a commit that
 * was acknowledged survives a power cut or OS crash too. SayBot writes rarely (admin commands, member defaults,
 * later one spend record per request), so the extra fsync per commit costs nothing noticeable.
 */
export class SqliteStore implements Store {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  #closed = false;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.path = file;
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.#db = new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? 5000, enableForeignKeyConstraints: true });
    try {
      if (file !== ':memory:') {
        const mode = this.#db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'];
        if (mode !== 'wal') throw new Error(`SQLite would not use WAL mode for ${file} (got ${String(mode)})`);
      }
      this.#db.exec('PRAGMA synchronous = FULL');
      migrate(this.#db);
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  /** The schema version the file is at (for tests and the start-up log). */
  get schemaVersion(): number {
    return num(this.#get('SELECT max(version) AS v FROM schema_migrations')?.['v']) ?? 0;
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#statement(sql).get(...params) as Row | undefined;
  }

  #all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#statement(sql).all(...params) as Row[];
  }

  #run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#statement(sql).run(...params).changes);
  }

  /** Runs `work` as one transaction; IMMEDIATE takes the write lock first, so reads inside see what it writes over. */
  #transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
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
    return this.#transaction((): SavePresetResult => {
      const existing = num(this.#get('SELECT id FROM presets WHERE guild_id = ? AND name_key = ?', preset.guildId, key)?.['id']);
      if (existing !== undefined) {
        // UPDATE, not REPLACE: the row keeps its id, so a default pointing at it stays the default.
        this.#run(
          `UPDATE presets SET name = ?, voice = ?, language = ?, tone = ?, exaggeration = ?, format = ?, created_by = ?, created_at = ?
           WHERE id = ?`,
          ...values,
          existing,
        );
        return { status: 'updated', preset: this.#presetById(existing) };
      }
      const max = options.maxPerGuild;
      if (max !== undefined) {
        const count = num(this.#get('SELECT count(*) AS n FROM presets WHERE guild_id = ?', preset.guildId)?.['n']) ?? 0;
        if (count >= max) return { status: 'full', limit: max };
      }
      const id = this.#statement(
        `INSERT INTO presets (name, voice, language, tone, exaggeration, format, created_by, created_at, guild_id, name_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(...values, preset.guildId, key).lastInsertRowid;
      return { status: 'created', preset: this.#presetById(Number(id)) };
    });
  }

  #presetById(id: number): Preset {
    const row = this.#get('SELECT * FROM presets WHERE id = ?', id);
    if (!row) throw new Error(`preset ${id} vanished inside its own transaction`);
    return presetOf(row);
  }

  async getPreset(guildId: string, name: string): Promise<Preset | undefined> {
    const row = this.#get('SELECT * FROM presets WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name));
    return row && presetOf(row);
  }

  async listPresets(guildId: string, options: PresetListOptions = {}): Promise<Preset[]> {
    // One query on the (guild_id, name_key) unique index, in name order.
    return this.#all(
      `SELECT * FROM presets
       WHERE guild_id = ? AND name_key LIKE ? ESCAPE '\\' AND (? IS NULL OR language IS NULL OR language = ?)
       ORDER BY name_key LIMIT ?`,
      guildId,
      likeContains(options.contains ?? ''),
      orNull(options.language),
      orNull(options.language),
      limitOf(options),
    ).map(presetOf);
  }

  async deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined> {
    return this.#transaction(() => {
      const row = this.#get('SELECT * FROM presets WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name));
      if (!row) return undefined;
      const wasDefault = this.#get('SELECT 1 AS yes FROM guild_settings WHERE guild_id = ? AND default_preset_id = ?', guildId, row['id'] ?? null) !== undefined;
      // The foreign key (ON DELETE SET NULL) unsets the default in this same transaction.
      this.#run('DELETE FROM presets WHERE id = ?', row['id'] ?? null);
      return { preset: presetOf(row), wasDefault };
    });
  }

  // ---- guild settings ----

  async setDefaultPreset(guildId: string, name: string | null): Promise<boolean> {
    return this.#transaction(() => {
      let id: number | null = null;
      if (name !== null) {
        const found = num(this.#get('SELECT id FROM presets WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name))?.['id']);
        if (found === undefined) return false;
        id = found;
      }
      this.#run(
        `INSERT INTO guild_settings (guild_id, default_preset_id, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (guild_id) DO UPDATE SET default_preset_id = excluded.default_preset_id, updated_at = excluded.updated_at`,
        guildId,
        id,
        Date.now(),
      );
      return true;
    });
  }

  async getDefaultPreset(guildId: string): Promise<Preset | undefined> {
    const row = this.#get(
      'SELECT p.* FROM guild_settings g JOIN presets p ON p.id = g.default_preset_id WHERE g.guild_id = ?',
      guildId,
    );
    return row && presetOf(row);
  }

  // ---- member defaults ----

  async getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined> {
    const row = this.#get('SELECT * FROM member_defaults WHERE guild_id = ? AND user_id = ?', guildId, userId);
    return row && { ...settingsOf(row), guildId, userId, updatedAt: new Date(num(row['updated_at']) ?? 0) };
  }

  async setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults> {
    // One statement, so the merge is atomic without an explicit transaction.
    this.#run(
      `INSERT INTO member_defaults (guild_id, user_id, voice, language, tone, exaggeration, format, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, user_id) DO UPDATE SET
         voice = coalesce(excluded.voice, voice),
         language = coalesce(excluded.language, language),
         tone = coalesce(excluded.tone, tone),
         exaggeration = coalesce(excluded.exaggeration, exaggeration),
         format = coalesce(excluded.format, format),
         updated_at = excluded.updated_at`,
      guildId,
      userId,
      orNull(settings.voice),
      orNull(settings.language),
      orNull(settings.tone),
      orNull(settings.exaggeration),
      orNull(settings.format),
      Date.now(),
    );
    const stored = await this.getMemberDefaults(guildId, userId);
    if (!stored) throw new Error('member defaults vanished right after being written');
    return stored;
  }

  async clearMemberDefaults(guildId: string, userId: string): Promise<boolean> {
    return this.#run('DELETE FROM member_defaults WHERE guild_id = ? AND user_id = ?', guildId, userId) > 0;
  }

  // ---- voice library ----

  /** Voices in the guild plus names others hold for a clone under way (not `ownToken`'s). */
  #libraryCount(guildId: string, now: number, ownToken: string | null): number {
    const voices = num(this.#get('SELECT count(*) AS n FROM voice_library WHERE guild_id = ?', guildId)?.['n']) ?? 0;
    const held = num(
      this.#get('SELECT count(*) AS n FROM clone_name_reservations WHERE guild_id = ? AND expires_at > ? AND token IS NOT ?', guildId, now, ownToken)?.['n'],
    ) ?? 0;
    return voices + held;
  }

  async reserveClonedVoiceName(reservation: NewNameReservation): Promise<NameReservationResult> {
    const key = nameKey(tidyName(reservation.name));
    const now = (reservation.now ?? new Date()).getTime();
    return this.#transaction((): NameReservationResult => {
      this.#run('DELETE FROM clone_name_reservations WHERE expires_at <= ?', now);
      if (this.#get('SELECT 1 AS x FROM voice_library WHERE guild_id = ? AND name_key = ?', reservation.guildId, key)) return { status: 'name-taken' };
      if (this.#get('SELECT 1 AS x FROM clone_name_reservations WHERE guild_id = ? AND name_key = ?', reservation.guildId, key)) return { status: 'name-taken' };
      const max = reservation.maxPerGuild;
      if (max !== undefined && this.#libraryCount(reservation.guildId, now, null) >= max) return { status: 'full', limit: max };
      const token = randomUUID();
      this.#run(
        'INSERT INTO clone_name_reservations (guild_id, name_key, token, reserved_by, expires_at) VALUES (?, ?, ?, ?, ?)',
        reservation.guildId, key, token, reservation.reservedBy, now + reservation.ttlMs,
      );
      return { status: 'reserved', token };
    });
  }

  async releaseClonedVoiceName(token: string): Promise<void> {
    this.#run('DELETE FROM clone_name_reservations WHERE token = ?', token);
  }

  async addClonedVoice(voice: NewClonedVoice, options: { maxPerGuild?: number; reservation?: string } = {}): Promise<AddClonedVoiceResult> {
    const name = tidyName(voice.name);
    const key = nameKey(name);
    const own = options.reservation ?? null;
    return this.#transaction((): AddClonedVoiceResult => {
      const now = Date.now();
      const existing = this.#get('SELECT * FROM voice_library WHERE guild_id = ? AND name_key = ?', voice.guildId, key);
      if (existing) return { status: 'name-taken', existing: clonedVoiceOf(existing) };
      const held = this.#get(
        'SELECT reserved_by FROM clone_name_reservations WHERE guild_id = ? AND name_key = ? AND expires_at > ? AND token IS NOT ?',
        voice.guildId, key, now, own,
      );
      if (held) {
        // Another /clone holds the name: the voice it will add is not there yet, so describe the holder.
        const holder = { guildId: voice.guildId, name, voiceId: '', createdBy: String(held['reserved_by']), createdAt: new Date(now), clipSeconds: 0 };
        return { status: 'name-taken', existing: holder };
      }
      const max = options.maxPerGuild;
      if (max !== undefined && this.#libraryCount(voice.guildId, now, own) >= max) return { status: 'full', limit: max };
      if (own !== null) this.#run('DELETE FROM clone_name_reservations WHERE token = ?', own);
      this.#run(
        `INSERT INTO voice_library (guild_id, voice_id, name, name_key, created_by, created_at, clip_seconds)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        voice.guildId,
        voice.voiceId,
        name,
        key,
        voice.createdBy,
        (voice.createdAt ?? new Date()).getTime(),
        voice.clipSeconds,
      );
      const row = this.#get('SELECT * FROM voice_library WHERE guild_id = ? AND voice_id = ?', voice.guildId, voice.voiceId);
      if (!row) throw new Error('cloned voice vanished inside its own transaction');
      return { status: 'added', voice: clonedVoiceOf(row) };
    });
  }

  async getClonedVoice(guildId: string, voiceId: string): Promise<ClonedVoice | undefined> {
    const row = this.#get('SELECT * FROM voice_library WHERE guild_id = ? AND voice_id = ?', guildId, voiceId);
    return row && clonedVoiceOf(row);
  }

  async findClonedVoiceByName(guildId: string, name: string): Promise<ClonedVoice | undefined> {
    const row = this.#get('SELECT * FROM voice_library WHERE guild_id = ? AND name_key = ?', guildId, nameKey(name));
    return row && clonedVoiceOf(row);
  }

  async listClonedVoices(guildId: string, options: ListOptions = {}): Promise<ClonedVoice[]> {
    const pattern = likeContains(options.contains ?? '');
    return this.#all(
      `SELECT * FROM voice_library WHERE guild_id = ?1 AND (name_key LIKE ?2 ESCAPE '\\' OR lower(voice_id) LIKE ?2 ESCAPE '\\')
       ORDER BY name_key LIMIT ?3`,
      guildId,
      pattern,
      limitOf(options),
    ).map(clonedVoiceOf);
  }

  async deleteClonedVoice(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined> {
    return this.#transaction(() => {
      const row = this.#get('SELECT * FROM voice_library WHERE guild_id = ? AND voice_id = ?', guildId, voiceId);
      if (!row) return undefined;
      const presets = this.#all('SELECT name FROM presets WHERE guild_id = ? AND voice = ? ORDER BY name_key', guildId, voiceId);
      this.#run('DELETE FROM presets WHERE guild_id = ? AND voice = ?', guildId, voiceId);
      const cleared = this.#run('UPDATE member_defaults SET voice = NULL WHERE guild_id = ? AND voice = ?', guildId, voiceId);
      this.#run('DELETE FROM voice_library WHERE guild_id = ? AND voice_id = ?', guildId, voiceId);
      return { voice: clonedVoiceOf(row), presetsRemoved: presets.map((p) => String(p['name'])), memberDefaultsCleared: cleared };
    });
  }

  // ---- quota accounting ----

  async recordSpend(spend: NewSpend): Promise<void> {
    const at = spend.at ?? new Date();
    const iso = at.toISOString();
    const month = iso.slice(0, 7);
    const service = spend.service ?? {};
    this.#transaction(() => {
      this.#run(
        `INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached, request_id,
                             service_used, service_limit, service_remaining, service_reset_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        at.getTime(),
        month,
        iso.slice(0, 10),
        spend.guildId,
        spend.userId,
        spend.command,
        spend.endpoint,
        spend.characters,
        spend.cached ? 1 : 0,
        orNull(spend.requestId),
        orNull(service.used),
        orNull(service.limit),
        orNull(service.remaining),
        orNull(service.resetAt?.getTime()),
      );
      if (spend.cached || spend.service === undefined) return;
      // Within one month the service's "used" only grows; responses may arrive out of order, so keep the highest.
      this.#run(
        `UPDATE quota_state SET
           service_used = CASE WHEN service_month = ?1 THEN max(coalesce(service_used, ?2), coalesce(?2, service_used)) ELSE ?2 END,
           service_limit = coalesce(?3, CASE WHEN service_month = ?1 THEN service_limit END),
           service_remaining = CASE WHEN service_month = ?1 AND ?4 IS NOT NULL THEN min(coalesce(service_remaining, ?4), ?4)
                                    WHEN service_month = ?1 THEN service_remaining ELSE ?4 END,
           service_reset_at = coalesce(?5, CASE WHEN service_month = ?1 THEN service_reset_at END),
           service_month = ?1,
           service_updated_at = ?6
         WHERE id = 1`,
        month,
        orNull(service.used),
        orNull(service.limit),
        orNull(service.remaining),
        orNull(service.resetAt?.getTime()),
        at.getTime(),
      );
    });
  }

  async monthTotals(month: string, guildId?: string): Promise<SpendTotals> {
    if (guildId === undefined) return totalsOf(this.#get(`SELECT ${TOTALS} FROM spends WHERE month = ?`, month));
    return totalsOf(this.#get(`SELECT ${TOTALS} FROM spends WHERE guild_id = ? AND month = ?`, guildId, month));
  }

  async monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown> {
    const where = 'FROM spends WHERE guild_id = ? AND month = ?';
    return breakdownOf(
      this.#all(`SELECT day, ${TOTALS} ${where} GROUP BY day ORDER BY day`, guildId, month),
      this.#all(`SELECT user_id, ${TOTALS} ${where} GROUP BY user_id ORDER BY sum(characters) DESC, user_id LIMIT ?`, guildId, month, topMembers),
    );
  }

  async memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals> {
    return totalsOf(this.#get(`SELECT ${TOTALS} FROM spends WHERE guild_id = ? AND user_id = ? AND day = ?`, guildId, userId, day));
  }

  async lastSpendAt(guildId: string, userId: string): Promise<Date | undefined> {
    // Served by the (guild_id, user_id, …) index: only this member's rows are read.
    return dateOf(this.#get('SELECT max(at) AS at FROM spends WHERE guild_id = ? AND user_id = ? AND cached = 0', guildId, userId)?.['at']);
  }

  async getQuotaState(): Promise<QuotaState> {
    const row = this.#get('SELECT * FROM quota_state WHERE id = 1') ?? {};
    return quotaStateOf(row);
  }

  async markQuotaExhausted(resetAt: Date, at = new Date(), by: QuotaMarkAccount = {}): Promise<void> {
    this.#run(
      `UPDATE quota_state SET exhausted_reset_at = ?, exhausted_marked_at = ?, exhausted_account = ?, exhausted_plan = ?, exhausted_limit = ?
       WHERE id = 1`,
      resetAt.getTime(), at.getTime(), orNull(by.account), orNull(by.plan), orNull(by.limit),
    );
  }

  async clearQuotaExhausted(): Promise<boolean> {
    return this.#run(
      `UPDATE quota_state SET exhausted_reset_at = NULL, exhausted_marked_at = NULL, exhausted_account = NULL, exhausted_plan = NULL,
         exhausted_limit = NULL WHERE id = 1 AND exhausted_marked_at IS NOT NULL`,
    ) > 0;
  }

  async holdBudget(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = holdKeys(at);
    // BEGIN IMMEDIATE: the write lock is taken before the sums are read, so another connection (process) holding
    // at the same moment waits for this commit and then counts this hold.
    return this.#transaction((): BudgetHoldResult => {
      this.#run('DELETE FROM budget_holds WHERE expires_at <= ?', now);
      const spent = (where: string, ...params: SQLInputValue[]) =>
        (num(this.#get(`SELECT coalesce(sum(characters), 0) AS n FROM spends WHERE cached = 0 AND ${where}`, ...params)?.['n']) ?? 0) +
        (num(this.#get(`SELECT coalesce(sum(characters), 0) AS n FROM budget_holds WHERE ${where}`, ...params)?.['n']) ?? 0);
      const refusal = firstRefusal(
        hold.limits,
        {
          memberDailyChars: spent('guild_id = ? AND user_id = ? AND day = ?', hold.guildId, hold.userId, day),
          guildMonthlyChars: spent('guild_id = ? AND month = ?', hold.guildId, month),
          botMonthlyChars: spent('month = ?', month),
        },
        hold.characters,
      );
      if (refusal) return refusal;
      const token = randomUUID();
      this.#run(
        'INSERT INTO budget_holds (token, guild_id, user_id, month, day, characters, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        token, hold.guildId, hold.userId, month, day, hold.characters, now + hold.ttlMs,
      );
      return { status: 'held', token };
    });
  }

  async releaseBudgetHold(token: string): Promise<void> {
    this.#run('DELETE FROM budget_holds WHERE token = ?', token);
  }

  // ---- server budgets ----

  async getGuildBudgets(guildId: string): Promise<GuildBudgetSettings> {
    const row = this.#get('SELECT * FROM guild_budgets WHERE guild_id = ?', guildId);
    return guildBudgetsOf(row);
  }

  async setGuildBudgets(
    guildId: string,
    changes: { [K in keyof GuildBudgetSettings]?: number | null },
    updatedBy: string,
  ): Promise<GuildBudgetSettings> {
    // undefined keeps a value; null clears it. One statement: the merge is atomic.
    const keep = (v: number | null | undefined) => (v === undefined ? 1 : 0);
    this.#run(
      `INSERT INTO guild_budgets (guild_id, monthly_chars, member_daily_chars, member_cooldown_seconds, updated_by, updated_at)
       VALUES (?1, ?2, ?4, ?6, ?8, ?9)
       ON CONFLICT (guild_id) DO UPDATE SET
         monthly_chars = CASE WHEN ?3 THEN monthly_chars ELSE excluded.monthly_chars END,
         member_daily_chars = CASE WHEN ?5 THEN member_daily_chars ELSE excluded.member_daily_chars END,
         member_cooldown_seconds = CASE WHEN ?7 THEN member_cooldown_seconds ELSE excluded.member_cooldown_seconds END,
         updated_by = excluded.updated_by,
         updated_at = excluded.updated_at`,
      guildId,
      orNull(changes.guildMonthlyChars),
      keep(changes.guildMonthlyChars),
      orNull(changes.memberDailyChars),
      keep(changes.memberDailyChars),
      orNull(changes.memberCooldownSeconds),
      keep(changes.memberCooldownSeconds),
      updatedBy,
      Date.now(),
    );
    return this.getGuildBudgets(guildId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#statements.clear();
    this.#db.close();
  }
}
