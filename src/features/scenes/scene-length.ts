// A scene lasts at most MAX_SCENE_SECONDS, checked on its estimate with the core's margin at the preview and again by
// the pipeline at "Play it".
import { MAX_SCENE_SECONDS } from '../../core/audio/effects/scene-mix.ts';
import { checkEstimatedSeconds } from '../../core/quota/seconds-bounds.ts';

/** Throws OverSecondsCapError when a scene estimated at `seconds` may not be made. */
export function checkSceneLength(seconds: number): void {
  checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
}
