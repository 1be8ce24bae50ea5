import type {
  AccountingStore,
  AutoReadStore,
  DictionaryStore,
  OutputDefaultsStore,
  PresetStore,
  PrivacyStore,
  Store,
  StoreAreas,
  VoiceLibraryStore,
} from './types.ts';

type Args<A, K extends keyof A> = A[K] extends (...args: infer P) => unknown ? P : never;

/**
 * One Store from a backend's areas: each method hands over to the area that owns it, so callers keep one object
 * while each backend implements small pieces. Written out (not generated) so a new method fails the type check
 * here until it is routed.
 */
export abstract class ComposedStore implements Store {
  readonly #presets: PresetStore;
  readonly #voices: VoiceLibraryStore;
  readonly #accounting: AccountingStore;
  readonly #autoRead: AutoReadStore;
  readonly #dictionary: DictionaryStore;
  readonly #output: OutputDefaultsStore;
  readonly #privacy: PrivacyStore;

  protected constructor(areas: StoreAreas) {
    this.#presets = areas.presets;
    this.#voices = areas.voiceLibrary;
    this.#accounting = areas.accounting;
    this.#autoRead = areas.autoRead;
    this.#dictionary = areas.dictionary;
    this.#output = areas.outputDefaults;
    this.#privacy = areas.privacy;
  }

  abstract close(): Promise<void>;

