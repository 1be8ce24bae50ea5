// A sender thread for test/core/voice/sender/sender-thread.test.ts that says it started, then takes every message and
// never answers, as a thread stuck in a loop would (the real one: src/core/voice/sender/sender-worker.ts).
import { parentPort } from 'node:worker_threads';

parentPort?.postMessage({ type: 'started', tid: undefined });
parentPort?.on('message', () => undefined);
