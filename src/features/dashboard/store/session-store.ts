// The values the dashboard's sessions area takes and gives (types only).

/** A signed-in browser, as the store keeps it: never the session ID itself, only its hash (session-area.ts). */
export interface DashboardSession {
  /** SHA-256 of the session ID, hex: what the row is found by. */
  idHash: string;
  userId: string;
  /** The Discord username at login, for the page header. */
  userName: string;
  /** Servers the member's guild list named at login: where to look, never a right. */
  guildHints: readonly string[];
  createdAt: number;
  seenAt: number;
}

/** How long a session lives: since its last use (idle) and since login (absolute), in milliseconds. */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}
