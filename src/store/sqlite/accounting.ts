import { randomUUID } from 'node:crypto';
import { firstRefusal, holdKeys, type UsedAgainst } from '../budget-holds.ts';
import { TOTALS, breakdownOf, dateOf, guildBudgetsOf, num, orNull, quotaStateOf, totalsOf } from '../rows.ts';
import type {
  AccountingStore,
  BudgetHoldResult,
  GuildBudgetSettings,
  MonthBreakdown,
  NewBudgetHold,
  NewSpend,
  QuotaMarkAccount,
  QuotaState,
  SpendTotals,
} from '../types.ts';
import type { SqliteDb, SqliteRow } from './db.ts';

/** Spends, the quota state, server budgets and budget holds on SQLite. */
export class SqliteAccounting implements AccountingStore {
  readonly #db: SqliteDb;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  async recordSpend(spend: NewSpend): Promise<void> {
    const db = this.#db;
    const at = spend.at ?? new Date();
    const iso = at.toISOString();
    const month = iso.slice(0, 7);
    const service = spend.service ?? {};
    db.transaction(() => {
      db.run(
        `INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached, request_id,
                             service_used, service_limit, service_remaining, service_reset_at, undelivered)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        spend.undelivered === true ? 1 : 0,
      );
      if (spend.cached) return;
      db.run(
        `INSERT INTO spend_totals_guild_month (guild_id, month, characters) VALUES (?, ?, ?)
         ON CONFLICT (guild_id, month) DO UPDATE SET characters = characters + excluded.characters`,
        spend.guildId, month, spend.characters,
      );
      db.run(
        `INSERT INTO spend_totals_member_day (guild_id, user_id, day, characters) VALUES (?, ?, ?, ?)
         ON CONFLICT (guild_id, user_id, day) DO UPDATE SET characters = characters + excluded.characters`,
        spend.guildId, spend.userId, iso.slice(0, 10), spend.characters,
      );
      if (spend.service === undefined) return;
      // Within one month the service's "used" only grows; responses may arrive out of order, so keep the highest.
      // Only the figures: whether this spend ends a used-up month is src/quota/used-up-month.ts' decision.
      db.run(
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
    if (guildId === undefined) return totalsOf(this.#db.get(`SELECT ${TOTALS} FROM spends WHERE month = ?`, month));
    return totalsOf(this.#db.get(`SELECT ${TOTALS} FROM spends WHERE guild_id = ? AND month = ?`, guildId, month));
  }

  async monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown> {
    const where = 'FROM spends WHERE guild_id = ? AND month = ?';
    return breakdownOf(
      this.#db.all(`SELECT day, ${TOTALS} ${where} GROUP BY day ORDER BY day`, guildId, month),
      this.#db.all(`SELECT user_id, ${TOTALS} ${where} GROUP BY user_id ORDER BY sum(characters) DESC, user_id LIMIT ?`, guildId, month, topMembers),
    );
  }

  async memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals> {
    return totalsOf(this.#db.get(`SELECT ${TOTALS} FROM spends WHERE guild_id = ? AND user_id = ? AND day = ?`, guildId, userId, day));
  }

  async lastSpendAt(guildId: string, userId: string): Promise<Date | undefined> {
    // Served by the (guild_id, user_id, …) index: only this member's rows are read.
    return dateOf(this.#db.get('SELECT max(at) AS at FROM spends WHERE guild_id = ? AND user_id = ? AND cached = 0', guildId, userId)?.['at']);
  }

  async getQuotaState(): Promise<QuotaState> {
    return quotaStateOf(this.#db.get('SELECT * FROM quota_state WHERE id = 1') ?? {});
  }

  async markQuotaExhausted(resetAt: Date, at = new Date(), by: QuotaMarkAccount = {}): Promise<void> {
    this.#db.run(
      `UPDATE quota_state SET exhausted_reset_at = ?, exhausted_marked_at = ?, exhausted_account = ?, exhausted_plan = ?, exhausted_limit = ?
       WHERE id = 1`,
      resetAt.getTime(), at.getTime(), orNull(by.account), orNull(by.plan), orNull(by.limit),
    );
  }

  async clearQuotaExhausted(): Promise<boolean> {
    return this.#db.run(
      `UPDATE quota_state SET exhausted_reset_at = NULL, exhausted_marked_at = NULL, exhausted_account = NULL, exhausted_plan = NULL,
         exhausted_limit = NULL WHERE id = 1 AND exhausted_marked_at IS NOT NULL`,
    ) > 0;
  }

  async holdBudget(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const db = this.#db;
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = holdKeys(at);
    const { guildId, userId, limits } = hold;
    const n = (row: SqliteRow | undefined) => num(row?.['n']) ?? 0;
    // BEGIN IMMEDIATE: the write lock is taken before the totals are read, so another connection (process) holding
    // at the same moment waits for this commit and then counts this hold. Only the limits in force are read, each
    // from its running total (one row) plus the few live holds of that guild or member.
    return db.transaction((): BudgetHoldResult => {
      db.run('DELETE FROM budget_holds WHERE expires_at <= ?', now);
      const used: UsedAgainst = { memberDailyChars: 0, guildMonthlyChars: 0, botMonthlyChars: 0 };
      if (limits.memberDailyChars !== undefined) {
        used.memberDailyChars =
          n(db.get('SELECT characters AS n FROM spend_totals_member_day WHERE guild_id = ? AND user_id = ? AND day = ?', guildId, userId, day)) +
          n(db.get('SELECT coalesce(sum(characters), 0) AS n FROM budget_holds WHERE guild_id = ? AND user_id = ? AND day = ?', guildId, userId, day));
      }
      if (limits.guildMonthlyChars !== undefined) {
        used.guildMonthlyChars =
          n(db.get('SELECT characters AS n FROM spend_totals_guild_month WHERE guild_id = ? AND month = ?', guildId, month)) +
          n(db.get('SELECT coalesce(sum(characters), 0) AS n FROM budget_holds WHERE month = ? AND guild_id = ?', month, guildId));
      }
      if (limits.botMonthlyChars !== undefined) {
        // One row per guild that spent this month, never the month's spends.
        used.botMonthlyChars =
          n(db.get('SELECT coalesce(sum(characters), 0) AS n FROM spend_totals_guild_month WHERE month = ?', month)) +
          n(db.get('SELECT coalesce(sum(characters), 0) AS n FROM budget_holds WHERE month = ?', month));
      }
      const refusal = firstRefusal(limits, used, hold.characters);
      if (refusal) return refusal;
      const token = randomUUID();
      db.run(
        'INSERT INTO budget_holds (token, guild_id, user_id, month, day, characters, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        token, guildId, userId, month, day, hold.characters, now + hold.ttlMs,
      );
      return { status: 'held', token };
    });
  }

  async releaseBudgetHold(token: string): Promise<void> {
    this.#db.run('DELETE FROM budget_holds WHERE token = ?', token);
  }

  async renewBudgetHolds(tokens: readonly string[], expiresAt: Date): Promise<void> {
    if (tokens.length === 0) return;
    this.#db.run('UPDATE budget_holds SET expires_at = ? WHERE token IN (SELECT value FROM json_each(?))', expiresAt.getTime(), JSON.stringify(tokens));
  }

  async getGuildBudgets(guildId: string): Promise<GuildBudgetSettings> {
    return guildBudgetsOf(this.#db.get('SELECT * FROM guild_budgets WHERE guild_id = ?', guildId));
  }

  async setGuildBudgets(
    guildId: string,
    changes: { [K in keyof GuildBudgetSettings]?: number | null },
    updatedBy: string,
  ): Promise<GuildBudgetSettings> {
    // undefined keeps a value; null clears it. One statement: the merge is atomic.
    const keep = (v: number | null | undefined) => (v === undefined ? 1 : 0);
    this.#db.run(
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
}
