// Auto-read's part of the store: its areas and tables added to the core's Store and Database by declaration merging.
import type { Generated } from 'kysely';
import type { VoiceRows } from '../../../core/store/areas/voice-library.ts';
import type { Dialect } from '../../../core/store/dialect.ts';
import type { ForgetRule } from '../../../core/store/forget-plan.ts';
import type { Operations } from '../../../core/store/types.ts';
import type { AutoReadSettingColumns } from '../setting-declarations.ts';
import { AutoReadArea } from './auto-read-area.ts';
import { AutoReadMembersArea } from './auto-read-members-area.ts';
import type { AutoReadStopReason } from './auto-read-store.ts';
import { DictionaryArea } from './dictionary-area.ts';

type Text = string | null;

declare module '../../../core/store/types.ts' {
  interface Store {
    autoRead: Operations<AutoReadArea>;
    autoReadMembers: Operations<AutoReadMembersArea>;
    dictionary: Operations<DictionaryArea>;
  }
}

declare module '../../../core/store/schema.ts' {
  interface Database {
    /** The server's settings, each in its column (declared with the setting: AutoReadSettingColumns). */
    auto_read: AutoReadSettingColumns & { guild_id: string; settings_updated_by: Text; updated_at: number };
    /** A text channel read into a voice channel: one per (server, voice channel), reading or kept to resume. */
    auto_read_bindings: {
      guild_id: string;
      voice_channel_id: string;
      text_channel_id: string;
      reading: Generated<number>;
      stopped_why: AutoReadStopReason | null;
      started_by: string;
      started_at: number;
      updated_at: number;
    };
    auto_read_voice_pool: { guild_id: string; voice: string; added_by: string; added_at: number };
    auto_read_member_voices: { guild_id: string; user_id: string; voice: string; assigned_at: number };
    auto_read_ignored: { guild_id: string; user_id: string; ignored_by: string; ignored_at: number };
    dictionary_entries: {
      guild_id: string;
      word_key: string;
      word: string;
      reading: string;
      updated_by: string;
      updated_at: number;
      /** A word, or a pattern (held in `word`); position: the order entries apply in, from 1 per guild. */
      kind: 'word' | 'pattern';
      position: number;
    };
    /** A token that changes with every change of the server's dictionary (DictionaryArea.version). */
    dictionary_versions: { guild_id: string; version: string };
  }
}

/** Auto-read's areas over a store's database. */
export const autoReadAreas = (dialect: Dialect) => ({
  autoRead: new AutoReadArea(dialect),
  autoReadMembers: new AutoReadMembersArea(dialect),
  dictionary: new DictionaryArea(dialect),
});

/** Where auto-read's tables keep a member's or a server's ID, and what deleting them does there. */
export const AUTO_READ_FORGET_RULES: readonly ForgetRule[] = [
  { table: 'auto_read', memberColumns: { settings_updated_by: 'mark' }, guildRows: 'delete' },
  { table: 'auto_read_bindings', memberColumns: { started_by: 'mark' }, guildRows: 'delete' },
  { table: 'auto_read_voice_pool', memberColumns: { added_by: 'mark' }, guildRows: 'delete' },
  { table: 'auto_read_member_voices', memberColumns: { user_id: 'delete' }, guildRows: 'delete' },
  // An ignore is the managers' record: the member's own deletion keeps it; unignore or the server's deletion ends it.
  { table: 'auto_read_ignored', memberColumns: { user_id: 'keep', ignored_by: 'mark' }, guildRows: 'delete' },
  { table: 'dictionary_entries', memberColumns: { updated_by: 'mark' }, guildRows: 'delete' },
  // Goes with the entries; a token is random, so the one a server gets next is never one a reader kept.
  { table: 'dictionary_versions', memberColumns: {}, guildRows: 'delete' },
];

/** Auto-read's rows naming a clone: deleting it takes it out of the pool. */
export const AUTO_READ_VOICE_ROWS: readonly VoiceRows[] = [
  { table: 'auto_read_voice_pool', voiceColumn: 'voice' },
  { table: 'auto_read_member_voices', voiceColumn: 'voice' },
];
