// A sender thread for test/core/voice/sender/sender-thread.test.ts that takes 1.5 s to start, as one loading its
// modules on a busy host does, then says it started and never answers again.
import { parentPort } from 'node:worker_threads';

const until = Date.now() + 1_500;
while (Date.now() < until);
parentPort?.postMessage({ type: 'started', tid: 4242 });
parentPort?.on('message', () => undefined);
