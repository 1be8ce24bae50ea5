// Subtitles for a rendered scene as SubRip (.srt): one cue per turn, `Speaker: text` on one line, LF line ends, no
// escapes; and the reverse of their times, so a test can read a posted file back. Pure.
import type { SceneTimeline } from '../../core/order/scene-types.ts';
import type { PlannedTurn } from './scene-types.ts';

/** One cue: when, in seconds from the start of the audio, and who says what. */
export interface SubtitleCue {
  start: number;
  end: number;
  speaker: string;
  text: string;
}

const LINE_BREAKS = /\r\n|\r|\n/g;

/** Seconds as whole milliseconds: rounded, never below 0; a time that is not a number is a bug in the caller. */
function milliseconds(seconds: number): number {
  if (!Number.isFinite(seconds)) throw new RangeError(`a subtitle time must be a finite number, not ${seconds}`);
  return Math.max(0, Math.round(seconds * 1000));
}

/** `HH:MM:SS,mmm`; hours past 99 take more digits. */
function timestamp(totalMilliseconds: number): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const hours = Math.floor(totalMilliseconds / 3_600_000);
  const minutes = Math.floor(totalMilliseconds / 60_000) % 60;
  const seconds = Math.floor(totalMilliseconds / 1000) % 60;
  return `${two(hours)}:${two(minutes)}:${two(seconds)},${String(totalMilliseconds % 1000).padStart(3, '0')}`;
}

/** The cues as a SubRip file ('' for none), times rounded to the millisecond, an end before its start moved to it. */
export function toSrt(cues: readonly SubtitleCue[]): string {
  return cues
    .map((cue, index) => {
      const start = milliseconds(cue.start);
      const end = Math.max(start, milliseconds(cue.end));
      const line = `${cue.speaker}: ${cue.text}`.replace(LINE_BREAKS, ' ');
      return `${index + 1}\n${timestamp(start)} --> ${timestamp(end)}\n${line}\n`;
    })
    .join('\n');
}

/** A scene's .srt from its planned turns and the timeline its mix gave back: each line timed as it is heard (those
 * before the cut, when cut), named by its speaker. For the Discord delivery and the studio's file. */
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
