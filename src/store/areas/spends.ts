// Quota accounting is three areas: spends and their totals, the bot-wide quota state, server budgets with budget
// holds. They keep figures and marks only: what a 429 or a spend means (marking or clearing the used-up month) is
// decided in src/quota/, never in SQL.
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type {
  BudgetHoldLimits, BudgetHoldResult, GuildBudgetSettings, MonthBreakdown, NewBudgetHold, NewSpend, QuotaMarkAccount, QuotaState, SpendTotals,
} from '../quota-store.ts';
import { Area, type Db } from '../dialect.ts';
import { guildMonthPseudonym, memberDayPseudonym, periodKeys, pseudonymKey } from '../period-pseudonym.ts';
import { forgottenMarker } from '../forget-plan.ts';
import { dateOf, given, orNull, present } from '../rows.ts';
import type { Database } from '../schema.ts';

/** Spent and saved sums as the drivers give them (PostgreSQL's NUMERIC parsed; none: 0). */
const totalsOf = (row: { spent: unknown; saved: unknown } | undefined): SpendTotals => ({ spent: Number(row?.spent ?? 0), saved: Number(row?.saved ?? 0) });

/** Characters spent (not cached) and saved (cached) among the rows selected. */
const totals = (eb: ExpressionBuilder<Database, 'spends'>) =>
  ([0, 1] as const).map((cached) =>
    eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('cached', '=', cached).then(eb.ref('characters')).end()), eb.lit(0)).as(cached === 0 ? 'spent' : 'saved'));

/** Spends and the running totals budget holds read, kept in the spend's transaction: `store.spends`. */
export class SpendArea extends Area {
  /** Records a spend; a spend the service accepted also updates its usage figures (the mark is Accounting's business). */
  async record(spend: NewSpend): Promise<void> {
    const at = spend.at ?? new Date();
    const { month, day } = periodKeys(at);
    const { characters } = spend;
    const { guild_id, user_id, guildTotal, memberTotal } = await this.#recordedAs(spend, month, day);
    const service = spend.service ?? {};
    const [used, limit, remaining, resetAt] = [orNull(service.used), orNull(service.limit), orNull(service.remaining), orNull(service.resetAt?.getTime())];
    await this.d.transaction(undefined, async (trx) => {
      await trx.insertInto('spends').values({
        at: at.getTime(), month, day, guild_id, user_id, command: spend.command, endpoint: spend.endpoint, characters, cached: spend.cached ? 1 : 0,
        request_id: orNull(spend.requestId), service_used: used, service_limit: limit, service_remaining: remaining, service_reset_at: resetAt,
        undelivered: spend.undelivered === true ? 1 : 0,
      }).execute();
      if (spend.cached) return;
      await trx.insertInto('spend_totals_guild_month').values({ guild_id: guildTotal, month, characters })
        .onConflict((oc) => oc.columns(['guild_id', 'month']).doUpdateSet((eb) => ({ characters: eb('spend_totals_guild_month.characters', '+', eb.ref('excluded.characters')) })))
        .execute();
      if (memberTotal !== undefined) {
        await trx.insertInto('spend_totals_member_day').values({ guild_id: spend.guildId, user_id: memberTotal, day, characters })
          .onConflict((oc) => oc.columns(['guild_id', 'user_id', 'day']).doUpdateSet((eb) => ({ characters: eb('spend_totals_member_day.characters', '+', eb.ref('excluded.characters')) })))
          .execute();
      }
      if (spend.service === undefined) return;
      // Within one month the service's "used" only grows and "remaining" only shrinks; responses may arrive out of
      // order, so keep the highest and the lowest (the row lock of the single row serialises concurrent updates).
      // Only the figures: whether this spend ends a used-up month is src/quota/used-up-month.ts' decision.
      const { greatest, least } = this.d;
      await trx.updateTable('quota_state').set((eb) => {
        const sameMonth = eb('service_month', '=', month);
        /** The month's own value, or NULL in a new month. */
        const kept = (column: 'service_used' | 'service_limit' | 'service_remaining' | 'service_reset_at') => eb.case().when(sameMonth).then(eb.ref(column)).end();
        const extreme = (fn: string, column: 'service_used' | 'service_remaining', value: number) =>
          eb.case().when(sameMonth).then(eb.fn<number>(fn, [eb.fn.coalesce(column, eb.val(value)), eb.val(value)])).else(eb.val(value)).end();
        return {
          service_used: used === null ? kept('service_used') : extreme(greatest, 'service_used', used),
          service_limit: limit ?? kept('service_limit'),
          service_remaining: remaining === null ? kept('service_remaining') : extreme(least, 'service_remaining', remaining),
          service_reset_at: resetAt ?? kept('service_reset_at'),
          service_month: month,
          service_updated_at: at.getTime(),
        };
      }).where('id', '=', 1).execute();
    });
  }

