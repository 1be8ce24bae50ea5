/**
 * The storage contract the rest of SayBot uses. Every method is async so that a client/server database
 * (PostgreSQL) can implement it later without touching commands; the SQLite implementation answers at once.
 * IDs are Discord snowflakes as strings. Names are matched case-insensitively (see names.ts: `nameKey`).
 */

export type OutputFormat = 'wav' | 'mp3';

/** The speech settings a preset or a member default may fix; each one left out falls through to the next layer. */
export interface VoiceSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: OutputFormat;
}

export interface Preset extends VoiceSettings {
  guildId: string;
  /** As the admin typed it; unique in the guild ignoring case and width. */
  name: string;
  voice: string;
  createdBy: string;
  createdAt: Date;
}

export type NewPreset = Omit<Preset, 'createdAt'> & { createdAt?: Date };

export interface MemberDefaults extends VoiceSettings {
  guildId: string;
  userId: string;
  updatedAt: Date;
}

/** A voice cloned from a clip (/clone, issue 4): usable in its guild only. */
export interface ClonedVoice {
  guildId: string;
  name: string;
  /** The service's opaque ID (X-Voice-Id). */
  voiceId: string;
  createdBy: string;
  createdAt: Date;
  clipSeconds: number;
}

export type NewClonedVoice = Omit<ClonedVoice, 'createdAt'> & { createdAt?: Date };

export interface ListOptions {
  /** Keep only names (or voice IDs) containing this text, ignoring case. */
  contains?: string;
  /** Most rows returned; default: all. */
  limit?: number;
}

export interface PresetListOptions extends ListOptions {
  /** Keep presets in this language, and those that fix none. */
  language?: string;
}

export type SavePresetResult = { status: 'created' | 'updated'; preset: Preset } | { status: 'full'; limit: number };

export interface DeletedPreset {
  preset: Preset;
  /** It was the guild's default preset, which is now unset (same transaction). */
  wasDefault: boolean;
}

export type AddClonedVoiceResult = { status: 'added'; voice: ClonedVoice } | { status: 'name-taken'; existing: ClonedVoice } | { status: 'full'; limit: number };

export interface NewNameReservation {
  guildId: string;
  name: string;
  reservedBy: string;
  /** How long the name is held if nobody adds or releases it. */
  ttlMs: number;
  maxPerGuild?: number;
  now?: Date;
}

export type NameReservationResult = { status: 'reserved'; token: string } | { status: 'name-taken' } | { status: 'full'; limit: number };

export interface DeletedClonedVoice {
  voice: ClonedVoice;
  /** Presets that spoke with it, removed with it so none points at a voice that no longer exists. */
  presetsRemoved: string[];
  /** Member defaults whose voice was it; their voice is unset, the other fields kept. */
  memberDefaultsCleared: number;
}

/** Which Voice API endpoint a spend went to. */
export type SpendEndpoint = 'tts' | 'emotion-tts' | 'voice-clone';

/** The service's own usage figures (X-RateLimit-* headers), when a response carried them. */
export interface ServiceUsage {
  limit?: number;
  used?: number;
  remaining?: number;
  resetAt?: Date;
}

/** One request's characters: spent (sent to the service and accepted) or saved (served from the cache). */
export interface NewSpend {
  at?: Date;
  guildId: string;
  userId: string;
  command: string;
  endpoint: SpendEndpoint;
  /** Code points after NFC of the text sent (or that would have been sent, for a cache hit). */
  characters: number;
  /** Served from the cache (or a request in flight): no characters spent, `characters` were saved. */
  cached: boolean;
  requestId?: string;
  service?: ServiceUsage;
}

export interface SpendTotals {
  /** Characters sent to the service. */
  spent: number;
  /** Characters the cache saved. */
  saved: number;
}

/** One guild's month for the /usage chart: day by day, and the members who used the most. */
export interface MonthBreakdown {
  /** Only the UTC days ('YYYY-MM-DD') that had any spend or saving, in order. */
  days: Array<SpendTotals & { day: string }>;
  /** Most characters (spent + saved) first, at most the number asked for. */
  members: Array<SpendTotals & { userId: string }>;
}

/** Who a used-up month was marked under: a change of any of these means the operator acted (quota/accounting.ts). */
export interface QuotaMarkAccount {
  /** A fingerprint of the API key (a hash prefix, never the key). */
  account?: string;
  /** The configured plan (VOICE_API_PLAN). */
  plan?: string;
  /** The service's monthly limit as last known when the mark was made. */
  limit?: number;
}

/** The bot-wide quota picture kept between restarts. */
export interface QuotaState {
  /** Set by a 429 "quota exceeded"; cleared by Accounting (src/quota/) when the service shows it is over. */
  exhausted?: { resetAt: Date; markedAt: Date } & QuotaMarkAccount;
  /** The service's latest figures for `month` (used: the highest seen that month, as it only grows). */
  service?: ServiceUsage & { month: string; updatedAt: Date };
}

/** A server's own budgets (see src/quota/budgets.ts); a field absent = the server set none. */
export type GuildBudgetSettings = Partial<Record<'guildMonthlyChars' | 'memberDailyChars' | 'memberCooldownSeconds', number>>;

