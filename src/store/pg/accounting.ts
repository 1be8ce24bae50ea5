import { randomUUID } from 'node:crypto';
import { firstRefusal, holdKeys, type UsedAgainst } from '../budget-holds.ts';
import { TOTALS, breakdownOf, type Row, dateOf, guildBudgetsOf, num, orNull, quotaStateOf, totalsOf } from '../rows.ts';
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
import type { PgDb } from './db.ts';

/** The advisory lock key of a guild's budget holds (exported for the test that holds it from another session). */
export const budgetLockKey = (guildId: string): string => `budget-holds:${guildId}`;
/** Taken, after the guild's, only by a hold checked against a bot-wide limit. */
const BOT_LOCK_KEY = 'budget-holds:bot';

/** Spends, the quota state, server budgets and budget holds on PostgreSQL. */
export class PgAccounting implements AccountingStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  async recordSpend(spend: NewSpend): Promise<void> {
    const at = spend.at ?? new Date();
    const iso = at.toISOString();
    const month = iso.slice(0, 7);
    const service = spend.service ?? {};
    await this.#db.transaction(undefined, async (db) => {
      await db.run(
        `INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached, request_id,
                             service_used, service_limit, service_remaining, service_reset_at, undelivered)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          at.getTime(), month, iso.slice(0, 10), spend.guildId, spend.userId, spend.command, spend.endpoint, spend.characters,
          spend.cached ? 1 : 0, orNull(spend.requestId), orNull(service.used), orNull(service.limit), orNull(service.remaining),
          orNull(service.resetAt?.getTime()), spend.undelivered === true ? 1 : 0,
        ],
      );
      if (spend.cached) return;
      await db.run(
        `INSERT INTO spend_totals_guild_month AS t (guild_id, month, characters) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id, month) DO UPDATE SET characters = t.characters + excluded.characters`,
        [spend.guildId, month, spend.characters],
      );
      await db.run(
        `INSERT INTO spend_totals_member_day AS t (guild_id, user_id, day, characters) VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id, user_id, day) DO UPDATE SET characters = t.characters + excluded.characters`,
        [spend.guildId, spend.userId, iso.slice(0, 10), spend.characters],
      );
      if (spend.service === undefined) return;
      // The row lock of quota_state's single row serialises concurrent updates; "used" keeps the month's highest.
      // Only the figures: whether this spend ends a used-up month is src/quota/used-up-month.ts' decision.
      await db.run(
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
    if (guildId === undefined) return totalsOf(await this.#db.get(`SELECT ${TOTALS} FROM spends WHERE month = $1`, [month]));
    return totalsOf(await this.#db.get(`SELECT ${TOTALS} FROM spends WHERE guild_id = $1 AND month = $2`, [guildId, month]));
  }

  async monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown> {
    const where = 'FROM spends WHERE guild_id = $1 AND month = $2';
    return breakdownOf(
      await this.#db.all(`SELECT day, ${TOTALS} ${where} GROUP BY day ORDER BY day`, [guildId, month]),
      await this.#db.all(`SELECT user_id, ${TOTALS} ${where} GROUP BY user_id ORDER BY sum(characters) DESC, user_id LIMIT $3`, [guildId, month, topMembers]),
    );
  }

  async memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals> {
    return totalsOf(await this.#db.get(`SELECT ${TOTALS} FROM spends WHERE guild_id = $1 AND user_id = $2 AND day = $3`, [guildId, userId, day]));
  }

  async lastSpendAt(guildId: string, userId: string): Promise<Date | undefined> {
    return dateOf((await this.#db.get('SELECT max(at) AS at FROM spends WHERE guild_id = $1 AND user_id = $2 AND cached = 0', [guildId, userId]))?.['at']);
  }

  async getQuotaState(): Promise<QuotaState> {
    return quotaStateOf((await this.#db.get('SELECT * FROM quota_state WHERE id = 1')) ?? {});
  }

  async markQuotaExhausted(resetAt: Date, at = new Date(), by: QuotaMarkAccount = {}): Promise<void> {
    await this.#db.run(
      `UPDATE quota_state SET exhausted_reset_at = $1, exhausted_marked_at = $2, exhausted_account = $3, exhausted_plan = $4, exhausted_limit = $5
       WHERE id = 1`,
      [resetAt.getTime(), at.getTime(), orNull(by.account), orNull(by.plan), orNull(by.limit)],
    );
  }

  async clearQuotaExhausted(): Promise<boolean> {
    return (await this.#db.run(
      `UPDATE quota_state SET exhausted_reset_at = NULL, exhausted_marked_at = NULL, exhausted_account = NULL, exhausted_plan = NULL,
         exhausted_limit = NULL WHERE id = 1 AND exhausted_marked_at IS NOT NULL`,
    )) > 0;
  }

  async holdBudget(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = holdKeys(at);
    const { guildId, userId, limits } = hold;
    // The guild's own advisory lock: holds in different guilds (shards) never wait for each other. A bot-wide
    // limit spans guilds, so a hold that names one also takes the bot's key (always after the guild's: no cycle).
    return this.#db.transaction(budgetLockKey(guildId), async (db): Promise<BudgetHoldResult> => {
      if (limits.botMonthlyChars !== undefined) await db.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [BOT_LOCK_KEY]);
      await db.run('DELETE FROM budget_holds WHERE expires_at <= $1', [now]);
      const n = (row: Row | undefined) => num(row?.['n']) ?? 0;
      const used: UsedAgainst = { memberDailyChars: 0, guildMonthlyChars: 0, botMonthlyChars: 0 };
      if (limits.memberDailyChars !== undefined) {
        used.memberDailyChars = n(await db.get(
          `SELECT coalesce((SELECT characters FROM spend_totals_member_day WHERE guild_id = $1 AND user_id = $2 AND day = $3), 0)
                + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE guild_id = $1 AND user_id = $2 AND day = $3) AS n`,
          [guildId, userId, day],
        ));
      }
      if (limits.guildMonthlyChars !== undefined) {
        used.guildMonthlyChars = n(await db.get(
          `SELECT coalesce((SELECT characters FROM spend_totals_guild_month WHERE guild_id = $1 AND month = $2), 0)
                + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE month = $2 AND guild_id = $1) AS n`,
          [guildId, month],
        ));
      }
      if (limits.botMonthlyChars !== undefined) {
        used.botMonthlyChars = n(await db.get(
          `SELECT (SELECT coalesce(sum(characters), 0) FROM spend_totals_guild_month WHERE month = $1)
                + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE month = $1) AS n`,
          [month],
        ));
      }
      const refusal = firstRefusal(limits, used, hold.characters);
      if (refusal) return refusal;
      const token = randomUUID();
      await db.run(
        'INSERT INTO budget_holds (token, guild_id, user_id, month, day, characters, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [token, guildId, userId, month, day, hold.characters, now + hold.ttlMs],
      );
      return { status: 'held', token };
    });
  }

  async releaseBudgetHold(token: string): Promise<void> {
    await this.#db.run('DELETE FROM budget_holds WHERE token = $1', [token]);
  }

  async renewBudgetHolds(tokens: readonly string[], expiresAt: Date): Promise<void> {
    if (tokens.length === 0) return;
    await this.#db.run('UPDATE budget_holds SET expires_at = $1 WHERE token = ANY($2::text[])', [expiresAt.getTime(), [...tokens]]);
  }

  async getGuildBudgets(guildId: string): Promise<GuildBudgetSettings> {
    return guildBudgetsOf(await this.#db.get('SELECT * FROM guild_budgets WHERE guild_id = $1', [guildId]));
  }

  async setGuildBudgets(
    guildId: string,
    changes: { [K in keyof GuildBudgetSettings]?: number | null },
    updatedBy: string,
  ): Promise<GuildBudgetSettings> {
    const keep = (v: number | null | undefined) => v === undefined;
    await this.#db.run(
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
}
