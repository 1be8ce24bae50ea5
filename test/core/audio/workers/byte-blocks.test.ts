// How a part's body is gathered for the audio worker (gather): what came whole in shared memory is used as it is,
// anything else is copied into shared memory of the part's own, and the caller's pieces are left as they were.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { gather, partLength, partViews } from '../../../../src/core/audio/workers/byte-blocks.ts';

const bytes = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 7 + seed) % 251));

describe('gather', () => {
  it('keeps a body that came whole in shared memory as that very view', async () => {
    const shared = Buffer.from(new SharedArrayBuffer(1000), 100, 500);
    expect(await gather(Readable.from([shared]))).toBe(shared);
  });

  it("copies one piece of the main thread's own into shared memory of its size", async () => {
    const piece = bytes(10_000, 1);
    const part = await gather(Readable.from([piece]));
    expect('blocks' in part).toBe(false);
    expect(part instanceof Uint8Array && part.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(partLength(part)).toBe(10_000);
    expect(Buffer.concat(partViews(part))).toEqual(piece);
  });

  it('copies many pieces into shared blocks in order, leaving the pieces as they were', async () => {
    const pieces = Array.from({ length: 20 }, (_, i) => bytes(64 * 1024 + i, i));
    const before = pieces.map((piece) => Buffer.from(piece));
    const part = await gather(Readable.from(pieces));
    expect('blocks' in part && part.blocks.every((block) => block.buffer instanceof SharedArrayBuffer)).toBe(true);
    expect(partLength(part)).toBe(before.reduce((sum, piece) => sum + piece.length, 0));
    expect(Buffer.concat(partViews(part))).toEqual(Buffer.concat(before));
    expect(pieces).toEqual(before);
  });
});