  /**
   * The IDs a spend is written under: its own, or, for a request whose member or guild was forgotten meanwhile, a
   * random marker in `spends` and the period's pseudonyms in the running totals, as the deletion left them (a
   * forgotten guild's member days were deleted, so none is kept).
   */
  async #recordedAs(spend: NewSpend, month: string, day: string): Promise<{ guild_id: string; user_id: string; guildTotal: string; memberTotal: string | undefined }> {
    const { guildId, userId, forgotten } = spend;
    if (forgotten === undefined) return { guild_id: guildId, user_id: userId, guildTotal: guildId, memberTotal: userId };
    const key = await pseudonymKey(this.d);
    const marker = forgottenMarker();
    if (forgotten === 'guild') return { guild_id: marker, user_id: marker, guildTotal: guildMonthPseudonym(key, guildId, month), memberTotal: undefined };
    return { guild_id: guildId, user_id: marker, guildTotal: guildId, memberTotal: memberDayPseudonym(key, guildId, userId, day) };
  }

  /** This month's totals ('YYYY-MM'), for one guild or (no guild) the whole bot. */
  async monthTotals(month: string, guildId?: string): Promise<SpendTotals> {
    const query = this.d.db.selectFrom('spends').select(totals).where('month', '=', month);
    return totalsOf(await (guildId === undefined ? query : query.where('guild_id', '=', guildId)).executeTakeFirst());
  }

  /** One guild's month ('YYYY-MM') per UTC day, and its `topMembers` members with the most characters. */
  async monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown> {
    const spends = this.d.db.selectFrom('spends').where('guild_id', '=', guildId).where('month', '=', month);
    const days = await spends.select('day').select(totals).groupBy('day').orderBy('day').execute();
    const members = await spends.select('user_id').select(totals).groupBy('user_id')
      .orderBy((eb) => eb.fn.sum('characters'), 'desc').orderBy('user_id').limit(topMembers).execute();
    return {
      days: days.map((row) => ({ day: row.day, ...totalsOf(row) })),
      members: members.map((row) => ({ userId: row.user_id, ...totalsOf(row) })),
    };
  }

  /** One member's totals in one guild on one UTC day ('YYYY-MM-DD'). */
  async memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals> {
    return totalsOf(await this.d.db.selectFrom('spends').select(totals)
      .where('guild_id', '=', guildId).where('user_id', '=', userId).where('day', '=', day).executeTakeFirst());
  }

  /** When the member last spent characters in the guild (cache hits not counted). */
  async lastSpendAt(guildId: string, userId: string): Promise<Date | undefined> {
    // Served by the (guild_id, user_id, …) index: only this member's rows are read.
    const row = await this.d.db.selectFrom('spends').select((eb) => eb.fn.max('at').as('at'))
      .where('guild_id', '=', guildId).where('user_id', '=', userId).where('cached', '=', 0).executeTakeFirst();
    return row?.at == null ? undefined : new Date(Number(row.at));
  }
}

const NO_MARK = { exhausted_reset_at: null, exhausted_marked_at: null, exhausted_account: null, exhausted_plan: null, exhausted_limit: null };

