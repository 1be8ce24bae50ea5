// Worker threads that work ahead (effects, clip checks, the free voice) run a few steps nicer than the main thread: on
// short cores they wait, not it. Not the voices' transcoders, whose frames the sender thread needs within half a second
// (docs/decisions.md). Long work (./job-thread.ts workClassOf) is nicer still. Niceness orders threads only within the
// process's autogroup; SCHED_IDLE made the main thread's longest waits longer (docs/benchmarks.md, figure 17).
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import type { WorkClass } from './work-turns.ts';

/** Nicer than the main thread by this (at 10 steps a thread gets about a tenth of a contended core). */
export const WORKER_NICENESS_STEP = 10;
/** Long work's niceness: below short work (a third of its share), not 19, where a busy host would starve a long mix. */
export const LONG_WORK_NICENESS_STEP = 15;
/** The nicest Linux allows. */
const NICEST = 19;

/** The niceness a worker thread of `workClass` takes, the main thread's being `main`. */
export function workerNiceness(main: number, workClass: WorkClass = 'short'): number {
  return Math.min(NICEST, main + (workClass === 'long' ? LONG_WORK_NICENESS_STEP : WORKER_NICENESS_STEP));
}

/** The work class a pool gave this thread in its `workerData` (./job-thread.ts ThreadPool); short when none. */
export function ownWorkClass(): WorkClass {
  const data: unknown = workerData;
  return typeof data === 'object' && data !== null && 'workClass' in data && data.workClass === 'long'
    ? 'long'
    : 'short';
}

/** Makes this worker nicer than the main thread (Linux: per thread); refused, it keeps its priority. */
export function yieldToMainThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(workerNiceness(getPriority(), ownWorkClass()));
  } catch {
    // Not permitted here: no harm, only no preference for the main thread.
  }
}
