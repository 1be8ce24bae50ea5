// Audio worker threads work ahead of time (decoding, resampling and encoding a clip's next packets, effects, clip
// checks); the main thread sends every voice's packet in its 20 ms slot. When the cores are short (the benchmark's
// benchmark: the bot's main thread, its transcoding thread and the local Discord on two cores), the kernel shares
// them out by niceness: a worker a few steps nicer than the main thread waits a few milliseconds, which its lead of
// ten to twenty packets absorbs, instead of the main thread's wakeup waiting behind it and every voice sounding late.
import { getPriority, setPriority } from 'node:os';

/**
 * Nicer than the main thread by this (Linux niceness: at 10 steps a thread gets about a tenth of a contended core
 * beside one at 0).
 */
export const WORKER_NICENESS_STEP = 10;
const NICEST = 19;

/**
 * Makes the calling worker thread nicer than the process's main thread. Linux only: there a thread's niceness is
 * its own (setpriority on "this process" changes the calling thread), elsewhere it would lower the whole process.
 * Where it cannot (a sandbox refusing it), the thread runs at the main thread's priority, as it did before.
 */
export function yieldToMainThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(Math.min(NICEST, getPriority() + WORKER_NICENESS_STEP));
  } catch {
    // Not permitted here: no harm, only no preference for the main thread.
  }
}
