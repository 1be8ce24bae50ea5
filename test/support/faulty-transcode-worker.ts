// A transcoding worker for test/core/audio/jobs/transcode/transcode-pool.test.ts: the real one
// (src/core/audio/jobs/transcode/transcode-batch.ts), except that a batch whose bytes hold "CRASH!" ends the thread
// (as a native crash or an out-of-memory end would) and one holding "HANG!" is never answered (a decoder stuck in a
// loop).
import { parentPort } from 'node:worker_threads';
import { TranscodeBatches } from '../../src/core/audio/jobs/transcode/transcode-batch.ts';
import type { TranscodeRequest } from '../../src/core/audio/jobs/transcode/transcode-protocol.ts';

const batches = new TranscodeBatches();
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (request: TranscodeRequest) => {
  const text = Buffer.from(request.data).toString('latin1');
  if (text.includes('CRASH!')) process.exit(3);
  if (text.includes('HANG!')) {
    queue = new Promise(() => undefined);
    return;
  }
  queue = queue.then(async () => {
    const reply = await batches.handle(request);
    parentPort?.postMessage(reply, [reply.data]);
  });
});
