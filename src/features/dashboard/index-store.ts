// The dashboard's part of every store (its sessions' area and table), for the app's stores on their own.
import './strings.ts';
export { dashboardAreas } from './store/store-areas.ts';
export { DASHBOARD_SCHEMA_STEPS } from './store/schema-steps.ts';
