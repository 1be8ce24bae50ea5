// Every bound the dashboard keeps, in one place.

export interface DashboardLimits {
  /** A session ends after this long unused... */
  sessionIdleMs: number;
  /** ...and this long after login, whatever its use. */
  sessionAbsoluteMs: number;
  /** The OAuth2 state cookie's life: the time to log in on Discord. */
  stateMs: number;
  /** Login starts and returns per address per minute (a login flood). */
  loginsPerMinute: number;
  /** Requests per address per minute, everything included. */
  requestsPerMinute: number;
  /** Changes per session per minute. */
  changesPerMinute: number;
  /** A request body, in bytes; an import's own limit is the /dictionary import file's (MAX_IMPORT_BYTES). */
  bodyBytes: number;
  importBytes: number;
  /** Addresses and sessions each limit remembers at once. */
  rateKeys: number;
}

export const DEFAULT_LIMITS: DashboardLimits = {
  sessionIdleMs: 30 * 60_000,
  sessionAbsoluteMs: 8 * 3_600_000,
  stateMs: 10 * 60_000,
  loginsPerMinute: 10,
  requestsPerMinute: 300,
  changesPerMinute: 60,
  bodyBytes: 16 * 1024,
  importBytes: 512 * 1024 + 16 * 1024,
  rateKeys: 10_000,
};

/** Entries a page of the dictionary shows (500 on one page made 300 KB). */
export const ENTRIES_PER_PAGE = 50;

/** Voices a page of the voices list shows: under three screens of a phone, with the filter above them. */
export const VOICES_PER_PAGE = 20;