/** The bot-wide quota state (one row of quota_state): `store.quota`. */
export class QuotaArea extends Area {
  async get(): Promise<QuotaState> {
    const row = await this.d.db.selectFrom('quota_state').selectAll().where('id', '=', 1).executeTakeFirst();
    const state: QuotaState = {};
    if (row?.exhausted_reset_at != null && row.exhausted_marked_at !== null) {
      const { exhausted_account: account, exhausted_plan: plan, exhausted_limit: limit } = row;
      state.exhausted = { resetAt: new Date(row.exhausted_reset_at), markedAt: new Date(row.exhausted_marked_at), ...present({ account, plan, limit }) };
    }
    if (row?.service_month != null && row.service_updated_at !== null) {
      const usage = present({ limit: row.service_limit, used: row.service_used, remaining: row.service_remaining, resetAt: dateOf(row.service_reset_at) });
      state.service = { ...usage, month: row.service_month, updatedAt: new Date(row.service_updated_at) };
    }
    return state;
  }

  /** Marks the monthly quota used up until `resetAt` (or until Accounting clears it), under `by`. */
  async markExhausted(resetAt: Date, at = new Date(), by: QuotaMarkAccount = {}): Promise<void> {
    await this.d.db.updateTable('quota_state').set({
      exhausted_reset_at: resetAt.getTime(), exhausted_marked_at: at.getTime(),
      exhausted_account: orNull(by.account), exhausted_plan: orNull(by.plan), exhausted_limit: orNull(by.limit),
    }).where('id', '=', 1).execute();
  }

