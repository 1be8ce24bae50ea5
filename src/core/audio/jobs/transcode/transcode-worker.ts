// A worker thread of the transcoding pool (transcode-pool.ts): its streams' batches (transcode-batch.ts), one at a
// time and in order (an MP3 decoder's first write waits for its WASM module), one reply each.
import { parentPort } from 'node:worker_threads';
import { TranscodeBatches } from './transcode-batch.ts';
import type { TranscodeRequest } from './transcode-protocol.ts';
import { yieldToMainThread } from '../../workers/thread-priority.ts';

yieldToMainThread();

const batches = new TranscodeBatches();
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (request: TranscodeRequest) => {
  queue = queue.then(async () => {
    const reply = await batches.handle(request);
    parentPort?.postMessage(reply, [reply.data]);
  });
});
