// Deletion on request must not reset a budget: a member who spent their day, then asked to be forgotten, would
// otherwise spend it again at once (and a server its month). So the running totals of the day (member) or month
// (server) under way are not given a random marker like the rest: their ID becomes a pseudonym keyed with a secret
// made once per database, which the budget hold computes again from the ID it checks. No row holds the ID; only
// who knows the key and the ID can find the row, and it stops mattering when its period ends.
import { createHmac, randomBytes } from 'node:crypto';
import type { Dialect } from './dialect.ts';
import { FORGOTTEN_PREFIX } from './forget-plan.ts';

/** The UTC month and day a moment counts in (the spends' and running totals' keys). */
export const periodKeys = (at: Date): { month: string; day: string } => ({
  month: at.toISOString().slice(0, 7),
  day: at.toISOString().slice(0, 10),
});

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
