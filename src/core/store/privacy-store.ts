/** How many rows of one table keep a member's ID in a column (what /privacy show lists). */
export interface PrivacyTrace {
  table: string;
  column: string;
  rows: number;
  /** A record the server's managers keep about the member: their own deletion leaves it. */
  kept: boolean;
}

/** A deletion another process made (`npm run forget`), by keyed pseudonyms a running bot matches against its IDs. */
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
