// A scene's subtitles (.srt) from its planned turns and the timeline its mix gave back: each line timed as it is
// heard (those before the cut, when cut), named by its speaker. Shared by the Discord delivery and the studio's file.
import type { SceneTimeline } from '../../core/order/scene-types.ts';
import type { PlannedTurn } from './scene-types.ts';
import { toSrt } from './subtitles.ts';

export function sceneSrt(turns: readonly PlannedTurn[], timeline: SceneTimeline | undefined): string {
  if (timeline === undefined || timeline.length > turns.length) throw new Error('a scene file without its timeline');
  return toSrt(
    timeline.map((time, index) => ({
      speaker: turns[index]?.speaker ?? '',
      text: turns[index]?.text ?? '',
      start: time.start,
      end: time.end,
    })),
  );
}
