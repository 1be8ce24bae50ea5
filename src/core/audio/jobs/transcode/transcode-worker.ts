// A worker thread of the transcoding pool (transcode-pool.ts): its streams' batches (transcode-batch.ts), one at a
// time and in order (an MP3 decoder's first write waits for its WASM module), one reply each. At the main thread's
// priority, not nicer: its frames are what the sender thread sends next (../../workers/thread-priority.ts).
import { parentPort } from 'node:worker_threads';
import { TranscodeBatches } from './transcode-batch.ts';
import type { TranscodeRequest } from './transcode-protocol.ts';

const batches = new TranscodeBatches();
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (request: TranscodeRequest) => {
  queue = queue.then(async () => {
    const reply = await batches.handle(request);
    parentPort?.postMessage(reply, [reply.data]);
  });
});
