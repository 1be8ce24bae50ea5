// Scenes' part of the store, added to the core's Store and Database by declaration merging.
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

/** A saved scene is its author's words: deleted with their data, and with the server's. */
export const SCENE_FORGET_RULES: readonly ForgetRule[] = [
  { table: 'scenes', memberColumns: { saved_by: 'delete' }, guildRows: 'delete' },
];
