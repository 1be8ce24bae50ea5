// A worker thread of the Opus encoder pool (opus-pool.ts): it holds one encoder per stream and encodes the frames
// of each batch in order, answering with one message per batch.
import { parentPort } from 'node:worker_threads';
import { createNativeEncoder, type NativeEncoder } from '../opus-settings.ts';
import type { EncodedBatch, WorkerRequest } from './opus-pool-protocol.ts';
import { forEachView, packChunks } from '../../workers/packed-chunks.ts';
import { yieldToMainThread } from '../../workers/thread-priority.ts';

yieldToMainThread();

const encoders = new Map<number, NativeEncoder>();

function handle(request: WorkerRequest): EncodedBatch {
  for (const [id, spec] of request.opens) encoders.set(id, createNativeEncoder(spec));
  const ids: number[] = [];
  const packets: Buffer[] = [];
  const failed: [number, string][] = [];
  forEachView(request.data, request.lengths, (frame, i) => {
    const id = request.ids[i] ?? -1;
    const encoder = encoders.get(id);
    if (!encoder) return; // closed meanwhile
    try {
      packets.push(encoder.encode(frame));
      ids.push(id);
    } catch (error) {
      encoders.delete(id);
      failed.push([id, error instanceof Error ? error.message : String(error)]);
    }
  });
  for (const id of request.closes) encoders.delete(id);
  return { ids, ...packChunks(packets), failed };
}

parentPort?.on('message', (request: WorkerRequest) => {
  const reply = handle(request);
  parentPort?.postMessage(reply, [reply.data]);
});
