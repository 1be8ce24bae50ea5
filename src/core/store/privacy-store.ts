/** How many rows of one table keep a member's ID in a column (what /privacy show lists). */
export interface PrivacyTrace {
  table: string;
  column: string;
  rows: number;
  /** A record the server's managers keep about the member: their own deletion leaves it. */
  kept: boolean;
}

/**
 * A deletion another process made (`npm run forget`): a member (in one server, or every one) or a server, each as
 * its keyed pseudonym (store.forgetNotices.guildKey, memberKey): a running bot finds whom it names among the IDs it
 * holds.
 */
export interface ForgetNotice {
  /** Random: tells one notice from another, nothing more. */
  token: string;
  guildKey?: string;
  memberKey?: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** What a deletion changed: rows removed, rows whose IDs were overwritten with a marker. */
export interface ForgetResult {
  deleted: number;
  anonymised: number;
}
