// A job-thread worker for test/core/audio/workers/job-thread.test.ts: sets its priority as SayBot's workers do, then
// answers each job with the niceness it runs at and the work class its pool gave it.
import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { yieldToMainThread } from '../../src/core/audio/workers/thread-priority.ts';

yieldToMainThread();

parentPort?.on('message', (job: { id: number }) => {
  const given: unknown = workerData;
  const workClass = typeof given === 'object' && given !== null && 'workClass' in given ? given.workClass : undefined;
  parentPort?.postMessage({ id: job.id, niceness: getPriority(0), workClass });
});
