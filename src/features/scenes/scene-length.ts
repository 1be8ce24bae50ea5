// A scene lasts at most MAX_SCENE_SECONDS (the mix's cap, and in voice the cut of src/core/order/scene-clip.ts),
// which only its audio proves: checked on its estimate with the core's margin (src/core/quota/seconds-bounds.ts), at
// the preview and again by the pipeline at "Play it", in voice as for a file. Its OverSecondsCapError is worded for
// the member with every failure (src/features/speaking/failure-words.ts).
import { MAX_SCENE_SECONDS } from '../../core/audio/effects/scene-mix.ts';
import { checkEstimatedSeconds } from '../../core/quota/seconds-bounds.ts';

/** Throws OverSecondsCapError when a scene estimated at `seconds` may not be made. */
export function checkSceneLength(seconds: number): void {
  checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
}
