import { randomBytes } from 'node:crypto';

/** What a deletion does with a row that holds the ID: remove it, or overwrite the ID with a marker (the books). */
export type ForgetAction = 'delete' | 'mark';

/**
 * Where one table keeps a guild's or a member's ID, and what deleting them does there (issue 22, point 5). One
 * rule per table, read by both backends (sqlite/privacy.ts, pg/privacy.ts): a new table that keeps a guild or
 * member ID gets a rule here and nothing else changes. test/store/privacy-store.test.ts reads the schema from
 * the database and fails for any ID column no rule (nor KEPT_COLUMNS) names.
 */
export interface ForgetRule {
  table: string;
  /** The column holding the guild ID. */
  guildColumn: string;
  /** Columns that may hold a member's ID, and what a member's deletion does to the rows where it does. */
  memberColumns: Readonly<Record<string, ForgetAction>>;
  /**
   * What a server's deletion does with the guild's rows: 'delete', or 'mark' (guild and member columns
   * overwritten with one marker, so what was spent still adds up per day and month).
   */
  guildRows: ForgetAction;
}

export const FORGET_RULES: readonly ForgetRule[] = [
  // Shared server things a member made stay for the others; only who made them is forgotten.
  { table: 'presets', guildColumn: 'guild_id', memberColumns: { created_by: 'mark' }, guildRows: 'delete' },
  { table: 'guild_settings', guildColumn: 'guild_id', memberColumns: {}, guildRows: 'delete' },
  { table: 'member_defaults', guildColumn: 'guild_id', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  // A member's cloned voices are deleted at the Voice API first (src/privacy/forget.ts); one whose deletion
  // failed stays for the server, no longer naming who cloned it.
  { table: 'voice_library', guildColumn: 'guild_id', memberColumns: { created_by: 'mark' }, guildRows: 'delete' },
  { table: 'clone_name_reservations', guildColumn: 'guild_id', memberColumns: { reserved_by: 'delete' }, guildRows: 'delete' },
  { table: 'spends', guildColumn: 'guild_id', memberColumns: { user_id: 'mark' }, guildRows: 'mark' },
  // The running totals budget holds read (issue 23) follow the spends they sum: a guild's month is marked, not
  // deleted, so the bot's month still adds up; a member's days are marked like their spends. A deleted guild's
  // member days are deleted: one marker for every member would collide on (guild, member, day), and they serve
  // only that guild's daily budgets.
  { table: 'spend_totals_guild_month', guildColumn: 'guild_id', memberColumns: {}, guildRows: 'mark' },
  { table: 'spend_totals_member_day', guildColumn: 'guild_id', memberColumns: { user_id: 'mark' }, guildRows: 'delete' },
  { table: 'guild_budgets', guildColumn: 'guild_id', memberColumns: { updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'budget_holds', guildColumn: 'guild_id', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  { table: 'auto_read', guildColumn: 'guild_id', memberColumns: { started_by: 'mark', settings_updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'dictionary_entries', guildColumn: 'guild_id', memberColumns: { updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'guild_output_defaults', guildColumn: 'guild_id', memberColumns: { updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'member_output_defaults', guildColumn: 'guild_id', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  { table: 'removed_guilds', guildColumn: 'guild_id', memberColumns: {}, guildRows: 'delete' },
];

/** A non-reversible stand-in for an ID: random, so nothing leads back to whom it replaced. */
export const forgottenMarker = (): string => `forgotten:${randomBytes(8).toString('hex')}`;

export interface PlannedStatement {
  sql: string;
  params: string[];
  action: ForgetAction;
}

/** A placeholder for the n-th parameter (1-based) in the backend's dialect. */
export type Placeholder = (n: number) => string;

/** The statements that forget one member, in one guild or (guildId undefined) in every guild. */
export function planForgetMember(userId: string, guildId: string | undefined, marker: string, p: Placeholder): PlannedStatement[] {
  const statements: PlannedStatement[] = [];
  for (const rule of FORGET_RULES) {
    for (const [column, action] of Object.entries(rule.memberColumns)) {
      const scope = guildId === undefined ? '' : ` AND ${rule.guildColumn} = ${p(2)}`;
      const params = guildId === undefined ? [userId] : [userId, guildId];
      statements.push(
        action === 'delete'
          ? { sql: `DELETE FROM ${rule.table} WHERE ${column} = ${p(1)}${scope}`, params, action }
          : { sql: `UPDATE ${rule.table} SET ${column} = ${p(params.length + 1)} WHERE ${column} = ${p(1)}${scope}`, params: [...params, marker], action },
      );
    }
  }
  return statements;
}

/** The statements that forget a whole guild. */
export function planForgetGuild(guildId: string, marker: string, p: Placeholder): PlannedStatement[] {
  return FORGET_RULES.map((rule): PlannedStatement => {
    if (rule.guildRows === 'delete') return { sql: `DELETE FROM ${rule.table} WHERE ${rule.guildColumn} = ${p(1)}`, params: [guildId], action: 'delete' };
    const sets = [rule.guildColumn, ...Object.keys(rule.memberColumns)].map((c) => `${c} = ${p(2)}`).join(', ');
    return { sql: `UPDATE ${rule.table} SET ${sets} WHERE ${rule.guildColumn} = ${p(1)}`, params: [guildId, marker], action: 'mark' };
  });
}

/** Counts, per table and column, of the rows that hold this member's ID in this guild (for /privacy show). */
export function planDescribeMember(userId: string, guildId: string, p: Placeholder): { table: string; column: string; sql: string; params: string[] }[] {
  return FORGET_RULES.flatMap((rule) =>
    Object.keys(rule.memberColumns).map((column) => ({
      table: rule.table,
      column,
      sql: `SELECT count(*) AS n FROM ${rule.table} WHERE ${column} = ${p(1)} AND ${rule.guildColumn} = ${p(2)}`,
      params: [userId, guildId],
    })),
  );
}
