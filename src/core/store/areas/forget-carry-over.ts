// What a deletion on request carries over so a forgotten member (or server) cannot spend again at once: in the
// deletion's transaction, before its rules (forget-plan.ts), the day's and month's running totals, the last day's
// spends (the cooldown counts from them) and the holds in flight move from the IDs to the period's keyed pseudonyms.
// The key is a per-database secret the budget hold recomputes from the ID it checks: no row holds the ID, and each
// pseudonym stops mattering when its period ends. Reads look under the same IDs (spends.ts); a running total is added
// to by addToTotal, a spend's and a deletion's alike.
import { createHmac, randomBytes } from 'node:crypto';
import { periodOf } from '../../calendar.ts';
import type { Db, Dialect } from '../dialect.ts';
import type { Database } from '../schema.ts';
import { FORGOTTEN_PREFIX, isForgottenId } from '../forget-plan.ts';

const KEY_NAME = 'forget-period-key';
const keys = new WeakMap<Dialect, Promise<Buffer>>();

/** The database's key, made on first use (two processes racing keep the first). Read before a transaction. */
export function pseudonymKey(d: Dialect): Promise<Buffer> {
  let key = keys.get(d);
  if (!key) {
    key = (async () => {
      await d.db
        .insertInto('store_secrets')
        .values({ name: KEY_NAME, value: randomBytes(32).toString('hex') })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await d.db
        .selectFrom('store_secrets')
        .select('value')
        .where('name', '=', KEY_NAME)
        .executeTakeFirstOrThrow();
      return Buffer.from(row.value, 'hex');
    })();
    key.catch(() => keys.delete(d));
    keys.set(d, key);
  }
  return key;
}

/** What stands for a forgotten member in a guild on a day (spend_totals_member_day.user_id). */
export function memberDayPseudonym(key: Buffer, guildId: string, userId: string, day: string): string {
  return pseudonym(key, `member-day|${guildId}|${userId}|${day}`);
}

/** What stands for a forgotten guild in a month (spend_totals_guild_month.guild_id). */
export function guildMonthPseudonym(key: Buffer, guildId: string, month: string): string {
  return pseudonym(key, `guild-month|${guildId}|${month}`);
}

/** What stands for a forgotten server or member in a forget notice (forget_notices). */
export function noticePseudonym(key: Buffer, kind: 'guild' | 'member', id: string): string {
  return pseudonym(key, `notice-${kind}|${id}`);
}

function pseudonym(key: Buffer, subject: string): string {
  return `${FORGOTTEN_PREFIX}${createHmac('sha256', key).update(subject).digest('hex').slice(0, 32)}`;
}

/** The longest member cooldown (config's BUDGET_MEMBER_COOLDOWN_SECONDS): how far back a last spend matters. */
export const LAST_SPEND_REACH_MS = 86_400_000;

/** The guild and member columns a row may stand under: any guild of `guilds` with any member of `members`. */
interface CarriedIds {
  guilds: string[];
  members: string[];
}

/** The IDs a guild's month counts under: its own, and the pseudonym a deletion that month carried it to. */
export function guildMonthIds(key: Buffer, guildId: string, month: string): string[] {
  return [guildId, guildMonthPseudonym(key, guildId, month)];
}

/** The IDs a member's day counts under (their own and carried pseudonyms): spends.ts reads them. */
export function memberDayIds(key: Buffer, guildId: string, userId: string, day: string): CarriedIds {
  return {
    guilds: guildMonthIds(key, guildId, day.slice(0, 7)),
    members: [userId, memberDayPseudonym(key, guildId, userId, day)],
  };
}

/** The IDs a member's last spend may be under at `at` besides their own: today's and yesterday's pseudonyms. */
export function lastSpendIds(key: Buffer, guildId: string, userId: string, at: Date): CarriedIds {
  const periods = [periodOf(at), periodOf(new Date(at.getTime() - LAST_SPEND_REACH_MS))];
  const months = [...new Set(periods.map((p) => p.month))];
  return {
    guilds: [guildId, ...months.map((month) => guildMonthPseudonym(key, guildId, month))],
    members: periods.map((p) => memberDayPseudonym(key, guildId, userId, p.day)),
  };
}

/** Adds `row`'s characters to its running total (spends.ts' and a deletion's), the row made when missing. */
export async function addToTotal(trx: Db, row: Database['spend_totals_guild_month' | 'spend_totals_member_day']) {
  const table = 'day' in row ? 'spend_totals_member_day' : 'spend_totals_guild_month';
  const keys = 'day' in row ? (['guild_id', 'user_id', 'day'] as const) : (['guild_id', 'month'] as const);
  await trx
    .insertInto(table)
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(keys)
        .doUpdateSet((eb) => ({ characters: eb(`${table}.characters`, '+', eb.ref('excluded.characters')) })),
    )
    .execute();
}

