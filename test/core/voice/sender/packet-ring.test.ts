// The ring a voice's packets cross from the main thread to the sender thread: what the reader sees is what the writer
// wrote, in order; a full ring refuses a write and its writer's wait for room ends when the reader frees a slot (from
// another thread, as the sender does); the sleep hand-shake tells the writer when a wake is owed. No time asserted.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  createRing,
  END_OF_CLIP,
  RingReader,
  RingWriter,
  SLOT_BYTES,
} from '../../../../src/core/voice/sender/packet-ring.ts';

const RING_MODULE = new URL('../../../../src/core/voice/sender/packet-ring.ts', import.meta.url).pathname;
const bytes = (n: number, length = 3) => Uint8Array.from({ length }, (_, i) => (n + i) & 0xff);

describe('the packet ring', () => {
  it('reads back every slot as written, in order, across many turns of the ring; a full ring refuses a write', () => {
    const ring = createRing(4);
    const writer = new RingWriter(ring);
    const reader = new RingReader(ring);
    let read = 0;
    for (let n = 0; n < 50; n++) {
      expect(writer.push(7, n, n % 3, bytes(n, 1 + (n % 40)))).toBe(true);
      if (n % 4 === 3) {
        expect(writer.free).toBe(0);
        expect(writer.push(7, 99, 0, bytes(99))).toBe(false);
        while (!reader.empty) {
          expect([reader.clip, reader.number, reader.generation, reader.bytes]).toEqual([
            7,
            read,
            read % 3,
            1 + (read % 40),
          ]);
          expect(Buffer.from(reader.take())).toEqual(Buffer.from(bytes(read, 1 + (read % 40))));
          reader.advance();
          read += 1;
        }
      }
    }
    expect(read).toBe(48);
    expect(writer.push(7, 0, 0, undefined)).toBe(true);
    expect(reader.number).toBe(48);
  });

  it("a clip's end is a slot of its own; a packet longer than a slot is refused with a RangeError", () => {
    const ring = createRing(2);
    const writer = new RingWriter(ring);
    const reader = new RingReader(ring);
    expect(() => writer.push(1, 0, 0, new Uint8Array(SLOT_BYTES + 1))).toThrow(RangeError);
    expect(reader.empty).toBe(true);
    expect(writer.push(1, 0, 0, new Uint8Array(SLOT_BYTES))).toBe(true);
    expect(writer.push(1, 0, 0, undefined)).toBe(true);
    expect(reader.take()).toHaveLength(SLOT_BYTES);
    reader.advance();
    expect(reader.bytes).toBe(END_OF_CLIP);
    expect(() => createRing(3)).toThrow(RangeError);
  });

  it('a reader asleep is woken by the next write, once; one that found a packet meanwhile does not sleep', () => {
    const ring = createRing(4);
    const writer = new RingWriter(ring);
    const reader = new RingReader(ring);
    // A new ring's reader sleeps until the first write.
    expect(writer.push(1, 0, 0, bytes(0))).toBe(true);
    expect(writer.wakeNeeded()).toBe(true);
    expect(writer.wakeNeeded()).toBe(false);
    expect(reader.sleep()).toBe(false);
    reader.advance();
    expect(reader.sleep()).toBe(true);
    expect(writer.push(1, 1, 0, bytes(1))).toBe(true);
    expect(writer.wakeNeeded()).toBe(true);
  });

  it('a writer waiting for room goes on when a reader in another thread frees a slot', async () => {
    const ring = createRing(2);
    const writer = new RingWriter(ring);
    expect(writer.push(1, 0, 0, bytes(0))).toBe(true);
    expect(writer.push(1, 1, 0, bytes(1))).toBe(true);
    expect(writer.push(1, 2, 0, bytes(2))).toBe(false);
    const room = writer.room(60_000);
    // A reader in a thread of its own frees one slot once it is told to (its notify ends the wait, not the bound).
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const { RingReader } = require(${JSON.stringify(RING_MODULE)});
      const reader = new RingReader(workerData);
      parentPort.once('message', () => reader.advance());`;
    const worker = new Worker(code, { eval: true, workerData: ring });
    try {
      worker.postMessage('free one');
      expect(await room).toBe('ok');
      expect(writer.push(1, 2, 0, bytes(2))).toBe(true);
    } finally {
      await worker.terminate();
    }
  });
});
