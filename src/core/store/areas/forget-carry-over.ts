// What a deletion on request must carry over, in one place: whatever a budget counts from. A member who spent their
// day, or waits out a cooldown, then asks to be forgotten must not spend again at once, nor a server its month. So,
// in the deletion's transaction and before its rules run (forget-plan.ts), these move from the ID to the period's
// keyed pseudonym (period-pseudonym.ts) instead of a random marker: a member's running total of the day, their spends
// of the last day (when they last spent: the cooldown, at most a day, counts from it) and their holds in flight; a
// server's running total of the month and its holds. No row keeps the ID; each stops mattering when its period ends.
import type { Db } from '../dialect.ts';
import { guildMonthPseudonym, memberDayPseudonym, periodKeys } from '../period-pseudonym.ts';

/** The longest member cooldown (config's BUDGET_MEMBER_COOLDOWN_SECONDS): how far back a last spend matters. */
export const LAST_SPEND_REACH_MS = 86_400_000;

/**
 * The IDs a member's day counts under: their own, and the pseudonym a deletion that day carried their running total
 * to. Their daily budget (budget-holds.ts) and what /usage shows them (spends.ts memberDaySpent) both read these.
 */
export function memberDayIds(key: Buffer, guildId: string, userId: string, day: string): string[] {
  return [userId, memberDayPseudonym(key, guildId, userId, day)];
}

/** The IDs a member's last spend may be under at `at`: their own, and today's and yesterday's pseudonyms. */
export function lastSpendIds(key: Buffer, guildId: string, userId: string, at: Date): string[] {
  const days = [periodKeys(at).day, periodKeys(new Date(at.getTime() - LAST_SPEND_REACH_MS)).day];
  return [userId, ...days.map((day) => memberDayPseudonym(key, guildId, userId, day))];
}

/**
 * A member forgotten in `guildId` (or every guild) at `at`: their day, their last spends and their holds carried.
 * Returns how many spend rows it moved off their ID (they no longer name the member: the deletion's count).
 */
export async function carryOverMember(
  trx: Db,
  key: Buffer,
  userId: string,
  guildId: string | undefined,
  at: Date,
): Promise<number> {
  const { day } = periodKeys(at);
  // Today's running total keeps counting against the member's daily budget, under a pseudonym.
  let rows = trx
    .selectFrom('spend_totals_member_day')
    .select(['guild_id', 'characters'])
    .where('user_id', '=', userId)
    .where('day', '=', day);
  if (guildId !== undefined) rows = rows.where('guild_id', '=', guildId);
  for (const row of await rows.execute()) {
    await trx
      .insertInto('spend_totals_member_day')
      .values({
        guild_id: row.guild_id,
        user_id: memberDayPseudonym(key, row.guild_id, userId, day),
        day,
        characters: row.characters,
      })
      .onConflict((oc) =>
        oc.columns(['guild_id', 'user_id', 'day']).doUpdateSet((eb) => ({
          characters: eb('spend_totals_member_day.characters', '+', eb.ref('excluded.characters')),
        })),
      )
      .execute();
  }
  let gone = trx.deleteFrom('spend_totals_member_day').where('user_id', '=', userId).where('day', '=', day);
  if (guildId !== undefined) gone = gone.where('guild_id', '=', guildId);
  await gone.execute();
  // Their paid spends of the last day, each under its day's pseudonym: when they last spent still starts their
  // cooldown (spends.lastSpendAt looks under these too). Older ones are marked by the rules like the rest.
  let recent = trx
    .selectFrom('spends')
    .select(['id', 'guild_id', 'day'])
    .where('user_id', '=', userId)
    .where('cached', '=', 0)
    .where('at', '>', at.getTime() - LAST_SPEND_REACH_MS);
  if (guildId !== undefined) recent = recent.where('guild_id', '=', guildId);
  const carried = await recent.execute();
  for (const spend of carried) {
    await trx
      .updateTable('spends')
      .set({ user_id: memberDayPseudonym(key, spend.guild_id, userId, spend.day) })
      .where('id', '=', spend.id)
      .execute();
  }
  // Holds of requests still under way keep counting against their day too, under the same pseudonym; their request
  // releases them by token as usual (the rule's delete then finds none of them).
  let holds = trx.selectFrom('budget_holds').select(['token', 'guild_id', 'day']).where('user_id', '=', userId);
  if (guildId !== undefined) holds = holds.where('guild_id', '=', guildId);
  for (const hold of await holds.execute()) {
    await trx
      .updateTable('budget_holds')
      .set({ user_id: memberDayPseudonym(key, hold.guild_id, userId, hold.day) })
      .where('token', '=', hold.token)
      .execute();
  }
  return carried.length;
}

/** A server forgotten at `at`: its month's running total and its holds carried; `marker` names its members. */
export async function carryOverGuild(trx: Db, key: Buffer, guildId: string, marker: string, at: Date): Promise<void> {
  const { month } = periodKeys(at);
  // Holds of requests still under way keep counting against the guild's month, under its pseudonym.
  for (const hold of await trx
    .selectFrom('budget_holds')
    .select(['token', 'month'])
    .where('guild_id', '=', guildId)
    .execute()) {
    await trx
      .updateTable('budget_holds')
      .set({ guild_id: guildMonthPseudonym(key, guildId, hold.month), user_id: marker })
      .where('token', '=', hold.token)
      .execute();
  }
  // This month's running total keeps counting against the server's monthly budget, under a pseudonym.
  const row = await trx
    .selectFrom('spend_totals_guild_month')
    .select('characters')
    .where('guild_id', '=', guildId)
    .where('month', '=', month)
    .executeTakeFirst();
  if (!row) return;
  await trx
    .insertInto('spend_totals_guild_month')
    .values({ guild_id: guildMonthPseudonym(key, guildId, month), month, characters: row.characters })
    .onConflict((oc) =>
      oc.columns(['guild_id', 'month']).doUpdateSet((eb) => ({
        characters: eb('spend_totals_guild_month.characters', '+', eb.ref('excluded.characters')),
      })),
    )
    .execute();
  await trx.deleteFrom('spend_totals_guild_month').where('guild_id', '=', guildId).where('month', '=', month).execute();
}
