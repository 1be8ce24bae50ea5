// A transcoding worker for test/support/native-deadline.ts: the real one (transcode-batch.ts), except that a batch
// whose bytes hold "SPIN!" is never answered: the thread encodes a frame after another with the real Opus encoder
// (opus-settings.ts, the native addon where it loads) for ever, so that nearly all of its time is spent inside the
// addon's calls, as a transcoding thread starved of a core under heavy load is when its deadline passes.
import { parentPort } from 'node:worker_threads';
import { createNativeEncoder } from '../../src/core/audio/codecs/opus-settings.ts';
import { TranscodeBatches } from '../../src/core/audio/jobs/transcode/transcode-batch.ts';
import type { TranscodeRequest } from '../../src/core/audio/jobs/transcode/transcode-protocol.ts';

const batches = new TranscodeBatches();
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (request: TranscodeRequest) => {
  if (Buffer.from(request.data).toString('latin1').includes('SPIN!')) {
    const encoder = createNativeEncoder({ channels: 2, complexity: 10, bitrate: 128_000, celtOnly: false });
    const frame = Buffer.alloc(960 * 2 * 2);
    for (let i = 0; i < frame.length; i += 2) frame.writeInt16LE(Math.round(9000 * Math.sin(i / 7)), i);
    for (;;) encoder.encode(frame);
  }
  queue = queue.then(async () => {
    const reply = await batches.handle(request);
    parentPort?.postMessage(reply, [reply.data]);
  });
});
