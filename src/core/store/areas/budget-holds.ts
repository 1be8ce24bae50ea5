// Server budgets and the holds counted against them by every process (`store.budgets`): the check and the hold in
// one transaction. Which limits apply is src/core/quota/money.ts' business.
import { randomUUID } from 'node:crypto';
import type { BudgetHoldLimits, BudgetHoldResult, GuildBudgetSettings, NewBudgetHold } from '../quota-store.ts';
import { Area, given, present, type Db } from '../dialect.ts';
import { guildMonthIds, memberDayIds, periodKeys, pseudonymKey } from './forget-carry-over.ts';

/** The advisory lock key of a guild's budget holds (exported for the test that holds it from another session). */
export const budgetLockKey = (guildId: string): string => `budget-holds:${guildId}`;
/** Taken, after the guild's, only by a hold checked against a bot-wide limit. */
const BOT_LOCK_KEY = 'budget-holds:bot';

/** Which rows a limit counts: of the running totals `spent`, and of the live holds, by guild, member and period. */
interface Counted {
  spent: 'spend_totals_member_day' | 'spend_totals_guild_month';
  guilds?: string[];
  members?: string[];
  period: { day: string } | { month: string };
}

/** Spent (a running total) plus held, as one row of two sums (none: 0). */
async function usedOf(trx: Db, { spent, guilds, members, period }: Counted): Promise<number> {
  const [column, value] = 'day' in period ? (['day', period.day] as const) : (['month', period.month] as const);
  const sum = (table: Counted['spent'] | 'budget_holds') => {
    let rows = trx.selectFrom(table).where(column, '=', value);
    if (guilds !== undefined) rows = rows.where('guild_id', 'in', guilds);
    if (members !== undefined) rows = rows.where('user_id', 'in', members);
    return rows.select((e) => e.fn.sum<number>('characters').as('n'));
  };
  const row = await trx
    .selectNoFrom([sum(spent).as('spent'), sum('budget_holds').as('held')])
    .executeTakeFirstOrThrow();
  return Number(row.spent ?? 0) + Number(row.held ?? 0);
}

/** Server budgets (guild_budgets), and holds counted against them by every process (budget_holds): `store.budgets`. */
export class BudgetArea extends Area {
  /** Only the limits the server set. */
  async get(guildId: string): Promise<GuildBudgetSettings> {
    const row = await this.d.db
      .selectFrom('guild_budgets')
      .selectAll()
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return present({
      guildMonthlyChars: row?.monthly_chars,
      memberDailyChars: row?.member_daily_chars,
      memberCooldownSeconds: row?.member_cooldown_seconds,
    });
  }

  /** Sets the given fields (null clears one; undefined leaves it); returns the server's budgets after the change. */
  async set(
    guildId: string,
    changes: { [K in keyof GuildBudgetSettings]?: number | null },
    updatedBy: string,
  ): Promise<GuildBudgetSettings> {
    const limits = {
      monthly_chars: changes.guildMonthlyChars,
      member_daily_chars: changes.memberDailyChars,
      member_cooldown_seconds: changes.memberCooldownSeconds,
    };
    // undefined keeps a value; null clears it. One statement: the merge is atomic.
    const changed = { ...given(limits), updated_by: updatedBy, updated_at: Date.now() };
    await this.d.db
      .insertInto('guild_budgets')
      .values({ guild_id: guildId, ...changed })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(changed))
      .execute();
    return this.get(guildId);
  }

  /**
   * Holds `characters` when every given limit has room for them beyond what was spent plus live holds (any process):
   * check and hold in one transaction, serialised per guild (and bot-wide when a bot limit is given), each limit read
   * from its running total.
   */
  async hold(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = periodKeys(at);
    const { guildId, userId, limits } = hold;
    // What a deletion carried of this member's day and this guild's month still counts (forget-carry-over.ts).
    const key = await pseudonymKey(this.d);
    const member = memberDayIds(key, guildId, userId, day);
    const guilds = guildMonthIds(key, guildId, month);
    // SQLite: the write lock is taken before reading, so a concurrent hold waits and counts this one. PostgreSQL: the
    // guild's advisory lock (shards never wait on each other), then the bot's for a bot-wide limit (always after: no
    // cycle).
    return this.d.transaction(budgetLockKey(guildId), async (trx: Db): Promise<BudgetHoldResult> => {
      if (limits.botMonthlyChars !== undefined) await this.d.lock(trx, BOT_LOCK_KEY);
      await trx.deleteFrom('budget_holds').where('expires_at', '<=', now).execute();
      // In this order: the first limit the characters would pass is the refusal.
      const counted: Record<keyof BudgetHoldLimits, Counted> = {
        memberDailyChars: { spent: 'spend_totals_member_day', ...member, period: { day } },
        guildMonthlyChars: { spent: 'spend_totals_guild_month', guilds, period: { month } },
        // One row per guild that spent this month, never the month's spends.
        botMonthlyChars: { spent: 'spend_totals_guild_month', period: { month } },
      };
      const needed = hold.characters;
      for (const budget of Object.keys(counted) as (keyof BudgetHoldLimits)[]) {
        const limit = limits[budget];
        if (limit === undefined) continue;
        const used = await usedOf(trx, counted[budget]);
        if (used + needed > limit) return { status: 'refused', budget, limit, used, needed };
      }
      const token = randomUUID();
      await trx
        .insertInto('budget_holds')
        .values({
          token,
          guild_id: guildId,
          user_id: userId,
          month,
          day,
          characters: needed,
          expires_at: now + hold.ttlMs,
          owner: hold.owner ?? null,
        })
        .execute();
      return { status: 'held', token };
    });
  }

  /** Ends a hold (its spend was recorded, or it will spend nothing); unknown tokens are ignored. */
  async release(token: string): Promise<void> {
    await this.d.db.deleteFrom('budget_holds').where('token', '=', token).execute();
  }

  /** Releases every hold a dead process (`owner`) left; returns how many. */
  async releaseLeftBy(owner: string): Promise<number> {
    const result = await this.d.db.deleteFrom('budget_holds').where('owner', '=', owner).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Moves live holds' expiry to `expiresAt`: a request renews its hold while it lives, so only a crash's expires. */
  async renew(tokens: readonly string[], expiresAt: Date): Promise<void> {
    // In slices: a statement's parameters are bounded (SQLite: 32766).
    for (let i = 0; i < tokens.length; i += 1000) {
      await this.d.db
        .updateTable('budget_holds')
        .set({ expires_at: expiresAt.getTime() })
        .where('token', 'in', tokens.slice(i, i + 1000))
        .execute();
    }
  }
}
