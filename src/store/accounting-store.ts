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
  /** Charged by the service (its 2xx) but its audio or voice ID never arrived: spent all the same (v7). */
  undelivered?: boolean;
  requestId?: string | undefined;
  service?: ServiceUsage | undefined;
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
  account?: string | undefined;
  /** The configured plan (VOICE_API_PLAN). */
  plan?: string | undefined;
  /** The service's monthly limit as last known when the mark was made. */
  limit?: number | undefined;
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

// Quota accounting is three areas: spends and their totals, the bot-wide quota state, server budgets with budget
// holds. They keep figures and marks only: what a 429 or a spend means (marking or clearing the used-up month) is
// decided in src/quota/, never in SQL.

/** Spends and their totals (tables spends and the running totals kept with them): `store.spends`. */
export interface SpendStore {
  /** Records a spend; a spend the service accepted also updates its usage figures (the mark is Accounting's business). */
  record(spend: NewSpend): Promise<void>;
  /** This month's totals ('YYYY-MM'), for one guild or (no guild) the whole bot. */
  monthTotals(month: string, guildId?: string): Promise<SpendTotals>;
  /** One guild's month ('YYYY-MM') per UTC day, and its `topMembers` members with the most characters. */
  monthBreakdown(month: string, guildId: string, topMembers: number): Promise<MonthBreakdown>;
  /** One member's totals in one guild on one UTC day ('YYYY-MM-DD'). */
  memberDayTotals(guildId: string, userId: string, day: string): Promise<SpendTotals>;
  /** When the member last spent characters in the guild (cache hits not counted). */
  lastSpendAt(guildId: string, userId: string): Promise<Date | undefined>;
}

/** The bot-wide quota state (table quota_state): `store.quota`. */
export interface QuotaStore {
  get(): Promise<QuotaState>;
  /** Marks the monthly quota used up until `resetAt` (or until Accounting clears it), under `by`. */
  markExhausted(resetAt: Date, at?: Date, by?: QuotaMarkAccount): Promise<void>;
  /** Removes the mark; true when there was one. */
  clearExhausted(): Promise<boolean>;
}

/** Server budgets and budget holds (tables guild_budgets, budget_holds): `store.budgets`. */
export interface BudgetStore {
  get(guildId: string): Promise<GuildBudgetSettings>;
  /** Sets the given fields (null clears one; undefined leaves it); returns the server's budgets after the change. */
  set(guildId: string, changes: { [K in keyof GuildBudgetSettings]?: number | null }, updatedBy: string): Promise<GuildBudgetSettings>;
  /**
   * Checks `characters` against the limits counting what was spent plus every live hold (from any process) and,
   * when all have room, holds them: check and hold are one transaction, serialised across processes per guild
   * (a bot-wide limit, when given, across all guilds). Only the limits given are read, each from a running
   * total kept with the spends (one row), never a sum over the month's spends.
   */
  hold(hold: NewBudgetHold): Promise<BudgetHoldResult>;
  /** Ends a hold (its spend was recorded, or it will spend nothing); unknown tokens are ignored. */
  release(token: string): Promise<void>;
  /**
   * Moves the expiry of live holds to `expiresAt`: a request renews its hold for as long as it lives (however long
   * its queue), so only a hold whose process stopped renewing it (a crash) expires. Unknown tokens are ignored.
   */
  renew(tokens: readonly string[], expiresAt: Date): Promise<void>;
}
