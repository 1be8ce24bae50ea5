// The dashboard's part of the store, added to the core's Store and Database by declaration merging.
import type { Dialect } from '../../../core/store/dialect.ts';
import type { Operations } from '../../../core/store/types.ts';
import { DashboardSessionArea } from './session-area.ts';

declare module '../../../core/store/types.ts' {
  interface Store {
    dashboardSessions: Operations<DashboardSessionArea>;
  }
}

declare module '../../../core/store/schema.ts' {
  interface Database {
    dashboard_sessions: {
      id_hash: string;
      user_id: string;
      user_name: string;
      guild_hints: string;
      created_at: number;
      seen_at: number;
    };
  }
}

export const dashboardAreas = (dialect: Dialect) => ({ dashboardSessions: new DashboardSessionArea(dialect) });
