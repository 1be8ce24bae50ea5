// Audio worker threads work ahead of time (decoding, resampling and encoding a clip's next packets, effects, clip
// checks); the main thread sends every voice's packet in its 20 ms slot. When the cores are short (the benchmark's
// benchmark: the bot's main thread, its transcoding thread and the local Discord on two cores), the kernel shares
// them out by niceness: a worker a few steps nicer than the main thread waits a few milliseconds, which its lead of
// ten to twenty packets absorbs, instead of the main thread's wakeup waiting behind it and every voice sounding late.
// Long work (./work-classes.ts: a ten-minute mix, a long free line) runs nicer still: beside the voice's own
// transcoding threads and short work, it takes a third of their share of a contended core.
// Niceness orders threads only within the process's session (its autogroup): beside other sessions' work the main
// thread can still wait while the process's share is spent, however nice the thread that spent it. Not SCHED_IDLE
// either: a long thread at that policy left the main thread's longest waits beside a busy host's other sessions
// longer, not shorter (docs/benchmarks.md, figure 17).
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import type { WorkClass } from './work-class-types.ts';

/**
 * Nicer than the main thread by this (Linux niceness: at 10 steps a thread gets about a tenth of a contended core
 * beside one at 0).
 */
export const WORKER_NICENESS_STEP = 10;
/**
 * Long work's threads are nicer than the main thread by this: below the voice's transcoding threads and short work
 * (a third of their share of a contended core), not at the nicest (19), where a busy host's other work would leave a
 * ten-minute mix almost nothing and run it past its time limit.
 */
export const LONG_WORK_NICENESS_STEP = 15;
/** The nicest Linux allows. */
const NICEST = 19;

/** The niceness a worker thread of `workClass` takes, the main thread's being `main`. */
export function workerNiceness(main: number, workClass: WorkClass = 'short'): number {
  return Math.min(NICEST, main + (workClass === 'long' ? LONG_WORK_NICENESS_STEP : WORKER_NICENESS_STEP));
}

/** The work class a pool gave this thread in its `workerData` (./thread-pool.ts); short when none. */
export function ownWorkClass(): WorkClass {
  const data: unknown = workerData;
  return typeof data === 'object' && data !== null && 'workClass' in data && data.workClass === 'long'
    ? 'long'
    : 'short';
}

/**
 * Makes the calling worker thread nicer than the process's main thread, long work's nicest. Linux only: there a
 * thread's niceness is its own (setpriority on "this process" changes the calling thread), elsewhere it would lower
 * the whole process. Where it cannot (a sandbox refusing it), the thread runs at the main thread's priority, as it
 * did before.
 */
export function yieldToMainThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(workerNiceness(getPriority(), ownWorkClass()));
  } catch {
    // Not permitted here: no harm, only no preference for the main thread.
  }
}
