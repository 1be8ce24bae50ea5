/**
 * The storage contract the rest of SayBot uses: one `Store`, one object per area, as `store.presets.get(…)`. An
 * area's operations are its class's public methods, written once on Kysely for SQLite and PostgreSQL
 * (the core's in src/core/store/areas/, a feature's in its own store/ folder; each query checked against schema.ts);
 * the values they take and give are the types of the <area>-store.ts modules. Every method is async so that a
 * client/server database (PostgreSQL) implements it as well as SQLite. IDs are Discord snowflakes as strings. Names are
 * matched case-insensitively (names.ts: `nameKey`).
 */
import type { BudgetArea } from './areas/budget-holds.ts';
import type { FreeVoiceLinesArea } from './areas/free-voice-lines.ts';
import type { OutputDefaultsArea } from './areas/output-defaults.ts';
import type { MemberDefaultsArea } from './areas/member-defaults.ts';
import type { PresetArea } from './areas/presets.ts';
import type { ForgetNoticeArea, PrivacyArea, RemovedGuildArea } from './areas/privacy.ts';
import type { QuotaArea } from './areas/quota-state.ts';
import type { SpendArea } from './areas/spends.ts';
import type { VoiceLibraryArea } from './areas/voice-library.ts';

/** An area as its callers see it: its operations, not the dialect they run on (a wrapper may stand in for it). */
export type Operations<Area> = { [K in keyof Area]: Area[K] };

/** The core's areas, which every store has. */
export interface CoreAreas {
  presets: Operations<PresetArea>;
  memberDefaults: Operations<MemberDefaultsArea>;
  voiceLibrary: Operations<VoiceLibraryArea>;
  spends: Operations<SpendArea>;
  quota: Operations<QuotaArea>;
  budgets: Operations<BudgetArea>;
  outputDefaults: Operations<OutputDefaultsArea>;
  privacy: Operations<PrivacyArea>;
  removedGuilds: Operations<RemovedGuildArea>;
  forgetNotices: Operations<ForgetNoticeArea>;
  freeVoiceLines: Operations<FreeVoiceLinesArea>;
}

/**
 * The store: kysely-store.ts implements it once; tests wrap it (a failing or slow store). A feature adds its own
 * areas to this interface by declaration merging (src/features/autoread/store/store-areas.ts); every store the app
 * opens (src/app/store.ts) holds them beside the core's.
 */
export interface Store extends CoreAreas {
  /** Waits for nothing pending and releases the database. Further calls fail. Idempotent. */
  close(): Promise<void>;
}

/** The areas the features added to Store: what src/app/store.ts makes for each store it opens. */
export type FeatureAreas = Omit<Store, keyof CoreAreas | 'close'>;

/** How long the store waits on its database, by kind of wait (milliseconds). */
export interface StoreTimeouts {
  deadlineMs: number;
  connectMs: number;
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
  keepAliveMs: number;
}
