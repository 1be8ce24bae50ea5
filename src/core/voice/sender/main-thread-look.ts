// Since when the main thread may have missed what it hears of now. A voice session's end (a voice server move, its
// websocket's close) reaches SayBot on the main thread only; while that thread is busy the sender thread goes on
// sending, so what it sent since the main thread last looked may have gone into an ended session.
import { performance } from 'node:perf_hooks';

/** Busy without a pause longer than this (a packet's period) before a message: the main thread was held up. */
const HELD_MS = 20;
/** A hold-up seen this recently still bounds what the main thread hears of now (it read a burst after it). */
const HELD_RECENT_MS = 100;

export class MainThreadLook {
  /** The loop as the last message came (performance.eventLoopUtilization()). */
  #loop = performance.eventLoopUtilization();
  /** The last hold-up seen before a message: since when, and when seen. */
  #heldUp = { from: 0, seen: -Infinity };

  /**
   * A message of the sender thread's is read now (every 40 ms while a clip plays), posted `at` (ms since the epoch;
   * unknown: taken as waited). Only a message that waited tells of a hold-up: a loop busy most of the time but going
   * round reads it at once, and a hold-up dated back then would have a session's end say again what was heard.
   */
  heard(now = performance.now(), at?: number): void {
    const from = this.#busySince(now);
    const waited = at === undefined || performance.timeOrigin + now - at > HELD_MS;
    if (now - from > HELD_MS && waited) this.#heldUp = { from, seen: now };
    // Posted after a hold-up was seen, and read: the loop went round since, and read whatever had waited with it.
    else if (at !== undefined && at > performance.timeOrigin + this.#heldUp.seen) this.#heldUp.seen = -Infinity;
    this.#loop = performance.eventLoopUtilization();
  }

  /**
   * performance.now() at the earliest the main thread may have stopped looking before now: before its busy time since
   * the last message where that was a hold-up (longer than a packet's period), or before a hold-up its last messages
   * came after (a session's end that waited unread meanwhile came no sooner).
   */
  lookedAt(now = performance.now()): number {
    // Busy for no longer than a packet's period is keeping up: what it hears of now came now.
    const from = this.#busySince(now);
    const since = now - from > HELD_MS ? from : now;
    return now - this.#heldUp.seen <= HELD_RECENT_MS ? Math.min(since, this.#heldUp.from) : since;
  }

  /** Whether a message of the thread's posted `at` (ms since the epoch) waited while the main thread was held up. */
  waited(at: number | undefined): boolean {
    return at !== undefined && performance.timeOrigin + performance.now() - at > HELD_MS;
  }

  #busySince(now: number): number {
    return now - performance.eventLoopUtilization(this.#loop).active;
  }
}
