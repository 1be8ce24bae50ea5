// How long this process's threads waited for a core (Linux's /proc/self/task/*/schedstat: time on the CPU, then time
// runnable but waiting on a run queue, in ns), to tell a thread that was late because it had no core from one that
// was late for work of its own (figure 24). Threads are told apart by name: the sender thread has its own; Node names
// the other worker threads all alike, so they are reported as the one that waited most and all of them together.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { raiseToRealtime } from '../src/core/voice/sender/realtime.ts';
import { SENDER_THREAD_NAME, senderThread } from '../src/core/voice/sender/sender-thread.ts';

/** Run-queue waits of each thread so far, ms, by thread ID; undefined off Linux. */
export type WaitSnapshot = Map<string, { name: string; waitMs: number }>;

export function waitSnapshot(): WaitSnapshot | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const snapshot: WaitSnapshot = new Map();
  for (const task of tasks) {
    try {
      const name = readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
      const waitNs = Number(readFileSync(`/proc/self/task/${task}/schedstat`, 'utf8').split(' ')[1]);
      snapshot.set(task, { name, waitMs: waitNs / 1e6 });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return snapshot;
}

/**
 * Over a window of `windowMs` between two snapshots: the main thread's wait, the sender thread's, and the other worker
 * threads' (most, all).
 */
export interface WindowWaits {
  mainPct: number;
  senderPct: number;
  workerMaxPct: number;
  workersPct: number;
}

export function waitsBetween(
  before: WaitSnapshot | undefined,
  after: WaitSnapshot | undefined,
  windowMs: number,
): WindowWaits | undefined {
  if (!before || !after || windowMs <= 0) return undefined;
  let main = 0;
  let sender = 0;
  let workerMax = 0;
  let workers = 0;
  for (const [task, now] of after) {
    const waited = now.waitMs - (before.get(task)?.waitMs ?? 0);
    if (now.name === 'MainThread' || task === String(process.pid)) main += waited;
    else if (now.name === SENDER_THREAD_NAME) sender += waited;
    else if (now.name === 'WorkerThread') {
      workers += waited;
      workerMax = Math.max(workerMax, waited);
    }
  }
  const pct = (ms: number) => (ms / windowMs) * 100;
  return { mainPct: pct(main), senderPct: pct(sender), workerMaxPct: pct(workerMax), workersPct: pct(workers) };
}

/**
 * Puts the live sender thread at real-time (as SayBot asks where allowed: src/core/voice/sender/realtime.ts) or
 * ordinary scheduling, for a row that compares the two; then says which it runs at.
 */
export async function setSenderScheduling(realtime: boolean): Promise<'real-time' | 'ordinary' | undefined> {
  const tid = senderThread.kernelThreadId;
  if (tid === undefined) return undefined;
  if (realtime) await raiseToRealtime(tid);
  else spawnSync('chrt', ['--other', '--pid', '0', String(tid)]);
  try {
    const policy = /^policy\s*:\s*(\d+)/m.exec(readFileSync(`/proc/self/task/${tid}/sched`, 'utf8'))?.[1];
    return policy === '0' ? 'ordinary' : 'real-time';
  } catch {
    return undefined;
  }
}
