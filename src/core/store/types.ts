/** The storage contract: one `Store`, one object per area (`store.presets.get(…)`), written once on Kysely for SQLite
 * and PostgreSQL (src/core/store/areas/, or a feature's store/ folder); its types are the <area>-store.ts modules.
 * Async throughout; IDs are snowflake strings; names match case-insensitively (names.ts: `nameKey`). */
import type { FreeVoiceLinesArea } from './areas/free-voice-lines.ts';
import type { OutputDefaultsArea } from './areas/output-defaults.ts';
import type { MemberDefaultsArea } from './areas/member-defaults.ts';
import type { PresetArea } from './areas/presets.ts';
import type { ForgetNoticeArea, PrivacyArea, RemovedGuildArea } from './areas/privacy.ts';
import type { QuotaArea } from './areas/quota-state.ts';
import type { BudgetArea, SpendArea } from './areas/spends.ts';
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

/** The store (kysely-store.ts); features merge areas in (src/features/autoread/store/store-areas.ts). */
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
