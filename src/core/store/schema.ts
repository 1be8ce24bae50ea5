// The tables for both backends (type-only: Kysely checks every query against them), as the drivers hand columns back
// (pg-store.ts parses BIGINT and NUMERIC). A column added in the migration steps is added here; features merge their
// own tables (src/features/autoread/store/store-areas.ts).
import type { Generated } from 'kysely';
import type { OutsideVoiceOutput } from './output-defaults-store.ts';
import type { SpeechSettingColumns } from '../settings/setting-declarations.ts';

type Text = string | null;
type Int = number | null;

/** The speech settings' columns, as their declarations give them (presets and member_defaults alike). */
type Settings = SpeechSettingColumns;

/** The columns of the features' fields on member_defaults (MemberFields), added by declaration merging. */
// oxlint-disable-next-line typescript/no-empty-object-type -- its members are the features'
export interface MemberFieldColumns {}

export interface Database {
  schema_migrations: { version: number; name: string; applied_at: number };
  presets: Settings & {
    id: Generated<number>;
    guild_id: string;
    name: string;
    name_key: string;
    voice: string;
    created_by: string;
    created_at: number;
  };
  guild_settings: { guild_id: string; default_preset_id: Int; updated_at: number };
  member_defaults: Settings &
    MemberFieldColumns & {
      guild_id: string;
      user_id: string;
      voice_deleted: Text;
      updated_at: number;
    };
  voice_library: {
    guild_id: string;
    voice_id: string;
    name: string;
    name_key: string;
    created_by: string;
    created_at: number;
    clip_seconds: number;
  };
  clone_name_reservations: {
    guild_id: string;
    name_key: string;
    token: string;
    reserved_by: string;
    expires_at: number;
  };
  spends: {
    id: Generated<number>;
    at: number;
    month: string;
    day: string;
    guild_id: string;
    user_id: string;
    command: string;
    endpoint: string;
    characters: number;
    cached: number;
    request_id: Text;
    service_used: Int;
    service_limit: Int;
    service_remaining: Int;
    service_reset_at: Int;
    undelivered: Generated<number>;
    /** The process sending the request or reading its audio until the spend is finished (v18); NULL once finished. */
    owner: Text;
    /** 1: written before its request left, and the service's 2xx never seen (v23). */
    unconfirmed: Generated<number>;
    /** Chosen by the bot before the write (v29): a write whose answer was lost is found by it. */
    token: Text;
  };
  spend_totals_guild_month: { guild_id: string; month: string; characters: number };
  spend_totals_member_day: { guild_id: string; user_id: string; day: string; characters: number };
  quota_state: {
    id: number;
    exhausted_reset_at: Int;
    exhausted_marked_at: Int;
    exhausted_account: Text;
    exhausted_plan: Text;
    exhausted_limit: Int;
    service_month: Text;
    service_used: Int;
    service_limit: Int;
    service_remaining: Int;
    service_reset_at: Int;
    service_updated_at: Int;
  };
  guild_budgets: {
    guild_id: string;
    monthly_chars: Int;
    member_daily_chars: Int;
    member_cooldown_seconds: Int;
    updated_by: string;
    updated_at: number;
  };
  budget_holds: {
    token: string;
    guild_id: string;
    user_id: string;
    month: string;
    day: string;
    characters: number;
    expires_at: number;
    /** The process whose request holds it (v18): given back when that process starts again. NULL: it only expires. */
    owner: Text;
  };
  guild_output_defaults: { guild_id: string; output: OutsideVoiceOutput; updated_by: string; updated_at: number };
  member_output_defaults: { guild_id: string; user_id: string; output: OutsideVoiceOutput; updated_at: number };
  removed_guilds: { guild_id: string; removed_at: number };
  /** `cause`: why, with an engine's name after a colon for its lines (`chosen:voicevox`; areas/free-voice-lines.ts). */
  free_voice_lines: { guild_id: string; month: string; cause: string; lines: number };
  store_secrets: { name: string; value: string };
  soundboard_sounds: { sound_id: string; guild_id: string; voice_id: string; saved_at: number };
  /** A deletion made by `npm run forget`, for running bots: server and member as keyed pseudonyms only. */
  forget_notices: { token: string; guild_key: string | null; member_key: string | null; at: number };
}
