// A job-thread worker for test/core/audio/workers/job-thread.test.ts: a job is kept off the CPU for `idleMs` (as a
// busy host's other processes keep a nice thread waiting: time passes, the thread's own CPU time does not) and then
// burns `cpuMs` of its own thread's CPU time, and answers with its label. Before that, with `setupIdleMs` or
// `setupCpuMs`, the thread sets itself up for the job alike (as the free voice's thread loads eSpeak NG), said so to
// the main thread (src/core/audio/workers/thread-setup.ts).
import { parentPort } from 'node:worker_threads';
import { settingUp } from '../../src/core/audio/workers/thread-setup.ts';

const ownCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

function work(idleMs = 0, cpuMs = 0): void {
  if (idleMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, idleMs);
  const until = ownCpuMs() + cpuMs;
  while (ownCpuMs() < until);
}

parentPort?.on(
  'message',
  (job: { id: number; label: string; idleMs?: number; cpuMs?: number; setupIdleMs?: number; setupCpuMs?: number }) => {
    if (job.setupIdleMs || job.setupCpuMs) settingUp(job.id, () => work(job.setupIdleMs, job.setupCpuMs));
    work(job.idleMs, job.cpuMs);
    parentPort?.postMessage({ id: job.id, label: job.label });
  },
);
