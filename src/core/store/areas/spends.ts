// The money's rows, stored and summed only: a server's budgets and the holds counted against them by every process
// (`store.budgets`: what is spent and held summed inside the hold's transaction, held if it fits the limits
// src/core/quota/money.ts computed), the spends and their running totals (`store.spends`: as Accounting says,
// written ahead, then confirmed, finished or taken back), each under src/core/calendar.ts' keys.
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type {
  BudgetHoldLimits,
  BudgetHoldResult,
  GuildBudgetSettings,
  MonthBreakdown,
  NewBudgetHold,
  NewSpend,
  SpendConfirmation,
  SpendOutcome,
  SpendsLeft,
  SpendTotals,
} from '../quota-store.ts';
import { Area, given, orNull, present, type Db } from '../dialect.ts';
import { noteServiceUsage, serviceColumns } from './quota-state.ts';
import {
  LAST_SPEND_REACH_MS,
  addToTotal,
  forgottenSpendIds,
  guildMonthIds,
  lastSpendIds,
  memberDayIds,
  pseudonymKey,
} from './forget-carry-over.ts';
import { periodOf } from '../../calendar.ts';
import { FORGOTTEN_PREFIX } from '../forget-plan.ts';
import type { Database } from '../schema.ts';

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
   * Holds `characters` if they fit each of `limits` on what it counts, spent plus live holds (any process), else returns
   * the first (in their order) they would pass: summed and held in one transaction, serialised per guild (and
   * bot-wide when a bot limit is given), each limit read from its running total.
   */
  async hold(hold: NewBudgetHold): Promise<BudgetHoldResult> {
    const at = hold.at ?? new Date();
    const now = at.getTime();
    const { month, day } = periodOf(at);
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
      const counted: Record<keyof BudgetHoldLimits, Counted> = {
        memberDailyChars: { spent: 'spend_totals_member_day', ...member, period: { day } },
        guildMonthlyChars: { spent: 'spend_totals_guild_month', guilds, period: { month } },
        // One row per guild that spent this month, never the month's spends.
        botMonthlyChars: { spent: 'spend_totals_guild_month', period: { month } },
      };
      for (const budget of Object.keys(limits) as Array<keyof BudgetHoldLimits>) {
        const limit = limits[budget] ?? 0;
        const used = await usedOf(trx, counted[budget]);
        if (used + hold.characters > limit) return { status: 'refused', budget, limit, used, needed: hold.characters };
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
          characters: hold.characters,
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

type RunningTotal = 'spend_totals_guild_month' | 'spend_totals_member_day';

/** Spent and saved sums as the drivers give them (PostgreSQL's NUMERIC parsed; none: 0). */
const totalsOf = (row: { spent: unknown; saved: unknown } | undefined): SpendTotals => ({
  spent: Number(row?.spent ?? 0),
  saved: Number(row?.saved ?? 0),
});

/** Characters spent (not cached) and saved (cached) among the rows selected. */
const totals = (eb: ExpressionBuilder<Database, 'spends'>) =>
  ([0, 1] as const).map((cached) =>
    eb.fn
      .coalesce(eb.fn.sum<number>(eb.case().when('cached', '=', cached).then(eb.ref('characters')).end()), eb.lit(0))
      .as(cached === 0 ? 'spent' : 'saved'),
  );

/** Spends and the running totals budget holds read, kept in the spend's transaction: `store.spends`. */
export class SpendArea extends Area {
  /** Records a spend (its row ID), once by its token; one written ahead lowers its `hold` in the same transaction. */
  async record(spend: NewSpend): Promise<number> {
    const at = spend.at ?? new Date();
    const { month, day } = periodOf(at);
    const { characters } = spend;
    const { guild, member } = await this.#recordedAs(spend, at);
    const service = spend.service ?? {};
    return this.d.transaction(undefined, async (trx) => {
      const row = await trx
        .insertInto('spends')
        .values({
          at: at.getTime(),
          month,
          day,
          guild_id: guild,
          user_id: member,
          command: spend.command,
          endpoint: spend.endpoint,
          characters,
          cached: spend.cached ? 1 : 0,
          request_id: orNull(spend.requestId),
          ...serviceColumns(service),
          undelivered: spend.undelivered === true ? 1 : 0,
          owner: orNull(spend.owner),
          unconfirmed: spend.unconfirmed === true ? 1 : 0,
          token: orNull(spend.token),
        })
        .onConflict((oc) => oc.column('token').doNothing())
        .returning('id')
        .executeTakeFirst();
      // Written before under its token (that answer lost): that row stands, counted once.
      const before = trx.selectFrom('spends').select('id').where('token', '=', String(spend.token));
      if (row === undefined) return (await before.executeTakeFirstOrThrow()).id;
      if (spend.cached) return row.id;
      if (spend.hold !== undefined) {
        // A hold's characters stay above 0 (its CHECK): one its spends use up entirely is gone.
        await trx
          .deleteFrom('budget_holds')
          .where('token', '=', spend.hold)
          .where('characters', '<=', characters)
          .execute();
        await trx
          .updateTable('budget_holds')
          .set((eb) => ({ characters: eb('characters', '-', characters) }))
          .where('token', '=', spend.hold)
          .execute();
      }
      await addToTotal(trx, { guild_id: guild, month, characters });
      await addToTotal(trx, { guild_id: guild, user_id: member, day, characters });
      if (spend.service !== undefined) await noteServiceUsage(trx, spend.service, at);
      return row.id;
    });
  }

  /** The service charged a request written ahead: the spend is confirmed with its request ID and usage; no count changes. */
  async confirm(id: number, confirmation: SpendConfirmation): Promise<void> {
    const at = confirmation.at ?? new Date();
    await this.d.transaction(undefined, async (trx) => {
      await trx
        .updateTable('spends')
        .set({
          unconfirmed: 0,
          request_id: orNull(confirmation.requestId),
          ...serviceColumns(confirmation.service ?? {}),
        })
        .where('id', '=', id)
        .execute();
      if (confirmation.service !== undefined) await noteServiceUsage(trx, confirmation.service, at);
    });
  }

  /** A request written ahead not charged (or maybe written): taken back, by its token else `id`, to `hold`; whether it was. */
  async erase(id: number | undefined, spend: NewSpend): Promise<boolean> {
    const { month, day } = periodOf(spend.at ?? new Date());
    const key = await pseudonymKey(this.d);
    // Its running totals are under its own IDs, or the pseudonyms a deletion moved them to.
    const guilds = guildMonthIds(key, spend.guildId, month);
    const { members } = memberDayIds(key, spend.guildId, spend.userId, day);
    if (spend.forgotten === 'guild') guilds.reverse();
    if (spend.forgotten !== undefined) members.reverse();
    const memberDays = guilds.flatMap((guild) => members.map((user) => ({ guild_id: guild, user_id: user, day })));
    return this.d.transaction(undefined, async (trx) => {
      const gone = await trx
        .deleteFrom('spends')
        .where((eb) => (spend.token === undefined ? eb('id', '=', id ?? null) : eb('token', '=', spend.token)))
        .where('unconfirmed', '=', 1)
        .where('owner', 'is not', null)
        .returning('characters')
        .executeTakeFirst();
      if (gone === undefined) return false;
      const { characters } = gone;
      /** Lowers the first of the running totals `rows` (in order) that holds the characters. */
      const lowerFirst = async (table: RunningTotal, rows: ReadonlyArray<Record<string, string>>) => {
        for (const row of rows) {
          let lowered = trx
            .updateTable(table)
            .set((eb) => ({ characters: eb('characters', '-', characters) }))
            .where('characters', '>=', characters);
          for (const [column, value] of Object.entries(row)) lowered = lowered.where(sql.ref(column), '=', value);
          if (Number((await lowered.executeTakeFirst()).numUpdatedRows) > 0) return;
        }
      };
      await lowerFirst(
        'spend_totals_guild_month',
        guilds.map((guild) => ({ guild_id: guild, month })),
      );
      await lowerFirst('spend_totals_member_day', memberDays);
      if (spend.hold !== undefined)
        await trx
          .updateTable('budget_holds')
          .set((eb) => ({ characters: eb('characters', '+', characters) }))
          .where('token', '=', spend.hold)
          .execute();
      return true;
    });
  }

  /** Finishes a spend written ahead (audio arrived, or never will); characters stay spent; a finished one is left alone. */
  async finish(id: number, outcome: SpendOutcome): Promise<void> {
    await this.d.db
      .updateTable('spends')
      .set({ owner: null, undelivered: outcome === 'undelivered' ? 1 : 0 })
      .where('id', '=', id)
      .where('owner', 'is not', null)
      .execute();
  }

  /** Finishes what a dead process (`owner`) left written ahead: spent and undelivered, in flight ones unconfirmed. */
  async finishLeftBy(owner: string): Promise<SpendsLeft> {
    return this.d.transaction(undefined, async (trx) => {
      const rows = await trx
        .selectFrom('spends')
        .select((eb) => [
          'unconfirmed',
          eb.fn.countAll<number>().as('n'),
          eb.fn.coalesce(eb.fn.sum<number>('characters'), eb.lit(0)).as('characters'),
        ])
        .where('owner', '=', owner)
        .groupBy('unconfirmed')
        .execute();
      await trx.updateTable('spends').set({ owner: null, undelivered: 1 }).where('owner', '=', owner).execute();
      const of = (unconfirmed: number) => rows.find((row) => Number(row.unconfirmed) === unconfirmed);
      return {
        confirmed: Number(of(0)?.n ?? 0),
        inFlight: Number(of(1)?.n ?? 0),
        inFlightCharacters: Number(of(1)?.characters ?? 0),
      };
    });
  }

  /** The IDs a spend is written under: its own, or the pseudonyms a deletion moved the rest to (forget-carry-over.ts). */
  async #recordedAs(spend: NewSpend, at: Date): Promise<{ guild: string; member: string }> {
    const { guildId, userId, forgotten } = spend;
    if (forgotten === undefined) return { guild: guildId, member: userId };
    return forgottenSpendIds(await pseudonymKey(this.d), guildId, userId, forgotten, at);
  }

  /** This month's totals ('YYYY-MM') for one guild (its carried pseudonym included) or the whole bot. */
  async monthTotals(month: string, guildId?: string): Promise<SpendTotals> {
    const query = this.d.db.selectFrom('spends').select(totals).where('month', '=', month);
    if (guildId === undefined) return totalsOf(await query.executeTakeFirst());
    const guilds = guildMonthIds(await pseudonymKey(this.d), guildId, month);
    return totalsOf(await query.where('guild_id', 'in', guilds).executeTakeFirst());
  }

  /** A guild's month per day and its top spenders still named (deleted members' spends count unattributed). */
  async monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown> {
    const guilds = guildMonthIds(await pseudonymKey(this.d), guildId, month);
    const spends = this.d.db.selectFrom('spends').where('guild_id', 'in', guilds).where('month', '=', month);
    const days = await spends.select('day').select(totals).groupBy('day').orderBy('day').execute();
    const members = await spends
      .where('user_id', 'not like', `${FORGOTTEN_PREFIX}%`)
      .select('user_id')
      .select(totals)
      .groupBy('user_id')
      // By what they spent, as the month's total and the owner console's top spenders count; saved breaks a tie.
      .orderBy('spent', 'desc')
      .orderBy('saved', 'desc')
      .orderBy('user_id')
      .limit(topMembers)
      .execute();
    return {
      days: days.map((row) => ({ day: row.day, ...totalsOf(row) })),
      members: members.map((row) => ({ userId: row.user_id, ...totalsOf(row) })),
    };
  }

  /** What a member spent in a guild on the day of `at`, as their daily budget counts it (carry-over included). */
  async memberDaySpent(guildId: string, userId: string, at = new Date()): Promise<number> {
    const { day } = periodOf(at);
    const { guilds, members } = memberDayIds(await pseudonymKey(this.d), guildId, userId, day);
    const row = await this.d.db
      .selectFrom('spend_totals_member_day')
      .select((eb) => eb.fn.sum<number>('characters').as('n'))
      .where('guild_id', 'in', guilds)
      .where('user_id', 'in', members)
      .where('day', '=', day)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A member's month ('YYYY-MM') in a guild, cache hits aside: at most 31 day rows, under their own ID only. */
  async memberMonthSpent(guildId: string, userId: string, month: string): Promise<number> {
    const row = await this.d.db
      .selectFrom('spend_totals_member_day')
      .select((eb) => eb.fn.sum<number>('characters').as('n'))
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .where('day', '>=', `${month}-01`)
      .where('day', '<=', `${month}-31`)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One member's totals in one guild on one UTC day ('YYYY-MM-DD'). */
  async memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals> {
    return totalsOf(
      await this.d.db
        .selectFrom('spends')
        .select(totals)
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .where('day', '=', day)
        .executeTakeFirst(),
    );
  }

  /** When the member last spent characters in the guild (cache hits not counted). */
  async lastSpendAt(guildId: string, userId: string, at = new Date()): Promise<Date | undefined> {
    // Their rows and those carried under the day's pseudonyms, of the last day, through the (guild_id, user_id, …) index.
    const carried = lastSpendIds(await pseudonymKey(this.d), guildId, userId, at);
    const row = await this.d.db
      .selectFrom('spends')
      .select((eb) => eb.fn.max('at').as('at'))
      .where((eb) =>
        eb.or([
          eb.and([eb('guild_id', '=', guildId), eb('user_id', '=', userId)]),
          eb.and([
            eb('guild_id', 'in', carried.guilds),
            eb('user_id', 'in', carried.members),
            eb('at', '>', at.getTime() - LAST_SPEND_REACH_MS),
          ]),
        ]),
      )
      .where('cached', '=', 0)
      .executeTakeFirst();
    return row?.at == null ? undefined : new Date(Number(row.at));
  }
}
