// A job-thread worker for test/core/audio/workers/job-thread.test.ts: answers each job at once with its own label.
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (job: { id: number; label: string }) => {
  parentPort?.postMessage({ id: job.id, label: job.label });
});
