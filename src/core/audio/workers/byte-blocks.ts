// A body arriving in pieces, copied as it arrives into shared-memory blocks every job reads in place, so the main
// thread never joins a part's bytes in one go (a file-sized copy in one task).
import type { OwnBlocks, PartBytes, SharedBlocks } from './byte-block-types.ts';

/** A block's size: a few network reads; the last one is partly used. */
const BLOCK_BYTES = 256 * 1024;

class ByteBlocks {
  readonly #full: SharedBlocks = [];
  #block: Uint8Array<SharedArrayBuffer> | undefined;
  #at = 0;

  /** Copies `piece` in (the caller's piece stays its own: a flight's other readers and the cache still hold it). */
  add(piece: Uint8Array): void {
    for (let from = 0; from < piece.byteLength;) {
      if (this.#block === undefined || this.#at === this.#block.length) {
        if (this.#block) this.#full.push(this.#block);
        this.#block = new Uint8Array(new SharedArrayBuffer(BLOCK_BYTES));
        this.#at = 0;
      }
      const n = Math.min(piece.byteLength - from, this.#block.length - this.#at);
      this.#block.set(piece.subarray(from, from + n), this.#at);
      this.#at += n;
      from += n;
    }
  }

  /** The blocks in order, the last cut to what it holds. */
  take(): SharedBlocks {
    const blocks = this.#full.splice(0);
    if (this.#block) blocks.push(this.#block.subarray(0, this.#at));
    this.#block = undefined;
    this.#at = 0;
    return blocks;
  }
}

const isShared = (bytes: Uint8Array): bytes is Uint8Array<SharedArrayBuffer> =>
  bytes.buffer instanceof SharedArrayBuffer;

/** A part's body for the audio worker: shared memory as is (free voice WAV, cache hit), else copied into blocks. */
export async function gather(body: AsyncIterable<Uint8Array>): Promise<PartBytes> {
  let first: Uint8Array | undefined;
  let blocks: ByteBlocks | undefined;
  for await (const piece of body) {
    if (blocks === undefined && first === undefined) {
      first = piece;
      continue;
    }
    if (blocks === undefined) {
      blocks = new ByteBlocks();
      if (first) blocks.add(first);
      first = undefined;
    }
    blocks.add(piece);
  }
  if (blocks) return { blocks: blocks.take() };
  if (first && isShared(first)) return first;
  // One piece (a short part's body): shared memory of its own size, not a block mostly empty.
  const one = new Uint8Array(new SharedArrayBuffer(first?.byteLength ?? 0));
  if (first) one.set(first);
  return one;
}

/** The part's length in bytes. */
export const partLength = (part: Uint8Array | OwnBlocks): number =>
  'blocks' in part ? part.blocks.reduce((sum, block) => sum + block.byteLength, 0) : part.byteLength;

/** The part as Buffers to stream (views, not copies): what a body made of it reads. */
export const partViews = (part: PartBytes): Buffer[] =>
  ('blocks' in part ? part.blocks : [part]).map((view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength));
