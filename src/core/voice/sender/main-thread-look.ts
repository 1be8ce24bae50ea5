// Since when the main thread may have missed what it hears of now. A voice session's end (a voice server move, its
// websocket's close) reaches SayBot on the main thread only; while that thread is busy the sender thread goes on
// sending, so what it sent since the main thread last looked may have gone into an ended session.
import { performance } from 'node:perf_hooks';

/** Busy without a pause longer than this (a packet's period) before a message: the main thread was held up. */
const HELD_MS = 20;

/** The event loop's turns so far (libuv's count): a turn reads whatever its sockets had when it polled. */
const turn = (): number => performance.nodeTiming.uvMetricsInfo.loopCount;

export class MainThreadLook {
  /** The loop as the last message came (performance.eventLoopUtilization()). */
  #loop = performance.eventLoopUtilization();
  /** The hold-ups seen in the last two turns, the later last: since when, and in which turn each was seen. */
  #heldUp: Array<{ from: number; turn: number }> = [];

  /**
   * A message of the sender thread's is read now (every 40 ms while a clip plays), posted `at` (ms since the epoch;
   * unknown: taken as waited). Only a message that waited tells of a hold-up: a loop busy most of the time but going
   * round reads it at once, and a hold-up dated back then would have a session's end say again what was heard.
   */
  heard(now = performance.now(), at?: number): void {
    const from = this.#busySince(now);
    const waited = at === undefined || performance.timeOrigin + now - at > HELD_MS;
    if (now - from > HELD_MS && waited) {
      const current = turn();
      const last = this.#heldUp.at(-1);
      if (last?.turn === current) last.from = Math.min(last.from, from);
      else this.#heldUp = [...this.#recent(current), { from, turn: current }];
    }
    this.#loop = performance.eventLoopUtilization();
  }

  /**
   * performance.now() at the earliest the main thread may have stopped looking before now: before its busy time since
   * the last message where that was a hold-up (longer than a packet's period), or before a hold-up seen in this turn or
   * the one before: a session's end sent as it was held up is read with the messages that waited, or a turn after.
   */
  lookedAt(now = performance.now()): number {
    // Busy for no longer than a packet's period is keeping up: what it hears of now came now.
    const from = this.#busySince(now);
    const since = now - from > HELD_MS ? from : now;
    return Math.min(since, ...this.#recent(turn()).map((held) => held.from));
  }

  /** Whether a message of the thread's posted `at` (ms since the epoch) waited while the main thread was held up. */
  waited(at: number | undefined): boolean {
    return at !== undefined && performance.timeOrigin + performance.now() - at > HELD_MS;
  }

  /** The hold-ups seen in turn `current` or the one before. */
  #recent(current: number): Array<{ from: number; turn: number }> {
    return this.#heldUp.filter((held) => held.turn >= current - 1);
  }

  #busySince(now: number): number {
    return now - performance.eventLoopUtilization(this.#loop).active;
  }
}