  // ---- presets and defaults ----
  savePreset(...a: Args<PresetStore, 'savePreset'>) { return this.#presets.savePreset(...a); }
  getPreset(...a: Args<PresetStore, 'getPreset'>) { return this.#presets.getPreset(...a); }
  listPresets(...a: Args<PresetStore, 'listPresets'>) { return this.#presets.listPresets(...a); }
  deletePreset(...a: Args<PresetStore, 'deletePreset'>) { return this.#presets.deletePreset(...a); }
  setDefaultPreset(...a: Args<PresetStore, 'setDefaultPreset'>) { return this.#presets.setDefaultPreset(...a); }
  getDefaultPreset(...a: Args<PresetStore, 'getDefaultPreset'>) { return this.#presets.getDefaultPreset(...a); }
  getMemberDefaults(...a: Args<PresetStore, 'getMemberDefaults'>) { return this.#presets.getMemberDefaults(...a); }
  setMemberDefaults(...a: Args<PresetStore, 'setMemberDefaults'>) { return this.#presets.setMemberDefaults(...a); }
  clearMemberDefaults(...a: Args<PresetStore, 'clearMemberDefaults'>) { return this.#presets.clearMemberDefaults(...a); }

  // ---- voice library ----
  reserveClonedVoiceName(...a: Args<VoiceLibraryStore, 'reserveClonedVoiceName'>) { return this.#voices.reserveClonedVoiceName(...a); }
  releaseClonedVoiceName(...a: Args<VoiceLibraryStore, 'releaseClonedVoiceName'>) { return this.#voices.releaseClonedVoiceName(...a); }
  addClonedVoice(...a: Args<VoiceLibraryStore, 'addClonedVoice'>) { return this.#voices.addClonedVoice(...a); }
  getClonedVoice(...a: Args<VoiceLibraryStore, 'getClonedVoice'>) { return this.#voices.getClonedVoice(...a); }
  findClonedVoiceByName(...a: Args<VoiceLibraryStore, 'findClonedVoiceByName'>) { return this.#voices.findClonedVoiceByName(...a); }
  listClonedVoices(...a: Args<VoiceLibraryStore, 'listClonedVoices'>) { return this.#voices.listClonedVoices(...a); }
  deleteClonedVoice(...a: Args<VoiceLibraryStore, 'deleteClonedVoice'>) { return this.#voices.deleteClonedVoice(...a); }

  // ---- accounting ----
  recordSpend(...a: Args<AccountingStore, 'recordSpend'>) { return this.#accounting.recordSpend(...a); }
  monthTotals(...a: Args<AccountingStore, 'monthTotals'>) { return this.#accounting.monthTotals(...a); }
  monthBreakdown(...a: Args<AccountingStore, 'monthBreakdown'>) { return this.#accounting.monthBreakdown(...a); }
  memberDayTotals(...a: Args<AccountingStore, 'memberDayTotals'>) { return this.#accounting.memberDayTotals(...a); }
  lastSpendAt(...a: Args<AccountingStore, 'lastSpendAt'>) { return this.#accounting.lastSpendAt(...a); }
  getQuotaState(...a: Args<AccountingStore, 'getQuotaState'>) { return this.#accounting.getQuotaState(...a); }
  markQuotaExhausted(...a: Args<AccountingStore, 'markQuotaExhausted'>) { return this.#accounting.markQuotaExhausted(...a); }
  clearQuotaExhausted(...a: Args<AccountingStore, 'clearQuotaExhausted'>) { return this.#accounting.clearQuotaExhausted(...a); }
  holdBudget(...a: Args<AccountingStore, 'holdBudget'>) { return this.#accounting.holdBudget(...a); }
  releaseBudgetHold(...a: Args<AccountingStore, 'releaseBudgetHold'>) { return this.#accounting.releaseBudgetHold(...a); }
  renewBudgetHolds(...a: Args<AccountingStore, 'renewBudgetHolds'>) { return this.#accounting.renewBudgetHolds(...a); }
  getGuildBudgets(...a: Args<AccountingStore, 'getGuildBudgets'>) { return this.#accounting.getGuildBudgets(...a); }
  setGuildBudgets(...a: Args<AccountingStore, 'setGuildBudgets'>) { return this.#accounting.setGuildBudgets(...a); }

  // ---- auto-read ----
  getAutoRead(...a: Args<AutoReadStore, 'getAutoRead'>) { return this.#autoRead.getAutoRead(...a); }
  startAutoRead(...a: Args<AutoReadStore, 'startAutoRead'>) { return this.#autoRead.startAutoRead(...a); }
  stopAutoRead(...a: Args<AutoReadStore, 'stopAutoRead'>) { return this.#autoRead.stopAutoRead(...a); }
  listAutoReading(...a: Args<AutoReadStore, 'listAutoReading'>) { return this.#autoRead.listAutoReading(...a); }
  setAutoReadSettings(...a: Args<AutoReadStore, 'setAutoReadSettings'>) { return this.#autoRead.setAutoReadSettings(...a); }

  // ---- pronunciation dictionary ----
  listDictionary(...a: Args<DictionaryStore, 'listDictionary'>) { return this.#dictionary.listDictionary(...a); }
  putDictionaryEntry(...a: Args<DictionaryStore, 'putDictionaryEntry'>) { return this.#dictionary.putDictionaryEntry(...a); }
  removeDictionaryEntry(...a: Args<DictionaryStore, 'removeDictionaryEntry'>) { return this.#dictionary.removeDictionaryEntry(...a); }
  replaceDictionary(...a: Args<DictionaryStore, 'replaceDictionary'>) { return this.#dictionary.replaceDictionary(...a); }

  // ---- output defaults ----
  getOutputDefaults(...a: Args<OutputDefaultsStore, 'getOutputDefaults'>) { return this.#output.getOutputDefaults(...a); }
  setServerOutputDefault(...a: Args<OutputDefaultsStore, 'setServerOutputDefault'>) { return this.#output.setServerOutputDefault(...a); }
  setMemberOutputDefault(...a: Args<OutputDefaultsStore, 'setMemberOutputDefault'>) { return this.#output.setMemberOutputDefault(...a); }

  // ---- deletion on request, removed servers ----
  clonedVoicesOf(...a: Args<PrivacyStore, 'clonedVoicesOf'>) { return this.#privacy.clonedVoicesOf(...a); }
  describeMember(...a: Args<PrivacyStore, 'describeMember'>) { return this.#privacy.describeMember(...a); }
  forgetMember(...a: Args<PrivacyStore, 'forgetMember'>) { return this.#privacy.forgetMember(...a); }
  forgetGuild(...a: Args<PrivacyStore, 'forgetGuild'>) { return this.#privacy.forgetGuild(...a); }
  markGuildRemoved(...a: Args<PrivacyStore, 'markGuildRemoved'>) { return this.#privacy.markGuildRemoved(...a); }
  cancelGuildRemoval(...a: Args<PrivacyStore, 'cancelGuildRemoval'>) { return this.#privacy.cancelGuildRemoval(...a); }
  guildsRemovedBefore(...a: Args<PrivacyStore, 'guildsRemovedBefore'>) { return this.#privacy.guildsRemovedBefore(...a); }
}
