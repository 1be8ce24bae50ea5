import { randomBytes } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from './schema.ts';

/** What a deletion does with a row that holds the ID: remove it, or overwrite the ID with a marker (the books). */
type ForgetAction = 'delete' | 'mark';

/** A member's own deletion: a ForgetAction, or 'keep' for the managers' record about them (an ignore). */
type MemberForgetAction = ForgetAction | 'keep';

/** One table's rule for a guild's ID (its guild_id) and its members' (test/core/store/privacy-store.test.ts checks coverage). */
export type ForgetRule = {
  [T in keyof Database]: {
    table: Database[T] extends { guild_id: unknown } ? T : never;
    /** Columns that may hold a member's ID, and what a member's deletion does to the rows where it does. */
    memberColumns: Readonly<Partial<Record<keyof Database[T] & string, MemberForgetAction>>>;
    /** A server's deletion: 'delete', or 'mark' (IDs overwritten with one marker, so spends still add up). */
    guildRows: ForgetAction;
  };
}[keyof Database];

/** The core's tables' rules; the features add theirs when a store is opened (src/app/store.ts). */
export const CORE_FORGET_RULES: readonly ForgetRule[] = [
  // Shared server things a member made stay for the others; only who made them is forgotten.
  { table: 'presets', memberColumns: { created_by: 'mark' }, guildRows: 'delete' },
  { table: 'guild_settings', memberColumns: {}, guildRows: 'delete' },
  { table: 'member_defaults', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  // Cloned voices are deleted at the Voice API first (src/features/privacy/forget.ts); a failed one stays unnamed.
  { table: 'voice_library', memberColumns: { created_by: 'mark' }, guildRows: 'delete' },
  { table: 'clone_name_reservations', memberColumns: { reserved_by: 'delete' }, guildRows: 'delete' },
  { table: 'spends', memberColumns: { user_id: 'mark' }, guildRows: 'mark' },
  // Running totals follow their spends: a guild's month is marked so the bot's month adds up. A deleted guild's member
  // days are deleted: one marker would collide on (guild, member, day) (today's were carried: forget-carry-over.ts).
  { table: 'spend_totals_guild_month', memberColumns: {}, guildRows: 'mark' },
  { table: 'spend_totals_member_day', memberColumns: { user_id: 'mark' }, guildRows: 'delete' },
  { table: 'guild_budgets', memberColumns: { updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'budget_holds', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  { table: 'guild_output_defaults', memberColumns: { updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'member_output_defaults', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  { table: 'removed_guilds', memberColumns: {}, guildRows: 'delete' },
  // Counts of a server's free lines: no member in them.
  { table: 'free_voice_lines', memberColumns: {}, guildRows: 'delete' },
  // Soundboard sounds saved from a cloned voice: no member in them (Discord's audit log names who saved one).
  { table: 'soundboard_sounds', memberColumns: {}, guildRows: 'delete' },
];

/** How every marker and keyed pseudonym (areas/forget-carry-over.ts) begins: no Discord ID does. */
export const FORGOTTEN_PREFIX = 'forgotten:';

/** A non-reversible stand-in for an ID: random, so nothing leads back to whom it replaced. */
export const forgottenMarker = (): string => `${FORGOTTEN_PREFIX}${randomBytes(8).toString('hex')}`;

export interface PlannedStatement {
  query: RawBuilder<unknown>;
  action: ForgetAction;
}

const columnsOf = (rule: ForgetRule): Array<[string, MemberForgetAction]> =>
  Object.entries(rule.memberColumns) as Array<[string, MemberForgetAction]>;

/** The columns a member's deletion changes; kept records' only with `erase` (the operator's deletion). */
const forgettableColumnsOf = (rule: ForgetRule, erase: boolean): Array<[string, ForgetAction]> =>
  columnsOf(rule).flatMap(([column, action]): Array<[string, ForgetAction]> => {
    if (action !== 'keep') return [[column, action]];
    return erase ? [[column, 'delete']] : [];
  });

/** The statements forgetting one member in one guild (or every guild); kept records stay unless `eraseKept`. */
export function planForgetMember(
  rules: readonly ForgetRule[],
  userId: string,
  guildId: string | undefined,
  marker: string,
  eraseKept = false,
): PlannedStatement[] {
  return rules.flatMap((rule) =>
    forgettableColumnsOf(rule, eraseKept).map(([column, action]): PlannedStatement => {
      const table = sql.table(rule.table);
      const where = sql`${sql.ref(column)} = ${userId}${guildId === undefined ? sql`` : sql` AND guild_id = ${guildId}`}`;
      const query =
        action === 'delete'
          ? sql`DELETE FROM ${table} WHERE ${where}`
          : sql`UPDATE ${table} SET ${sql.ref(column)} = ${marker} WHERE ${where}`;
      return { query, action };
    }),
  );
}

/** The statements that forget a whole guild. */
export function planForgetGuild(rules: readonly ForgetRule[], guildId: string, marker: string): PlannedStatement[] {
  return rules.map((rule): PlannedStatement => {
    const where = sql`guild_id = ${guildId}`;
    if (rule.guildRows === 'delete')
      return { query: sql`DELETE FROM ${sql.table(rule.table)} WHERE ${where}`, action: 'delete' };
    const sets = sql.join(['guild_id', ...Object.keys(rule.memberColumns)].map((c) => sql`${sql.ref(c)} = ${marker}`));
    return { query: sql`UPDATE ${sql.table(rule.table)} SET ${sets} WHERE ${where}`, action: 'mark' };
  });
}

/** Rows per table and column holding this member's ID here (/privacy show); `kept`: their deletion keeps them. */
export function planDescribeMember(
  rules: readonly ForgetRule[],
  userId: string,
  guildId: string,
): { table: string; column: string; kept: boolean; query: RawBuilder<{ n: number | string }> }[] {
  return rules.flatMap((rule) =>
    columnsOf(rule).map(([column, action]) => ({
      table: rule.table,
      column,
      kept: action === 'keep',
      query: sql<{
        n: number | string;
      }>`SELECT count(*) AS n FROM ${sql.table(rule.table)} WHERE ${sql.ref(column)} = ${userId} AND guild_id = ${guildId}`,
    })),
  );
}

/** Whether an ID is a marker or a keyed pseudonym (areas/forget-carry-over.ts) rather than a Discord ID. */
export const isForgottenId = (id: string): boolean => id.startsWith(FORGOTTEN_PREFIX);
