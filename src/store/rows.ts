// Rows to the Store's types, one mapping for both backends: SQLite and PostgreSQL hold the same columns, and each
// driver hands back plain values (SQLite may give a bigint for an INTEGER; PostgreSQL's pool parses BIGINT and
// NUMERIC to numbers), so what a row means is decided once, here.
import type { DictionaryEntry } from '../text/dictionary.ts';
import { AUTO_READ_DEFAULTS } from './auto-read-store.ts';
import { nameKey, tidyName } from './names.ts';
import type {
  AutoReadSettings,
  AutoReadState,
  ClonedVoice,
  GuildBudgetSettings,
  MemberDefaults,
  MonthBreakdown,
  NewPreset,
  OutputDefaults,
  OutputFormat,
  OutsideVoiceOutput,
  Preset,
  QuotaState,
  ServiceUsage,
  SpendTotals,
  VoiceSettings,
} from './types.ts';

export type Row = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);
const format = (v: unknown): OutputFormat | undefined => (v === 'wav' || v === 'mp3' ? v : undefined);
export const dateOf = (v: unknown): Date | undefined => {
  const ms = num(v);
  return ms === undefined ? undefined : new Date(ms);
};
export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** Only the fields that hold a value, so readers see no explicit undefined. */
export function settingsOf(row: Row): VoiceSettings {
  const s: VoiceSettings = {};
  const voice = str(row['voice']);
  const language = str(row['language']);
  const tone = str(row['tone']);
  const exaggeration = num(row['exaggeration']);
  const fmt = format(row['format']);
  if (voice !== undefined) s.voice = voice;
  if (language !== undefined) s.language = language;
  if (tone !== undefined) s.tone = tone;
  if (exaggeration !== undefined) s.exaggeration = exaggeration;
  if (fmt !== undefined) s.format = fmt;
  return s;
}

export const presetOf = (row: Row): Preset => ({
  ...settingsOf(row),
  guildId: String(row['guild_id']),
  name: String(row['name']),
  voice: String(row['voice']),
  createdBy: String(row['created_by']),
  createdAt: new Date(num(row['created_at']) ?? 0),
});

/**
 * A preset to its columns, the other way: the name key it is unique by, and the values of name, voice, language,
 * tone, exaggeration, format, created_by, created_at in that order (both backends write them so).
 */
export function presetColumns(preset: NewPreset): { key: string; values: Array<string | number | null> } {
  const name = tidyName(preset.name);
  return {
    key: nameKey(name),
    values: [
      name,
      preset.voice,
      orNull(preset.language),
      orNull(preset.tone),
      orNull(preset.exaggeration),
      orNull(preset.format),
      preset.createdBy,
      (preset.createdAt ?? new Date()).getTime(),
    ],
  };
}

export const memberDefaultsOf = (row: Row): MemberDefaults => ({
  ...settingsOf(row),
  guildId: String(row['guild_id']),
  userId: String(row['user_id']),
  updatedAt: new Date(num(row['updated_at']) ?? 0),
});

export const clonedVoiceOf = (row: Row): ClonedVoice => ({
  guildId: String(row['guild_id']),
  name: String(row['name']),
  voiceId: String(row['voice_id']),
  createdBy: String(row['created_by']),
  createdAt: new Date(num(row['created_at']) ?? 0),
  clipSeconds: num(row['clip_seconds']) ?? 0,
});

/** What a name held by another /clone's reservation is described as: its holder, no voice yet. */
export const reservationHolder = (guildId: string, name: string, reservedBy: string, now: number): ClonedVoice =>
  ({ guildId, name, voiceId: '', createdBy: reservedBy, createdAt: new Date(now), clipSeconds: 0 });

/** Service figures from the columns `prefix`used, `prefix`limit, … (absent ones left out). */
function serviceUsageOf(row: Row, prefix: string): ServiceUsage {
  const usage: ServiceUsage = {};
  const limit = num(row[`${prefix}limit`]);
  const used = num(row[`${prefix}used`]);
  const remaining = num(row[`${prefix}remaining`]);
  const resetAt = dateOf(row[`${prefix}reset_at`]);
  if (limit !== undefined) usage.limit = limit;
  if (used !== undefined) usage.used = used;
  if (remaining !== undefined) usage.remaining = remaining;
  if (resetAt !== undefined) usage.resetAt = resetAt;
  return usage;
}

