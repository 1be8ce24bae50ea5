/**
 * The storage contract the rest of SayBot uses: one `Store`, made of one small interface per area, so a backend
 * implements each area on its own (src/store/sqlite/, src/store/pg/) and composed-store.ts puts them together.
 * Every method is async so that a client/server database (PostgreSQL) implements it as well as SQLite, which
 * answers at once. IDs are Discord snowflakes as strings. Names are matched case-insensitively (names.ts: `nameKey`).
 */
import type { AccountingStore } from './accounting-store.ts';
import type { AutoReadStore } from './auto-read-store.ts';
import type { DictionaryStore } from './dictionary-store.ts';
import type { OutputDefaultsStore } from './output-defaults-store.ts';
import type { PresetStore } from './preset-store.ts';
import type { PrivacyStore } from './privacy-store.ts';
import type { VoiceLibraryStore } from './voice-library-store.ts';

export type * from './accounting-store.ts';
export type * from './auto-read-store.ts';
export type * from './dictionary-store.ts';
export type * from './output-defaults-store.ts';
export type * from './preset-store.ts';
export type * from './privacy-store.ts';
export type * from './voice-library-store.ts';

export type OutputFormat = 'wav' | 'mp3';

/** The speech settings a preset or a member default may fix; each one left out falls through to the next layer. */
export interface VoiceSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: OutputFormat;
}

export interface ListOptions {
  /** Keep only names (or voice IDs) containing this text, ignoring case. */
  contains?: string;
  /** Most rows returned; default: all. */
  limit?: number;
}

/** Every area, as one backend provides them (see composed-store.ts). */
export interface StoreAreas {
  presets: PresetStore;
  voiceLibrary: VoiceLibraryStore;
  accounting: AccountingStore;
  autoRead: AutoReadStore;
  dictionary: DictionaryStore;
  outputDefaults: OutputDefaultsStore;
  privacy: PrivacyStore;
}

export interface Store extends PresetStore, VoiceLibraryStore, AccountingStore, AutoReadStore, DictionaryStore, OutputDefaultsStore, PrivacyStore {
  /** Waits for nothing pending and releases the database. Further calls fail. Idempotent. */
  close(): Promise<void>;
}
