import type { UsageInfo } from '../api/errors.ts';

/** Which Voice API endpoint a spend went to. */
export type SpendEndpoint = 'tts' | 'emotion-tts' | 'voice-clone';

/** One request's characters: spent (sent to the service and charged) or saved (served from the cache). */
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
  /** Written ahead: its owner is sending or reading it; spent from now, `store.spends.finish` ends it (v18). */
  owner?: string | undefined;
  /** Written before the request left: `confirm` confirms it, `erase` takes it back on "not charged" (v23). */
  unconfirmed?: boolean | undefined;
  /** The budget hold it was held under, lowered in the same transaction (given back if released while it lives). */
  hold?: string | undefined;
  /** Chosen before its write (v29): one whose answer was lost is found by it, taken back or not written twice. */
  token?: string | undefined;
  requestId?: string | undefined;
  service?: UsageInfo | undefined;
  /** Forgotten after acceptance: recorded under the period's pseudonym (areas/forget-carry-over.ts), still counted. */
  forgotten?: 'member' | 'guild' | undefined;
}

/** What the service's 2xx for a request written ahead said. */
export interface SpendConfirmation {
  requestId?: string | undefined;
  service?: UsageInfo | undefined;
  /** When the 2xx arrived (the service's figures are dated by it). */
  at?: Date;
}

/** What a start finished of the spends its predecessor (the same owner) left written ahead. */
export interface SpendsLeft {
  /** Confirmed (the service's 2xx), their bodies never read to the end. */
  confirmed: number;
  /** Sent (or about to be), no answer seen: counted as spent, since the service may have charged them. */
  inFlight: number;
  /** The characters of those in flight: at most this many on the books more than the service charged. */
  inFlightCharacters: number;
}

/** How a spend written ahead (confirmed) ends: its audio or voice ID arrived, or it never did. */
export type SpendOutcome = 'delivered' | 'undelivered';

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

/** Who a used-up month was marked under: a change of any of these means the operator acted (src/core/quota/accounting.ts). */
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
  /** Set by a 429 "quota exceeded"; cleared by Accounting (src/core/quota/) when the service shows it is over. */
  exhausted?: { resetAt: Date; markedAt: Date } & QuotaMarkAccount;
  /** The service's latest figures for `month` (used: the highest seen that month, as it only grows). */
  service?: UsageInfo & { month: string; updatedAt: Date };
}

/** A server's own budgets (see src/core/quota/accounting.ts); a field absent = the server set none. */
export type GuildBudgetSettings = Partial<
  Record<'guildMonthlyChars' | 'memberDailyChars' | 'memberCooldownSeconds', number>
>;

/** The budgets a hold is checked against (characters; absent = no such limit), in the order Accounting checks them. */
export type BudgetHoldLimits = Partial<Record<'guildMonthlyChars' | 'memberDailyChars' | 'botMonthlyChars', number>>;

/** Characters held from a budget check until the spend is recorded, so every process counts them. */
export interface NewBudgetHold {
  guildId: string;
  userId: string;
  characters: number;
  limits: BudgetHoldLimits;
  ttlMs: number;
  at?: Date;
  /** The process holding it (its books owner), so that it gives the hold back when it starts again after a crash. */
  owner?: string | undefined;
}

/** The first of a hold's limits, in their order, that its characters would pass: what the hold found it used. */
export type BudgetPassed = { budget: keyof BudgetHoldLimits; limit: number; used: number; needed: number };
export type BudgetHoldResult = { status: 'held'; token: string } | ({ status: 'refused' } & BudgetPassed);
