// A worker thread may set itself up for a job: load what it then keeps for every later job (eSpeak NG's program, the
// Japanese analyser). That is the thread's cost, paid once, not the job's; at a nice thread's priority on a busy host
// it can take far longer than any one job's own work. So the worker says when it sets up (settingUp), the job's limit
// stops meanwhile, and the setup has a bound of its own (./job-thread.ts `setupCeilingMs`).
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
