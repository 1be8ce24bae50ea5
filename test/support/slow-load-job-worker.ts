// A job-thread worker for test/core/audio/workers/job-thread.test.ts whose module takes long to load (as a first load
// does on a slow host: the language runtime, a native module): `workerData.loadMs` of its own thread's CPU time before
// it listens. Then it answers each job at once with its own label.
import { parentPort, workerData } from 'node:worker_threads';

const ownCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
const until = ownCpuMs() + ((workerData as { loadMs?: number } | undefined)?.loadMs ?? 0);
while (ownCpuMs() < until);

parentPort?.on('message', (job: { id: number; label: string }) => {
  parentPort?.postMessage({ id: job.id, label: job.label });
});