/** The quota_state row (or none yet). */
export function quotaStateOf(row: Row): QuotaState {
  const state: QuotaState = {};
  const resetAt = dateOf(row['exhausted_reset_at']);
  const markedAt = dateOf(row['exhausted_marked_at']);
  if (resetAt !== undefined && markedAt !== undefined) {
    const account = str(row['exhausted_account']);
    const plan = str(row['exhausted_plan']);
    const limit = num(row['exhausted_limit']);
    state.exhausted = {
      resetAt, markedAt,
      ...(account === undefined ? {} : { account }),
      ...(plan === undefined ? {} : { plan }),
      ...(limit === undefined ? {} : { limit }),
    };
  }
  const month = str(row['service_month']);
  const updatedAt = dateOf(row['service_updated_at']);
  if (month !== undefined && updatedAt !== undefined) state.service = { ...serviceUsageOf(row, 'service_'), month, updatedAt };
  return state;
}

export const totalsOf = (row: Row | undefined): SpendTotals => ({ spent: num(row?.['spent']) ?? 0, saved: num(row?.['saved']) ?? 0 });
/** A monthBreakdown's rows (`day` or `user_id` beside the TOTALS columns). */
export const breakdownOf = (days: Row[], members: Row[]): MonthBreakdown => ({
  days: days.map((row) => ({ day: String(row['day']), ...totalsOf(row) })),
  members: members.map((row) => ({ userId: String(row['user_id']), ...totalsOf(row) })),
});
export const TOTALS = 'coalesce(sum(CASE WHEN cached = 0 THEN characters END), 0) AS spent, coalesce(sum(CASE WHEN cached = 1 THEN characters END), 0) AS saved';

const BUDGET_COLUMNS = { guildMonthlyChars: 'monthly_chars', memberDailyChars: 'member_daily_chars', memberCooldownSeconds: 'member_cooldown_seconds' } as const;

/** A guild_budgets row (or none): only the limits that are set. */
export function guildBudgetsOf(row: Row | undefined): GuildBudgetSettings {
  const budgets: GuildBudgetSettings = {};
  if (!row) return budgets;
  for (const [name, column] of Object.entries(BUDGET_COLUMNS) as Array<[keyof GuildBudgetSettings, string]>) {
    const value = num(row[column]);
    if (value !== undefined) budgets[name] = value;
  }
  return budgets;
}

/** A 0/1 flag column (NULL: unset). */
const flag = (v: unknown): boolean | undefined => {
  const n = num(v);
  return n === undefined ? undefined : n !== 0;
};

/** The guild's auto_read row (or none yet): NULL settings take AUTO_READ_DEFAULTS. */
export function autoReadStateOf(guildId: string, row: Row | undefined): AutoReadState {
  const settings: AutoReadSettings = {
    sayAuthorName: flag(row?.['say_author_name']) ?? AUTO_READ_DEFAULTS.sayAuthorName,
    maxLength: num(row?.['max_length']) ?? AUTO_READ_DEFAULTS.maxLength,
    readBots: flag(row?.['read_bots']) ?? AUTO_READ_DEFAULTS.readBots,
    onlyMembersInVoice: flag(row?.['only_members_in_voice']) ?? AUTO_READ_DEFAULTS.onlyMembersInVoice,
    announceJoinLeave: flag(row?.['announce_join_leave']) ?? AUTO_READ_DEFAULTS.announceJoinLeave,
  };
  const role = str(row?.['required_role_id']) ?? AUTO_READ_DEFAULTS.requiredRoleId;
  if (role !== undefined) settings.requiredRoleId = role;
  const state: AutoReadState = { guildId, reading: flag(row?.['reading']) ?? false, settings };
  const textChannelId = str(row?.['text_channel_id']);
  const voiceChannelId = str(row?.['voice_channel_id']);
  const startedBy = str(row?.['started_by']);
  const startedAt = dateOf(row?.['started_at']);
  if (textChannelId !== undefined && voiceChannelId !== undefined && startedBy !== undefined && startedAt !== undefined) {
    state.binding = { textChannelId, voiceChannelId, startedBy, startedAt };
  }
  return state;
}

export const dictionaryEntryOf = (row: Row): DictionaryEntry => ({ word: String(row['word']), reading: String(row['reading']) });

const outsideVoiceOutput = (v: unknown): OutsideVoiceOutput | undefined => (v === 'file' || v === 'voice-message' ? v : undefined);

/** A row of the `server` and `member` output defaults (each NULL when not set). */
export function outputDefaultsOf(row: Row | undefined): OutputDefaults {
  const defaults: OutputDefaults = {};
  const server = outsideVoiceOutput(row?.['server']);
  const member = outsideVoiceOutput(row?.['member']);
  if (server !== undefined) defaults.server = server;
  if (member !== undefined) defaults.member = member;
  return defaults;
}
