// SayBot's two classes of audio work, never sharing a thread or a queue. A job's class is its cost (seconds of audio
// made, mixed or encoded; bytes copied: workClassOf), never its kind, so a long job of one server never runs beside a
// short job of another. Each class is its own fair pool (./thread-pool.ts); long work also runs in slices yielding to
// short work (./slices.ts, ./work-turns.ts), at the lowest priority (./thread-priority.ts), rationed per member. Used
// by ../jobs/audio-thread/audio-thread.ts and src/core/free-voice/free-voice-engine.ts (bounds: docs/architecture.md).
import { ThreadPool, type ThreadPoolOptions } from './thread-pool.ts';
import type { WorkClass } from './work-class-types.ts';

export type { WorkClass } from './work-class-types.ts';

/** Short work's most seconds of audio: about a third of a second of a core (docs/benchmarks.md). */
export const SHORT_WORK_SECONDS = 20;

/** Short work's most bytes copied: a /say of a few parts joins in milliseconds; more is long work. */
export const SHORT_WORK_BYTES = 2 * 1024 * 1024;

/** Long work's wall-clock bound: ten minutes keeps an answer within the interaction's fifteen. */
export const LONG_WORK_WALL_CEILING_MS = 10 * 60_000;

/**
 * The most audio one line of a free voice may make, seconds: eSpeak NG's (cut there by its thread) and an owner's
 * engine's (refused past it, src/core/engines/engine-http.ts) alike.
 */
export const MAX_FREE_LINE_SECONDS = 120;

/** Lines one server may have under way or waiting at one free voice (eSpeak NG's pool, each engine): its share. */
export const FREE_LINES_PER_GUILD = 4;

/** What a job will cost: seconds of audio it makes, mixes or encodes, and bytes it copies (either may be 0). */
export interface WorkCost {
  seconds?: number;
  bytes?: number;
}

/** A job's class from its cost: short while both are within short work's sizes, long past either. */
export function workClassOf({ seconds = 0, bytes = 0 }: WorkCost): WorkClass {
  return seconds <= SHORT_WORK_SECONDS && bytes <= SHORT_WORK_BYTES ? 'short' : 'long';
}

/** One pool per class; `long` overrides what differs from `short` (threads, bounds, the member's ration). */
export function classedPools<J extends object, R extends { id: number; retire?: boolean }>(
  short: ThreadPoolOptions,
  long: Partial<ThreadPoolOptions> & { perMember: number },
): Record<WorkClass, ThreadPool<J, R>> {
  return {
    short: new ThreadPool<J, R>(short),
    long: new ThreadPool<J, R>({
      ...short,
      name: `${short.name} (long work)`,
      wallCeilingMs: LONG_WORK_WALL_CEILING_MS,
      ...long,
      workClass: 'long',
    }),
  };
}
