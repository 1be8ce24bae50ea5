/** How many rows of one table keep a member's ID in a column (what /privacy show lists). */
export interface PrivacyTrace {
  table: string;
  column: string;
  rows: number;
  /** A record the server's managers keep about the member: their own deletion leaves it. */
  kept: boolean;
}

/** What a deletion changed: rows removed, rows whose IDs were overwritten with a marker. */
export interface ForgetResult {
  deleted: number;
  anonymised: number;
}
