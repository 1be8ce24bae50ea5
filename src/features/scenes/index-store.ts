// Scenes' part of every store (its area, table and deletions), for the app's stores on their own.
import './strings.ts';
export { SCENE_FORGET_RULES, sceneAreas } from './store/store-areas.ts';
export { SCENE_SCHEMA_STEPS } from './store/schema-steps.ts';
