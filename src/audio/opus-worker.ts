// A worker thread of the Opus encoder pool (opus-pool.ts): it holds one encoder per stream and encodes the frames
// of each batch in order, answering with one message per batch.
import { parentPort } from 'node:worker_threads';
import { createNativeEncoder, type NativeEncoder } from './opus-settings.ts';
import type { EncodedBatch, WorkerRequest } from './opus-pool-protocol.ts';

const encoders = new Map<number, NativeEncoder>();

function handle(request: WorkerRequest): EncodedBatch {
  for (const [id, spec] of request.opens) encoders.set(id, createNativeEncoder(spec));
  const ids: number[] = [];
  const lengths: number[] = [];
  const packets: Buffer[] = [];
  const failed: [number, string][] = [];
  const input = Buffer.from(request.data);
  let at = 0;
  for (let i = 0; i < request.ids.length; i++) {
    const id = request.ids[i] ?? -1;
    const length = request.lengths[i] ?? 0;
    const frame = input.subarray(at, at + length);
    at += length;
    const encoder = encoders.get(id);
    if (!encoder) continue;                       // closed meanwhile
    try {
      const packet = encoder.encode(frame);
      ids.push(id);
      lengths.push(packet.length);
      packets.push(packet);
    } catch (error) {
      encoders.delete(id);
      failed.push([id, error instanceof Error ? error.message : String(error)]);
    }
  }
  for (const id of request.closes) encoders.delete(id);
  // An ArrayBuffer of its own (not Node's shared pool), transferred back without a copy.
  const joined = Buffer.allocUnsafeSlow(lengths.reduce((sum, n) => sum + n, 0));
  let offset = 0;
  for (const packet of packets) offset += packet.copy(joined, offset);
  return { ids, lengths, data: joined.buffer as ArrayBuffer, failed };
}

parentPort?.on('message', (request: WorkerRequest) => {
  const reply = handle(request);
  parentPort?.postMessage(reply, [reply.data]);
});