/** Where a spend is written whose member or guild was forgotten while it was under way. */
export function forgottenSpendIds(
  key: Buffer,
  guildId: string,
  userId: string,
  forgotten: 'member' | 'guild',
  at: Date,
): { guild: string; member: string } {
  const { month, day } = periodOf(at);
  return {
    guild: forgotten === 'guild' ? guildMonthPseudonym(key, guildId, month) : guildId,
    member: memberDayPseudonym(key, guildId, userId, day),
  };
}

/** What a member ID becomes under a day's pseudonym; one already forgotten stays as it is. */
const carriedMember = (key: Buffer, guildId: string, userId: string, day: string): string =>
  isForgottenId(userId) ? userId : memberDayPseudonym(key, guildId, userId, day);

/** Whom a deletion forgets: a member (in one guild, or every guild), or a whole guild and all its members. */
type Forgotten =
  { kind: 'member'; userId: string; guildId: string | undefined } | { kind: 'guild'; guildId: string; marker: string };

/** The rule both deletions follow, in the deletion's transaction: each member's day, last day's paid spends and holds
 * go under the day's pseudonym; a server's deletion also moves its month's under the month's pseudonym. Returns how
 * many spend rows it moved off the IDs. */
async function carryOver(trx: Db, key: Buffer, who: Forgotten, at: Date): Promise<number> {
  const { month, day } = periodOf(at);
  /** A carried row's IDs: its member under its day's pseudonym, its guild under its month's when a server goes. */
  const carried = (row: { guild_id: string; user_id: string; day: string }, rowMonth: string) => ({
    guild_id: who.kind === 'guild' ? guildMonthPseudonym(key, row.guild_id, rowMonth) : row.guild_id,
    user_id: carriedMember(key, row.guild_id, row.user_id, row.day),
  });
  /** Restricts a query on a table with guild_id and user_id columns to the rows of who was forgotten. */
  const only = <Q extends { where: (column: 'guild_id' | 'user_id', op: '=', value: string) => Q }>(query: Q): Q => {
    if (who.kind === 'guild') return query.where('guild_id', '=', who.guildId);
    const ofMember = query.where('user_id', '=', who.userId);
    return who.guildId === undefined ? ofMember : ofMember.where('guild_id', '=', who.guildId);
  };

  // Today's running totals keep counting against each member's daily budget.
  const days = await only(trx.selectFrom('spend_totals_member_day').selectAll().where('day', '=', day)).execute();
  for (const row of days) await addToTotal(trx, { ...row, ...carried(row, month) });
  await only(trx.deleteFrom('spend_totals_member_day').where('day', '=', day)).execute();

  // Paid spends of the last day: when a member last spent still starts their cooldown (spends.lastSpendAt).
  const recent = await only(
    trx
      .selectFrom('spends')
      .select(['id', 'guild_id', 'user_id', 'day'])
      .where('cached', '=', 0)
      .where('at', '>', at.getTime() - LAST_SPEND_REACH_MS),
  ).execute();
  for (const spend of recent)
    await trx.updateTable('spends').set(carried(spend, month)).where('id', '=', spend.id).execute();

  // Holds still under way keep counting; their request releases them by token as usual.
  const holds = await only(
    trx.selectFrom('budget_holds').select(['token', 'guild_id', 'user_id', 'month', 'day']),
  ).execute();
  for (const hold of holds)
    await trx.updateTable('budget_holds').set(carried(hold, hold.month)).where('token', '=', hold.token).execute();
  if (who.kind === 'member') return recent.length;

  // A server's other spends of the month go under the month's pseudonym, so /usage shows what its budget counts.
  const monthPseudonym = guildMonthPseudonym(key, who.guildId, month);
  const rest = await trx
    .updateTable('spends')
    .set({ guild_id: monthPseudonym, user_id: who.marker })
    .where('guild_id', '=', who.guildId)
    .where('month', '=', month)
    .executeTakeFirst();
  // Its running total keeps counting against the server's monthly budget.
  const row = await trx
    .selectFrom('spend_totals_guild_month')
    .select('characters')
    .where('guild_id', '=', who.guildId)
    .where('month', '=', month)
    .executeTakeFirst();
  if (row) {
    await addToTotal(trx, { guild_id: monthPseudonym, month, characters: row.characters });
    await trx
      .deleteFrom('spend_totals_guild_month')
      .where('guild_id', '=', who.guildId)
      .where('month', '=', month)
      .execute();
  }
  return recent.length + Number(rest.numUpdatedRows);
}

/** A member forgotten in `guildId` (or every guild) at `at`; returns the spend rows moved off their ID. */
export function carryOverMember(
  trx: Db,
  key: Buffer,
  userId: string,
  guildId: string | undefined,
  at: Date,
): Promise<number> {
  return carryOver(trx, key, { kind: 'member', userId, guildId }, at);
}

/** A server forgotten at `at`: each member carried, and its month; `marker` names members no budget needs. */
export function carryOverGuild(trx: Db, key: Buffer, guildId: string, marker: string, at: Date): Promise<number> {
  return carryOver(trx, key, { kind: 'guild', guildId, marker }, at);
}
