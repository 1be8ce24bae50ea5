// Every bound the dashboard keeps, in one place.

export const DEFAULT_LIMITS = {
  /** A session ends after this long unused... */
  sessionIdleMs: 30 * 60_000,
  /** ...and this long after login, whatever its use. */
  sessionAbsoluteMs: 8 * 3_600_000,
  /** The OAuth2 state cookie's life: the time to log in on Discord. */
  stateMs: 10 * 60_000,
  /** Login starts and returns per address per minute (a login flood). */
  loginsPerMinute: 10,
  /** Requests per address per minute, everything included. */
  requestsPerMinute: 300,
  /** Changes per session per minute. */
  changesPerMinute: 60,
  /** A request body, in bytes; an import's own limit is the /dictionary import file's (MAX_IMPORT_BYTES). */
  bodyBytes: 16 * 1024,
  importBytes: 512 * 1024 + 16 * 1024,
  /** Addresses and sessions each limit remembers at once. */
  rateKeys: 10_000,
};

export type DashboardLimits = typeof DEFAULT_LIMITS;

/** Entries a page of the dictionary shows (500 on one page made 300 KB). */
export const ENTRIES_PER_PAGE = 50;

/** Voices a page of the voices list shows: under three screens of a phone, with the filter above them. */
export const VOICES_PER_PAGE = 20;
