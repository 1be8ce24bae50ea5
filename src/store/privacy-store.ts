import type { ClonedVoice } from './voice-library-store.ts';

/** How many rows of one table keep a member's ID in a column (what /privacy show lists). */
export interface PrivacyTrace {
  table: string;
  column: string;
  rows: number;
}

/** What a deletion changed: rows removed, rows whose IDs were overwritten with a marker. */
export interface ForgetResult {
  deleted: number;
  anonymised: number;
}

/** Deletion on request (issue 22, point 5; the tables' rules are forget-plan.ts'): `store.privacy`. */
export interface PrivacyStore {
  /** The voices a member cloned, in one guild or every guild; at most 1000 (a library holds far fewer). */
  clonedVoicesOf(userId: string, guildId?: string): Promise<ClonedVoice[]>;
  /** Rows that keep this member's ID in this guild, per table and column; only those with rows. */
  describeMember(guildId: string, userId: string): Promise<PrivacyTrace[]>;
  /**
   * Forgets a member in one guild, or in every guild (guildId undefined), in one transaction: their own rows
   * deleted, their ID elsewhere (spends, authorship) replaced by one non-reversible marker; the running total of
   * the day of `at` (default now) under a keyed pseudonym, so their daily budget still counts it.
   */
  forgetMember(userId: string, guildId?: string, at?: Date): Promise<ForgetResult>;
  /**
   * Forgets a guild in one transaction: its rows deleted, its spends anonymised (guild and members); the running
   * total of the month of `at` (default now) under a keyed pseudonym, so its monthly budget still counts it.
   */
  forgetGuild(guildId: string, at?: Date): Promise<ForgetResult>;
}

/** The servers SayBot was removed from (table removed_guilds), whose data goes after a grace period: `store.removedGuilds`. */
export interface RemovedGuildStore {
  /** Records when SayBot was removed from the guild; a second removal keeps the first time. */
  mark(guildId: string, at: Date): Promise<void>;
  /** SayBot is back in the guild: its data stays. True if a removal was pending. */
  cancel(guildId: string): Promise<boolean>;
  /** Guilds removed at or before `cutoff`, oldest first, at most `limit`. */
  removedBefore(cutoff: Date, limit: number): Promise<string[]>;
}