/** The budgets a hold is checked against (characters; absent = no such limit). */
export type BudgetHoldLimits = Partial<Record<'guildMonthlyChars' | 'memberDailyChars' | 'botMonthlyChars', number>>;

/**
 * Characters a request may spend, held in the database from the budget check until its spend is recorded, so
 * that checks in other processes (shards, machines) count them too. A hold left by a crash expires.
 */
export interface NewBudgetHold {
  guildId: string;
  userId: string;
  characters: number;
  limits: BudgetHoldLimits;
  ttlMs: number;
  at?: Date;
}

export type BudgetHoldResult =
  | { status: 'held'; token: string }
  | { status: 'refused'; budget: keyof BudgetHoldLimits; limit: number; used: number; needed: number };

export interface Store {
  // Presets
  /** Creates the preset, or replaces the one of the same name (its default status is kept). */
  savePreset(preset: NewPreset, options?: { maxPerGuild?: number }): Promise<SavePresetResult>;
  getPreset(guildId: string, name: string): Promise<Preset | undefined>;
  listPresets(guildId: string, options?: PresetListOptions): Promise<Preset[]>;
  /** Removes a preset; when it was the default, the guild is left without one. */
  deletePreset(guildId: string, name: string): Promise<DeletedPreset | undefined>;

  // Guild settings
  /** Sets (name) or clears (null) the default preset. False when no preset has that name. */
  setDefaultPreset(guildId: string, name: string | null): Promise<boolean>;
  getDefaultPreset(guildId: string): Promise<Preset | undefined>;

  // Member defaults
  getMemberDefaults(guildId: string, userId: string): Promise<MemberDefaults | undefined>;
  /** Merges the given fields into the member's defaults (creating them); fields left undefined stay as they were. */
  setMemberDefaults(guildId: string, userId: string, settings: VoiceSettings): Promise<MemberDefaults>;
  clearMemberDefaults(guildId: string, userId: string): Promise<boolean>;

  // Voice library (cloned voices)
  /**
   * Holds a name for a /clone from before its paid call: refused when a voice or another unexpired reservation
   * has the name, or when voices plus reservations fill the library. Expires after `ttlMs` (a crashed request).
   */
  reserveClonedVoiceName(reservation: NewNameReservation): Promise<NameReservationResult>;
  /** Gives a reserved name back (the paid call failed); unknown tokens are ignored. */
  releaseClonedVoiceName(token: string): Promise<void>;
  /** Adds a voice; with `reservation`, its own reservation does not count against it and is removed with the insert. */
  addClonedVoice(voice: NewClonedVoice, options?: { maxPerGuild?: number; reservation?: string }): Promise<AddClonedVoiceResult>;
  /** The guild's cloned voice with this ID; undefined for another guild's, so it cannot be borrowed. */
  getClonedVoice(guildId: string, voiceId: string): Promise<ClonedVoice | undefined>;
  findClonedVoiceByName(guildId: string, name: string): Promise<ClonedVoice | undefined>;
  listClonedVoices(guildId: string, options?: ListOptions): Promise<ClonedVoice[]>;
  /** Removes a cloned voice and, in the same transaction, what speaks with it (see DeletedClonedVoice). */
  deleteClonedVoice(guildId: string, voiceId: string): Promise<DeletedClonedVoice | undefined>;

  // Quota accounting
  /** Records a spend; a spend the service accepted also updates its usage figures (the mark is Accounting's business). */
  recordSpend(spend: NewSpend): Promise<void>;
  /** This month's totals ('YYYY-MM'), for one guild or (no guild) the whole bot. */
  monthTotals(month: string, guildId?: string): Promise<SpendTotals>;
  /** One guild's month ('YYYY-MM') per UTC day, and its `topMembers` members with the most characters. */
  monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown>;
  /** One member's totals in one guild on one UTC day ('YYYY-MM-DD'). */
  memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals>;
  /** When the member last spent characters in the guild (cache hits not counted). */
  lastSpendAt(guildId: string, userId: string): Promise<Date | undefined>;
  getQuotaState(): Promise<QuotaState>;
  /** Marks the monthly quota used up until `resetAt` (or until Accounting clears it), under `by`. */
  markQuotaExhausted(resetAt: Date, at?: Date, by?: QuotaMarkAccount): Promise<void>;
  /** Removes the mark; true when there was one. */
  clearQuotaExhausted(): Promise<boolean>;
  /**
   * Checks `characters` against the limits counting what was spent plus every live hold (from any process) and,
   * when all have room, holds them: check and hold are one transaction, serialised across processes.
   */
  holdBudget(hold: NewBudgetHold): Promise<BudgetHoldResult>;
  /** Ends a hold (its spend was recorded, or it will spend nothing); unknown tokens are ignored. */
  releaseBudgetHold(token: string): Promise<void>;

  // Server budgets
  getGuildBudgets(guildId: string): Promise<GuildBudgetSettings>;
  /** Sets the given fields (null clears one; undefined leaves it); returns the server's budgets after the change. */
  setGuildBudgets(guildId: string, changes: { [K in keyof GuildBudgetSettings]?: number | null }, updatedBy: string): Promise<GuildBudgetSettings>;

  /** Waits for nothing pending and releases the database. Further calls fail. Idempotent. */
  close(): Promise<void>;
}
