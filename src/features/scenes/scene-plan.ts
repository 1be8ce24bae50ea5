// A parsed script and its cast as what the pipeline speaks: one request per turn, each after its pause; and whether
// it may be made, checked on its estimate with the core's margin at the preview and again by the pipeline at "Play it".
import { MAX_SCENE_SECONDS } from '../../core/audio/effects/scene-mix.ts';
import type { SceneLine } from '../../core/order/scene-types.ts';
import { effectsOf, sentSettingsOf } from '../../core/sourcing/part-request.ts';
import { checkEstimatedSeconds, estimatePlanSeconds } from '../../core/characters.ts';
import { UserError } from '../../core/interactions/failures.ts';
import './strings.ts';
import type { PlannedTurn, ScenePlan, Speaker } from './scene-types.ts';
import { DEFAULT_GAP_SECONDS } from './script.ts';
import type { SceneScript } from './script-types.ts';

export function planScene(script: SceneScript, speakers: ReadonlyMap<string, Speaker>): ScenePlan {
  const lines: SceneLine[] = [];
  const turns: PlannedTurn[] = [];
  let pause = 0;
  for (const step of script.steps) {
    if (step.kind === 'pause') {
      pause += step.seconds;
      continue;
    }
    const speaker = speakers.get(step.key);
    if (speaker === undefined) throw new Error(`no voice for the speaker "${step.key}"`);
    if (step.tone !== undefined && step.intensity !== undefined)
      throw new UserError('scene.toneAndIntensity', { line: step.line });
    const pauseBefore = pause + (lines.length > 0 ? DEFAULT_GAP_SECONDS : 0);
    const { settings } = speaker;
    const request: SceneLine['request'] =
      step.intensity !== undefined
        ? {
            kind: 'emotion',
            text: step.text,
            ...sentSettingsOf(settings, 'emotion'),
            exaggeration: step.intensity,
            ...effectsOf(settings),
          }
        : {
            kind: 'tts',
            text: step.text,
            // Mixed and played alike, so a line made for voice is the same cache entry as one made for a file.
            ...sentSettingsOf({ ...settings, ...(step.tone === undefined ? {} : { tone: step.tone }) }, 'tts'),
            format: 'wav',
            ...effectsOf(settings),
          };
    lines.push({ request, pauseBefore });
    turns.push({ speaker: speaker.name, text: step.text });
    pause = 0;
  }
  // The very figure the pipeline checks again at "Play it".
  return {
    lines,
    turns,
    seconds: estimatePlanSeconds(lines),
    speakers: new Set(turns.map((turn) => turn.speaker)).size,
  };
}

/** Throws the member's answer when `plan` may not be made: longer than the voice queue takes (`voiceSeconds`, 0: no
 * limit) for voice, or than MAX_SCENE_SECONDS anywhere (a server whose voice queue has no limit still hears 600 s). */
export function checkSceneFits(plan: ScenePlan, inVoice: boolean, voiceSeconds: number): void {
  if (inVoice && voiceSeconds > 0 && plan.seconds > voiceSeconds)
    throw new UserError('scene.tooLongForVoice', { seconds: Math.round(plan.seconds), limit: voiceSeconds });
  checkEstimatedSeconds(plan.seconds, MAX_SCENE_SECONDS, 'scene');
}
