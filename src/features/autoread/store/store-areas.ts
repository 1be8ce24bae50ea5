// Auto-read's part of the store: its areas, added to the core's Store, and its tables, added to the schema's
// Database, both by declaration merging, so callers write `store.autoRead.get(…)` and Kysely checks these tables'
// queries as it checks the core's. src/app/store.ts makes the areas (autoReadAreas) for every store it opens. The
// tables' SQL is the core's migration steps' (src/core/store/migrations.ts): released steps are history.
import type { Generated } from 'kysely';
import type { Dialect } from '../../../core/store/dialect.ts';
import type { Operations } from '../../../core/store/types.ts';
import type { AutoReadSettingColumns } from '../reading/setting-declarations.ts';
import { AutoReadArea } from './auto-read-area.ts';
import { AutoReadMembersArea } from './auto-read-members-area.ts';
import type { AutoReadStopReason } from './auto-read-store.ts';
import { DictionaryArea } from './dictionary-area.ts';

type Text = string | null;
type Int = number | null;

declare module '../../../core/store/types.ts' {
  interface Store {
    autoRead: Operations<AutoReadArea>;
    autoReadMembers: Operations<AutoReadMembersArea>;
    dictionary: Operations<DictionaryArea>;
  }
}

declare module '../../../core/store/schema.ts' {
  interface Database {
    /** The binding and reading state, and each setting's column (declared with the setting: AutoReadSettingColumns). */
    auto_read: AutoReadSettingColumns & {
      guild_id: string;
      reading: Generated<number>;
      text_channel_id: Text;
      voice_channel_id: Text;
      started_by: Text;
      started_at: Int;
      stopped_why: AutoReadStopReason | null;
      settings_updated_by: Text;
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
  }
}

/** Auto-read's areas over a store's database. */
export const autoReadAreas = (dialect: Dialect) => ({
  autoRead: new AutoReadArea(dialect),
  autoReadMembers: new AutoReadMembersArea(dialect),
  dictionary: new DictionaryArea(dialect),
});
