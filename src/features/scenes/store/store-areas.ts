// Scenes' part of the store: its area, added to the core's Store, and its table, added to the schema's Database,
// both by declaration merging (as auto-read's), so callers write `store.scenes.get(…)`. src/app/store.ts makes the
// area (sceneAreas) for every store it opens; the table's steps are in schema-steps.ts beside this module.
import type { Dialect } from '../../../core/store/dialect.ts';
import type { ForgetRule } from '../../../core/store/forget-plan.ts';
import type { Operations } from '../../../core/store/types.ts';
import { SceneArea } from './scene-area.ts';

declare module '../../../core/store/types.ts' {
  interface Store {
    scenes: Operations<SceneArea>;
  }
}

declare module '../../../core/store/schema.ts' {
  interface Database {
    scenes: { guild_id: string; name_key: string; name: string; script: string; saved_by: string; saved_at: number };
  }
}

export const sceneAreas = (dialect: Dialect) => ({ scenes: new SceneArea(dialect) });

/**
 * A saved scene is its author's words: their own deletion (/privacy delete) deletes the scenes they saved, and the
 * server's deletion every scene of the server.
 */
export const SCENE_FORGET_RULES: readonly ForgetRule[] = [
  { table: 'scenes', guildColumn: 'guild_id', memberColumns: { saved_by: 'delete' }, guildRows: 'delete' },
];
