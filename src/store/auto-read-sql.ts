// The auto-read settings' change as one upsert, for both backends: the same columns and rules, only the
// placeholders differ (SQLite ?N, PostgreSQL $N).
import type { AutoReadSettingChanges, AutoReadSettings } from './types.ts';

const SETTING_COLUMNS: ReadonlyArray<readonly [keyof AutoReadSettings, string]> = [
  ['sayAuthorName', 'say_author_name'],
  ['maxLength', 'max_length'],
  ['readBots', 'read_bots'],
  ['requiredRoleId', 'required_role_id'],
  ['onlyMembersInVoice', 'only_members_in_voice'],
  ['announceJoinLeave', 'announce_join_leave'],
];

/**
 * INSERT … ON CONFLICT DO UPDATE that sets each changed setting, clears (NULL: the default) each one given as
 * null, and keeps each one left undefined; one statement, so the merge is atomic. Parameters: autoReadSettingsParams.
 */
export function autoReadSettingsUpsert(placeholder: (n: number) => string): string {
  const value = (i: number) => placeholder(2 + 2 * i);
  const keep = (i: number) => placeholder(3 + 2 * i);
  const by = placeholder(2 + 2 * SETTING_COLUMNS.length);
  const at = placeholder(3 + 2 * SETTING_COLUMNS.length);
  const columns = SETTING_COLUMNS.map(([, column]) => column);
  return `INSERT INTO auto_read (guild_id, ${columns.join(', ')}, settings_updated_by, updated_at)
    VALUES (${placeholder(1)}, ${columns.map((_, i) => value(i)).join(', ')}, ${by}, ${at})
    ON CONFLICT (guild_id) DO UPDATE SET
      ${columns.map((column, i) => `${column} = CASE WHEN ${keep(i)} = 1 THEN auto_read.${column} ELSE excluded.${column} END`).join(',\n      ')},
      settings_updated_by = excluded.settings_updated_by,
      updated_at = excluded.updated_at`;
}

/** The parameters of autoReadSettingsUpsert, in its order: flags as 0/1, "keep" as 1 for a setting left undefined. */
export function autoReadSettingsParams(guildId: string, changes: AutoReadSettingChanges, updatedBy: string, at: number): Array<string | number | null> {
  const params: Array<string | number | null> = [guildId];
  for (const [name] of SETTING_COLUMNS) {
    const change = changes[name];
    params.push(change === undefined || change === null ? null : typeof change === 'boolean' ? (change ? 1 : 0) : change, change === undefined ? 1 : 0);
  }
  params.push(updatedBy, at);
  return params;
}
