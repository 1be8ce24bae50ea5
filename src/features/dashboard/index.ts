// The dashboard's public surface: what the app composes (its server, its store area and schema step).
import './strings.ts';
export { startDashboard, type RunningDashboard } from './start-dashboard.ts';
export { dashboardAreas } from './store/store-areas.ts';
export { DASHBOARD_SCHEMA_STEPS } from './store/schema-steps.ts';
export type {
  DashboardBot,
  DashboardDeps,
  DashboardSettings,
  DoctorCheck,
  HelperStatus,
  Membership,
  OwnerConsole,
  SeatNow,
} from './dashboard-types.ts';
export { DiscordLogin } from './discord-login.ts';
export { MemberViews, type MemberLookUp } from './member-views.ts';
