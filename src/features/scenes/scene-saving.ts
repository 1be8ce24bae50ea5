// Saving a scene under a name (/scene save, the studio): a script that would be refused is never kept.
import { UserError } from '../../core/interactions/failures.ts';
import { echo } from '../../core/interactions/safe-text.ts';
import { NAME_MAX_LENGTH, isValidName, tidyName } from '../../core/store/names.ts';
import type { Store } from '../../core/store/types.ts';
import { readScript } from './scene-preview.ts';
import { MAX_SAVED_SCENES } from './store/scene-area.ts';
import './strings.ts';

/** A scene name as the store keeps it, or the member's answer (UserError scene.badName) of why not. */
export function sceneName(written: string): string {
  const name = tidyName(written);
  if (!isValidName(name)) throw new UserError('scene.badName');
  return name;
}

/** Saves `script` as `name`; the member's answer of why not is thrown (UserError). */
export async function saveScene(
  store: Store,
  scene: { guildId: string; userId: string; manager: boolean; name: string; script: string },
): Promise<{ status: 'added' | 'replaced'; name: string; lines: number }> {
  const name = sceneName(scene.name);
  const lines = readScript(scene.script).steps.filter((step) => step.kind === 'line').length;
  const result = await store.scenes.save(scene.guildId, name, scene.script, scene.userId, scene.manager);
  const shown = echo(name, NAME_MAX_LENGTH);
  if (result.status === 'refused') {
    if (result.problem === 'full') throw new UserError('scene.full', { max: MAX_SAVED_SCENES });
    if (result.problem === 'member-share')
      throw new UserError('scene.memberShare', { share: result.share, max: MAX_SAVED_SCENES });
    throw new UserError('scene.notYoursToChange', { name: shown });
  }
  return { status: result.status, name: shown, lines };
}
