// The dashboard's public surface: what the app composes (its server); its store's part is index-store.ts.
import './strings.ts';
export { startDashboard, type RunningDashboard } from './start-dashboard.ts';
export type { DashboardBot, DoctorCheck, HelperStatus, Membership, OwnerConsole, SeatNow } from './dashboard-types.ts';
export { DiscordLogin } from './discord-login.ts';
export { MemberViews } from './member-views.ts';
