// A job-thread worker for test/core/audio/workers/thread-pool.test.ts: a job is kept off the CPU for `idleMs` (as a
// busy host's other processes keep a nice thread waiting: time passes, the thread's own CPU time does not) and then
// burns `cpuMs` of its own thread's CPU time, and answers with its label.
import { parentPort } from 'node:worker_threads';

const ownCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

parentPort?.on('message', (job: { id: number; label: string; idleMs?: number; cpuMs?: number }) => {
  if (job.idleMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.idleMs);
  const until = ownCpuMs() + (job.cpuMs ?? 0);
  while (ownCpuMs() < until);
  parentPort?.postMessage({ id: job.id, label: job.label });
});
