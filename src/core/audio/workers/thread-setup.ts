// A worker may set itself up once for later jobs (eSpeak NG, the Japanese analyser): the thread's cost, not the job's,
// so it says so (settingUp), the job's limit stops, and setup has its own bound (./job-thread.ts `setupCeilingMs`).
import { parentPort } from 'node:worker_threads';

/** From a job's worker: its thread begins (`setup: true`) or has ended (`false`) setting itself up for job `id`. */
export interface SetupMessage {
  id: number;
  setup: boolean;
}

/** In a job's worker thread: runs `work` as this thread's setup for job `id` (sync or async), said so around it. */
export function settingUp<T>(id: number, work: () => T): T {
  const say = (setup: boolean) => parentPort?.postMessage({ id, setup } satisfies SetupMessage);
  say(true);
  let result: T;
  try {
    result = work();
  } catch (error) {
    say(false);
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => say(false)) as T;
  say(false);
  return result;
}
