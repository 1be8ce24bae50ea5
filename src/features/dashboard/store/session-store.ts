// The values the dashboard's sessions area takes and gives (types only).

/** A signed-in browser, as the store keeps it: never the session ID itself, only its hash (session-area.ts). */
export interface DashboardSession {
  /** SHA-256 of the session ID, hex: what the row is found by. */
  idHash: string;
  userId: string;
  /** The Discord username at login, for the page header. */
  userName: string;
  /**
   * The servers the member's Discord guild list named at login that SayBot serves: where to look, never a right
   * (each is checked against SayBot's own view on every page and write).
   */
  guildHints: readonly string[];
  createdAt: number;
  seenAt: number;
}

/** How long a session lives: since its last use (idle) and since login (absolute), in milliseconds. */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}
