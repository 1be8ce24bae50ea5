// SayBot's two classes of audio work, which never share a thread or a queue: short work and long work (the /usage
// chart is long work on a thread of its own). A job's class is what it will cost, never its kind: the seconds of
// audio it makes, mixes or encodes and the bytes it copies (workClassOf). A two-line scene is short work like a
// small file; a ten-minute mix, a large file's join or voice message, a line the free voice takes a minute to say
// are long. Each class is its own pool (./thread-pool.ts) with its own threads, fair between servers in it (servers
// in turn, each server's share), so a long job of one server never runs ahead of or beside a short job of another on
// one thread: the short job waits only for other short jobs. Long work also runs in slices and gives way to short
// work between them (./slices.ts, ./work-turns.ts), its threads at the lowest priority (./thread-priority.ts), and is
// rationed per member (`perMember`), whether it costs characters or not (a scene replayed from the cache mixes
// again). The audio thread (./audio-thread/audio-thread.ts) and the free voice
// (src/core/free-voice/free-voice-engine.ts) are split so; docs/architecture.md lists each pool's threads and bounds.
import { ThreadPool, type ThreadPoolOptions } from './thread-pool.ts';
import type { WorkClass } from './work-class-types.ts';

export type { WorkClass } from './work-class-types.ts';

/**
 * Short work makes, mixes or encodes at most this many seconds of audio: about a third of a second of a core at the
 * measured rates (docs/benchmarks.md: a mix to MP3 1.4 s a minute of audio, eSpeak NG about 1 s a minute), so a
 * short job never holds another server's short job for long. A two-line scene (some 10 s) is short work.
 */
export const SHORT_WORK_SECONDS = 20;

/**
 * Short work copies at most this many bytes: a /say of a few parts (about 45 s of 24 kHz WAV, minutes of MP3) joins
 * in milliseconds; a larger file's join, or a voice message of more packets, is long work.
 */
export const SHORT_WORK_BYTES = 2 * 1024 * 1024;

/**
 * Long work's bound in time from a job's start. Its limit counts its own CPU time (./job-thread.ts): at its low
 * priority, beside two other processes that keep both cores busy, a ten-minute mix (some 15 s of a core) gets a few
 * per cent of one and takes minutes. Ten minutes leaves its answer within the interaction's fifteen.
 */
export const LONG_WORK_WALL_CEILING_MS = 10 * 60_000;

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
