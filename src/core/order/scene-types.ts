// A scene as the pipeline takes it and gives it back: types only.
import type { ServiceRequest } from '../settings/speech-request.ts';

/** One line of a scene: its own voice and settings, after a pause (seconds of silence; the gap between turns). */
export interface SceneLine {
  request: ServiceRequest;
  pauseBefore: number;
}

/** What a scene would cost now, before anything is held: nothing is counted or paid by asking. */
export interface SceneQuote {
  parts: number;
  /** Characters the parts not cached nor in flight would spend. */
  characters: number;
  /** Lines in a paid voice whose every part is cached (or in flight); a free voice's lines are never counted. */
  cachedLines: number;
}

/** Each scene line's start and end in a mixed file or voice message, seconds. */
export type SceneTimeline = ReadonlyArray<{ start: number; end: number }>;
