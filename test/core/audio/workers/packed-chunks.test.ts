import { describe, expect, it } from 'vitest';
import { forEachCopy, forEachView, OncePerTurn, packChunks } from '../../../../src/core/audio/workers/packed-chunks.ts';

const chunks = [Buffer.from([1, 2, 3]), Buffer.alloc(0), Buffer.from([4]), Buffer.from('opus packet')];

describe('packed chunks', () => {
  it('gives back every chunk in order, empty ones included', () => {
    const packed = packChunks(chunks);
    expect(packed.lengths).toEqual([3, 0, 1, 11]);
    expect(packed.data.byteLength).toBe(15);
    const seen: Buffer[] = [];
    forEachView(packed.data, packed.lengths, (view, i) => {
      expect(i).toBe(seen.length);
      seen.push(Buffer.from(view));
    });
    expect(seen).toEqual(chunks);
  });

  it('packs into an ArrayBuffer of its own, so transferring it detaches nothing else', () => {
    const first = packChunks([Buffer.from([9, 9])]);
    const second = packChunks([Buffer.from([7])]);
    expect(first.data).not.toBe(second.data);
    structuredClone(first.data, { transfer: [first.data] });
    expect(first.data.byteLength).toBe(0);
    expect(Buffer.from(second.data)).toEqual(Buffer.from([7]));
  });

  it('copies do not share the batch: changing the batch afterwards changes no copy', () => {
    const packed = packChunks(chunks);
    const copies: Buffer[] = [];
    forEachCopy(packed.data, packed.lengths, (copy) => copies.push(copy));
    new Uint8Array(packed.data).fill(0);
    expect(copies).toEqual(chunks);
    for (const copy of copies) expect(copy.buffer).not.toBe(packed.data);
  });
});

describe('OncePerTurn', () => {
  it('runs once after the turn however often it is asked in the turn, and again when asked in a later turn', async () => {
    let runs = 0;
    const once = new OncePerTurn(() => {
      runs += 1;
    });
    once.request();
    once.request();
    once.request();
    expect(runs).toBe(0);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(runs).toBe(1);
    once.request();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(runs).toBe(2);
  });
});
