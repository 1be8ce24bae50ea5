import { AutoReadArea } from './areas/auto-read.ts';
import { AutoReadMembersArea } from './areas/auto-read-members.ts';
import { BudgetArea } from './areas/budget-holds.ts';
import { DictionaryArea } from './areas/dictionary.ts';
import { OutputDefaultsArea } from './areas/output-defaults.ts';
import { MemberDefaultsArea } from './areas/member-defaults.ts';
import { PresetArea } from './areas/presets.ts';
import { PrivacyArea, RemovedGuildArea } from './areas/privacy.ts';
import { QuotaArea } from './areas/quota-state.ts';
import { SpendArea } from './areas/spends.ts';
import { VoiceLibraryArea } from './areas/voice-library.ts';
import type { Dialect } from './dialect.ts';
import type { Store } from './types.ts';

/** The Store, written once on Kysely: each area over one database, whichever backend opened it. */
export abstract class KyselyStore implements Store {
  readonly presets: PresetArea;
  readonly memberDefaults: MemberDefaultsArea;
  readonly voiceLibrary: VoiceLibraryArea;
  readonly spends: SpendArea;
  readonly quota: QuotaArea;
  readonly budgets: BudgetArea;
  readonly autoRead: AutoReadArea;
  readonly autoReadMembers: AutoReadMembersArea;
  readonly dictionary: DictionaryArea;
  readonly outputDefaults: OutputDefaultsArea;
  readonly privacy: PrivacyArea;
  readonly removedGuilds: RemovedGuildArea;
  protected readonly dialect: Dialect;
  readonly #release: () => Promise<void>;

  /** `release` frees the backend's connection or pool: Kysely destroys only a driver it has used. */
  protected constructor(dialect: Dialect, release: () => Promise<void>) {
    this.dialect = dialect;
    this.#release = release;
    this.presets = new PresetArea(dialect);
    this.memberDefaults = new MemberDefaultsArea(dialect);
    this.voiceLibrary = new VoiceLibraryArea(dialect);
    this.spends = new SpendArea(dialect);
    this.quota = new QuotaArea(dialect);
    this.budgets = new BudgetArea(dialect);
    this.autoRead = new AutoReadArea(dialect);
    this.autoReadMembers = new AutoReadMembersArea(dialect);
    this.dictionary = new DictionaryArea(dialect);
    this.outputDefaults = new OutputDefaultsArea(dialect);
    this.privacy = new PrivacyArea(dialect);
    this.removedGuilds = new RemovedGuildArea(dialect);
  }

  /** Releases the database (idempotent); every later call fails. */
  async close(): Promise<void> {
    await this.dialect.db.destroy();
    await this.#release();
  }
}
