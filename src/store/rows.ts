// Rows to the Store's types, once for both backends: Kysely types each row from schema.ts, so what remains is the
// naming (snake_case columns, camelCase fields), milliseconds to Dates, and leaving out what is not set.
import type { Selectable } from 'kysely';
import type { DictionaryEntry } from '../text/dictionary.ts';
import { AUTO_READ_DEFAULTS } from './auto-read-store.ts';
import type { Database } from './schema.ts';
import type {
  AutoReadSettings,
  AutoReadState,
  ClonedVoice,
  GuildBudgetSettings,
  MemberDefaults,
  OutputDefaults,
  OutsideVoiceOutput,
  Preset,
  QuotaState,
  SpendTotals,
  VoiceSettings,
} from './types.ts';

type Row<T extends keyof Database> = Selectable<Database[T]>;
type Present<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

/** Only the fields that hold a value (no null, no explicit undefined), so readers see only what is set. */
export const present = <T extends object>(fields: T): Present<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as Present<T>;

/** Only the fields given (null kept: it clears a column), for an update that leaves the others as they are. */
export const given = <T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };

export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const dateOf = (ms: number | null): Date | undefined => (ms === null ? undefined : new Date(ms));
/** A 0/1 flag column (NULL: unset). */
const flag = (v: number | null): boolean | undefined => (v === null ? undefined : v !== 0);

const settingsOf = (row: Pick<Row<'member_defaults'>, 'voice' | 'language' | 'tone' | 'exaggeration' | 'format' | 'speed' | 'volume'>): VoiceSettings =>
  present({
    voice: row.voice, language: row.language, tone: row.tone, exaggeration: row.exaggeration, format: row.format,
    speed: row.speed, volume: row.volume,
  });

export const presetOf = (row: Row<'presets'>): Preset => ({
  ...settingsOf(row),
  guildId: row.guild_id,
  name: row.name,
  voice: row.voice,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
});

export const memberDefaultsOf = (row: Row<'member_defaults'>): MemberDefaults => ({
  ...settingsOf(row),
  ...present({ spokenName: row.spoken_name, readMe: flag(row.read_me) }),
  guildId: row.guild_id,
  userId: row.user_id,
  updatedAt: new Date(row.updated_at),
});

export const clonedVoiceOf = (row: Row<'voice_library'>): ClonedVoice => ({
  guildId: row.guild_id,
  name: row.name,
  voiceId: row.voice_id,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
  clipSeconds: row.clip_seconds,
});

/** The quota_state row (or none yet). */
export function quotaStateOf(row: Row<'quota_state'> | undefined): QuotaState {
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

/** Spent and saved sums as the drivers give them (PostgreSQL's NUMERIC parsed; none: 0). */
export const totalsOf = (row: { spent: unknown; saved: unknown } | undefined): SpendTotals => ({ spent: Number(row?.spent ?? 0), saved: Number(row?.saved ?? 0) });

/** A guild_budgets row (or none): only the limits that are set. */
export const guildBudgetsOf = (row: Row<'guild_budgets'> | undefined): GuildBudgetSettings =>
  present({ guildMonthlyChars: row?.monthly_chars, memberDailyChars: row?.member_daily_chars, memberCooldownSeconds: row?.member_cooldown_seconds });

/** The guild's auto_read row (or none yet): NULL settings take AUTO_READ_DEFAULTS. */
export function autoReadStateOf(guildId: string, row: Row<'auto_read'> | undefined): AutoReadState {
  const settings: AutoReadSettings = {
    sayAuthorName: flag(row?.say_author_name ?? null) ?? AUTO_READ_DEFAULTS.sayAuthorName,
    maxLength: row?.max_length ?? AUTO_READ_DEFAULTS.maxLength,
    readBots: flag(row?.read_bots ?? null) ?? AUTO_READ_DEFAULTS.readBots,
    onlyMembersInVoice: flag(row?.only_members_in_voice ?? null) ?? AUTO_READ_DEFAULTS.onlyMembersInVoice,
    announceJoinLeave: flag(row?.announce_join_leave ?? null) ?? AUTO_READ_DEFAULTS.announceJoinLeave,
    readSilent: flag(row?.read_silent ?? null) ?? AUTO_READ_DEFAULTS.readSilent,
    autojoin: flag(row?.autojoin ?? null) ?? AUTO_READ_DEFAULTS.autojoin,
    fasterAfter: row?.faster_after ?? AUTO_READ_DEFAULTS.fasterAfter,
    maxSpeed: row?.max_speed ?? AUTO_READ_DEFAULTS.maxSpeed,
    skipAfter: row?.skip_after ?? AUTO_READ_DEFAULTS.skipAfter,
    ...present({ requiredRoleId: row?.required_role_id ?? AUTO_READ_DEFAULTS.requiredRoleId, skipPrefix: row?.skip_prefix ?? AUTO_READ_DEFAULTS.skipPrefix }),
  };
  const reading = flag(row?.reading ?? null) ?? false;
  const state: AutoReadState = { guildId, reading, settings, ...(!reading && row?.stopped_why ? { stoppedWhy: row.stopped_why } : {}) };
  if (row?.text_channel_id != null && row.voice_channel_id !== null && row.started_by !== null && row.started_at !== null) {
    state.binding = { textChannelId: row.text_channel_id, voiceChannelId: row.voice_channel_id, startedBy: row.started_by, startedAt: new Date(row.started_at) };
  }
  return state;
}

export const dictionaryEntryOf = (row: { word: string; reading: string }): DictionaryEntry => ({ word: row.word, reading: row.reading });

/** The `server` and `member` output defaults (each NULL when not set). */
export const outputDefaultsOf = (row: { server: OutsideVoiceOutput | null; member: OutsideVoiceOutput | null } | undefined): OutputDefaults =>
  present({ server: row?.server, member: row?.member });
