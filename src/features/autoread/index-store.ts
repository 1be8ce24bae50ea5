// Auto-read's part of every store (its areas, tables, deletions and member fields), for the app's stores on their own.
import './strings.ts';
export { AUTO_READ_FORGET_RULES, AUTO_READ_VOICE_ROWS, autoReadAreas } from './store/store-areas.ts';
export { AUTO_READ_SCHEMA_STEPS } from './store/schema-steps.ts';
export { MEMBER_READING_LIST } from './reading/member-reading.ts';
