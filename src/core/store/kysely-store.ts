import { FreeVoiceLinesArea } from './areas/free-voice-lines.ts';
import { OutputDefaultsArea } from './areas/output-defaults.ts';
import { MemberDefaultsArea } from './areas/member-defaults.ts';
import type { MemberField } from './member-defaults-store.ts';
import { PresetArea } from './areas/presets.ts';
import { ForgetNoticeArea, PrivacyArea, RemovedGuildArea } from './areas/privacy.ts';
import { QuotaArea } from './areas/quota-state.ts';
import { BudgetArea, SpendArea } from './areas/spends.ts';
import { VoiceLibraryArea, type VoiceRows } from './areas/voice-library.ts';
import type { Dialect } from './dialect.ts';
import { CORE_FORGET_RULES, type ForgetRule } from './forget-plan.ts';
import type { SchemaStep } from './schema-steps.ts';
import type { CoreAreas, FeatureAreas } from './types.ts';

/** Makes the features' areas over a store's database; src/app/store.ts supplies it, so the core names no feature. */
type FeatureAreaFactory = (dialect: Dialect) => FeatureAreas;

/** The features' part of every store, as the composition root gathers them (src/app/store.ts). */
export interface StoreFeatures {
  /** The features' areas over the store's database. */
  areas: FeatureAreaFactory;
  /** What deleting a member or a server does in the features' tables (forget-plan.ts' rules). */
  forgetRules: readonly ForgetRule[];
  /** The features' rows that name a cloned voice, deleted with it. */
  voiceRows: readonly VoiceRows[];
  /** The features' fields on a member's row (member_defaults), as declared with the settings kit. */
  memberFields: readonly MemberField[];
  /** Each feature's schema steps (its tables), run with the core's by version (migrations.ts' storeSchema). */
  schemaSteps: ReadonlyArray<readonly SchemaStep[]>;
}

/** The Store, written once on Kysely over whichever backend opened it, with the features' areas (`withFeatures`). */
export abstract class KyselyStore implements CoreAreas {
  readonly presets: PresetArea;
  readonly memberDefaults: MemberDefaultsArea;
  readonly voiceLibrary: VoiceLibraryArea;
  readonly spends: SpendArea;
  readonly quota: QuotaArea;
  readonly budgets: BudgetArea;
  readonly outputDefaults: OutputDefaultsArea;
  readonly privacy: PrivacyArea;
  readonly removedGuilds: RemovedGuildArea;
  readonly forgetNotices: ForgetNoticeArea;
  readonly freeVoiceLines: FreeVoiceLinesArea;
  protected readonly dialect: Dialect;
  readonly #release: () => Promise<void>;

  /** `release` frees the backend's connection or pool: Kysely destroys only a driver it has used. */
  protected constructor(dialect: Dialect, release: () => Promise<void>, features: StoreFeatures) {
    this.dialect = dialect;
    this.#release = release;
    this.presets = new PresetArea(dialect);
    this.memberDefaults = new MemberDefaultsArea(dialect, features.memberFields);
    this.voiceLibrary = new VoiceLibraryArea(dialect, features.voiceRows);
    this.spends = new SpendArea(dialect);
    this.quota = new QuotaArea(dialect);
    this.budgets = new BudgetArea(dialect);
    this.outputDefaults = new OutputDefaultsArea(dialect);
    this.privacy = new PrivacyArea(dialect, [...CORE_FORGET_RULES, ...features.forgetRules]);
    this.removedGuilds = new RemovedGuildArea(dialect);
    this.forgetNotices = new ForgetNoticeArea(dialect);
    this.freeVoiceLines = new FreeVoiceLinesArea(dialect);
  }

  /** The store with the features' areas beside the core's, over its database. */
  protected static withFeatures<S extends KyselyStore>(store: S, featureAreas: FeatureAreaFactory): S & FeatureAreas {
    return Object.assign(store, featureAreas(store.dialect));
  }

  /** Releases the database (idempotent); every later call fails. */
  async close(): Promise<void> {
    await this.dialect.db.destroy();
    await this.#release();
  }
}
