// SayBot's two classes of audio work, which never share a thread or a queue: short work (a reply's next part at its
// speed or volume, a small file's join or voice message, a short free line) and long work (a scene's mix, a large
// file's join or voice message, a long free line; the /usage chart, on a thread of its own). Each class is its own pool (./thread-pool.ts) with its own threads, fair between servers in it
// (servers in turn, each server's share), so a long job of one server, however long, never runs ahead of or beside a
// short job of another on one thread: the short job waits only for other short jobs. Long work is also rationed
// per member (`perMember`), whether it costs characters or not (a scene replayed from the cache mixes again).
// The audio thread (./audio-thread/audio-thread.ts) and the free voice (src/core/free-voice/free-voice-engine.ts)
// are split so; docs/architecture.md lists each pool's threads and bounds.
import { ThreadPool, type ThreadPoolOptions } from './thread-pool.ts';

export type WorkClass = 'short' | 'long';

/**
 * Parts joined into a file of at most this many bytes are short work: a /say of a few parts (about 45 s of 24 kHz
 * WAV, minutes of MP3) joins in milliseconds; a longer file's join is long work.
 */
export const SHORT_JOIN_MAX_BYTES = 2 * 1024 * 1024;

/** A free line of at most this many code points (a sentence or two, under a second of eSpeak's work) is short work. */
export const SHORT_FREE_LINE_CHARS = 300;

/** One pool per class; `long` overrides what differs from `short` (threads, bounds, the member's ration). */
export function classedPools<J extends object, R extends { id: number; retire?: boolean }>(
  short: ThreadPoolOptions,
  long: Partial<ThreadPoolOptions> & { perMember: number },
): Record<WorkClass, ThreadPool<J, R>> {
  return {
    short: new ThreadPool<J, R>(short),
    long: new ThreadPool<J, R>({ ...short, name: `${short.name} (long work)`, ...long }),
  };
}
