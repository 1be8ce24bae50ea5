/**
 * The storage contract the rest of SayBot uses: one `Store`, made of one small interface per area, each written
 * once on Kysely (src/store/areas/) for both SQLite and PostgreSQL. Every method is async so that a client/server
 * database (PostgreSQL) implements it as well as SQLite. IDs are Discord snowflakes as strings. Names are matched
 * case-insensitively (names.ts: `nameKey`).
 */
import type { BudgetStore, QuotaStore, SpendStore } from './accounting-store.ts';
import type { AutoReadStore } from './auto-read-store.ts';
import type { DictionaryStore } from './dictionary-store.ts';
import type { OutputDefaultsStore } from './output-defaults-store.ts';
import type { MemberDefaultsStore, PresetStore } from './preset-store.ts';
import type { PrivacyStore, RemovedGuildStore } from './privacy-store.ts';
import type { VoiceLibraryStore } from './voice-library-store.ts';

export type * from './accounting-store.ts';
export type * from './auto-read-store.ts';
export type * from './dictionary-store.ts';
export type * from './output-defaults-store.ts';
export type * from './preset-store.ts';
export type * from './privacy-store.ts';
export type * from './voice-library-store.ts';

export type * from './shared-types.ts';

/** The store: one object per area (each a type above), as `store.presets.get(…)`; kysely-store.ts implements it once. */
export interface Store {
  presets: PresetStore;
  memberDefaults: MemberDefaultsStore;
  voiceLibrary: VoiceLibraryStore;
  spends: SpendStore;
  quota: QuotaStore;
  budgets: BudgetStore;
  autoRead: AutoReadStore;
  dictionary: DictionaryStore;
  outputDefaults: OutputDefaultsStore;
  privacy: PrivacyStore;
  removedGuilds: RemovedGuildStore;
  /** Waits for nothing pending and releases the database. Further calls fail. Idempotent. */
  close(): Promise<void>;
}