  /** Removes the mark; true when there was one. */
  async clearExhausted(): Promise<boolean> {
    const result = await this.d.db.updateTable('quota_state').set(NO_MARK).where('id', '=', 1).where('exhausted_marked_at', 'is not', null).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

/** The advisory lock key of a guild's budget holds (exported for the test that holds it from another session). */
export const budgetLockKey = (guildId: string): string => `budget-holds:${guildId}`;
/** Taken, after the guild's, only by a hold checked against a bot-wide limit. */
const BOT_LOCK_KEY = 'budget-holds:bot';

/** The first limit `needed` more characters would pass, or undefined when all have room. */
function firstRefusal(limits: BudgetHoldLimits, used: Record<keyof BudgetHoldLimits, number>, needed: number): BudgetHoldResult | undefined {
  for (const budget of ['memberDailyChars', 'guildMonthlyChars', 'botMonthlyChars'] as const) {
    const limit = limits[budget];
    if (limit !== undefined && used[budget] + needed > limit) return { status: 'refused', budget, limit, used: used[budget], needed };
  }
  return undefined;
}

/** Spent (a running total) plus held, as one row of two sums (none: 0). */
const usedOf = async (row: Promise<{ spent: unknown; held: unknown }>): Promise<number> => {
  const { spent, held } = await row;
  return Number(spent ?? 0) + Number(held ?? 0);
};

/** Server budgets (guild_budgets), and holds counted against them by every process (budget_holds): `store.budgets`. */
export class BudgetArea extends Area {
  /** Only the limits the server set. */
  async get(guildId: string): Promise<GuildBudgetSettings> {
    const row = await this.d.db.selectFrom('guild_budgets').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
    return present({ guildMonthlyChars: row?.monthly_chars, memberDailyChars: row?.member_daily_chars, memberCooldownSeconds: row?.member_cooldown_seconds });
  }

  /** Sets the given fields (null clears one; undefined leaves it); returns the server's budgets after the change. */
  async set(guildId: string, changes: { [K in keyof GuildBudgetSettings]?: number | null }, updatedBy: string): Promise<GuildBudgetSettings> {
    const limits = { monthly_chars: changes.guildMonthlyChars, member_daily_chars: changes.memberDailyChars, member_cooldown_seconds: changes.memberCooldownSeconds };
    // undefined keeps a value; null clears it. One statement: the merge is atomic.
    const changed = { ...given(limits), updated_by: updatedBy, updated_at: Date.now() };
    await this.d.db.insertInto('guild_budgets').values({ guild_id: guildId, ...changed })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet(changed)).execute();
    return this.get(guildId);
  }

  /**
   * Checks `characters` against the limits counting what was spent plus every live hold (from any process) and,
   * when all have room, holds them: check and hold are one transaction, serialised across processes per guild
   * (a bot-wide limit, when given, across all guilds). Only the limits given are read, each from a running
   * total kept with the spends (one row), never a sum over the month's spends.
   */
  async hold(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = periodKeys(at);
    const { guildId, userId, limits } = hold;
    // What a deletion on request left of this member's day and this guild's month still counts (period-pseudonym.ts),
    // its holds still in flight included.
    const key = await pseudonymKey(this.d);
    const members = [userId, memberDayPseudonym(key, guildId, userId, day)];
    const guilds = [guildId, guildMonthPseudonym(key, guildId, month)];
    // SQLite: the write lock is taken before the totals are read, so another process holding at the same moment
    // waits for this commit and then counts this hold. PostgreSQL: the guild's own advisory lock, so holds in
    // different guilds (shards) never wait for each other; a bot-wide limit spans guilds, so a hold that names one
    // also takes the bot's key (always after the guild's: no cycle). Only the limits in force are read, each from
    // its running total (one row) plus the few live holds of that guild or member.
    return this.d.transaction(budgetLockKey(guildId), async (trx: Db): Promise<BudgetHoldResult> => {
      if (limits.botMonthlyChars !== undefined) await this.d.lock(trx, BOT_LOCK_KEY);
      await trx.deleteFrom('budget_holds').where('expires_at', '<=', now).execute();
      const used = { memberDailyChars: 0, guildMonthlyChars: 0, botMonthlyChars: 0 };
      if (limits.memberDailyChars !== undefined) {
        used.memberDailyChars = await usedOf(trx.selectNoFrom((eb) => [
          eb.selectFrom('spend_totals_member_day').select((e) => e.fn.sum<number>('characters').as('n')).where('guild_id', '=', guildId).where('user_id', 'in', members).where('day', '=', day).as('spent'),
          eb.selectFrom('budget_holds').select((e) => e.fn.sum<number>('characters').as('n')).where('guild_id', '=', guildId).where('user_id', 'in', members).where('day', '=', day).as('held'),
        ]).executeTakeFirstOrThrow());
      }
      if (limits.guildMonthlyChars !== undefined) {
        used.guildMonthlyChars = await usedOf(trx.selectNoFrom((eb) => [
          eb.selectFrom('spend_totals_guild_month').select((e) => e.fn.sum<number>('characters').as('n')).where('guild_id', 'in', guilds).where('month', '=', month).as('spent'),
          eb.selectFrom('budget_holds').select((e) => e.fn.sum<number>('characters').as('n')).where('month', '=', month).where('guild_id', 'in', guilds).as('held'),
        ]).executeTakeFirstOrThrow());
      }
      if (limits.botMonthlyChars !== undefined) {
        // One row per guild that spent this month, never the month's spends.
        used.botMonthlyChars = await usedOf(trx.selectNoFrom((eb) => [
          eb.selectFrom('spend_totals_guild_month').select((e) => e.fn.sum<number>('characters').as('n')).where('month', '=', month).as('spent'),
          eb.selectFrom('budget_holds').select((e) => e.fn.sum<number>('characters').as('n')).where('month', '=', month).as('held'),
        ]).executeTakeFirstOrThrow());
      }
      const refusal = firstRefusal(limits, used, hold.characters);
      if (refusal) return refusal;
      const token = randomUUID();
      await trx.insertInto('budget_holds')
        .values({ token, guild_id: guildId, user_id: userId, month, day, characters: hold.characters, expires_at: now + hold.ttlMs }).execute();
      return { status: 'held', token };
    });
  }

  /** Ends a hold (its spend was recorded, or it will spend nothing); unknown tokens are ignored. */
  async release(token: string): Promise<void> {
    await this.d.db.deleteFrom('budget_holds').where('token', '=', token).execute();
  }

  /**
   * Moves the expiry of live holds to `expiresAt`: a request renews its hold for as long as it lives (however long
   * its queue), so only a hold whose process stopped renewing it (a crash) expires. Unknown tokens are ignored.
   */
  async renew(tokens: readonly string[], expiresAt: Date): Promise<void> {
    // In slices: a statement's parameters are bounded (SQLite: 32766).
    for (let i = 0; i < tokens.length; i += 1000) {
      await this.d.db.updateTable('budget_holds').set({ expires_at: expiresAt.getTime() }).where('token', 'in', tokens.slice(i, i + 1000)).execute();
    }
  }
}
