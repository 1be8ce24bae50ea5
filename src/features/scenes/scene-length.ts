// A scene lasts at most MAX_SCENE_SECONDS (the mix's cap, and in voice the cut of src/core/speech/scene-clip.ts),
// which only its audio proves: checked on its estimate with the core's margin (src/core/speech/seconds-cap.ts), at
// the preview and again by the pipeline at "Play it", in voice as for a file, and worded here for the member.
import { MAX_SCENE_SECONDS } from '../../core/audio/effects/scene-mix.ts';
import { UserError } from '../../core/interactions/failures.ts';
import {
  ESTIMATE_MARGIN,
  OverSecondsCapError,
  checkEstimatedSeconds,
  estimateCeiling,
} from '../../core/speech/seconds-cap.ts';
import './strings.ts';

/** Throws the member's answer (UserError scene.tooLong) when a scene estimated at `seconds` may not be made. */
export function checkSceneLength(seconds: number): void {
  try {
    checkEstimatedSeconds(seconds, MAX_SCENE_SECONDS, 'scene');
  } catch (error) {
    throw sceneLengthWords(error);
  }
}

/** A scene's OverSecondsCapError as the member's words; any other error (a free line's cap too) as it is. */
export function sceneLengthWords(error: unknown): unknown {
  if (!(error instanceof OverSecondsCapError) || error.capped !== 'scene') return error;
  return new UserError('scene.tooLong', {
    seconds: Math.round(error.estimate),
    max: error.cap,
    ceiling: Math.floor(estimateCeiling(error.cap)),
    margin: Math.round(ESTIMATE_MARGIN * 100),
  });
}
