// What a request carries through the dashboard's middleware (types only).
import type { Membership } from './dashboard-types.ts';
import type { DashboardSession } from './store/session-store.ts';

/** A live session for this request: its row, its ID (from the cookie) and its CSRF token. */
export interface LiveSession extends DashboardSession {
  id: string;
  csrf: string;
}

export interface DashboardEnv {
  Variables: {
    locale: string;
    session: LiveSession | undefined;
    /** The member in the server the path names, as SayBot sees them (guards.ts' serverAccess). */
    membership: Membership;
  };
}
