// What the worker pools did, as events, for the tests (which class and thread a job took, the order of a long job's
// slices and another server's short job) and the bench: nothing is kept, and nothing is done without a listener.
import type { WorkClass } from './work-turns.ts';

export interface WorkEvent {
  /** The pool's name ("audio thread", "free voice (long work)"). */
  pool: string;
  workClass: WorkClass;
  /** The thread of the pool it ran on (0, 1, …). */
  thread: number;
  /** The job's owner (a server; '' when none). */
  owner: string;
  /** start; setup / set-up (./thread-setup.ts); slice (turn given back); resume; end (answered or failed). */
  event: 'start' | 'setup' | 'set-up' | 'slice' | 'resume' | 'end';
}

const listeners = new Set<(event: WorkEvent) => void>();

/** Calls `listener` with every event from now on; the returned function stops it. */
export function onWork(listener: (event: WorkEvent) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function traceWork(event: WorkEvent): void {
  for (const listener of listeners) listener(event);
}

/** Whether anyone listens (so a pool builds no event for nobody). */
export const tracing = (): boolean => listeners.size > 0;
