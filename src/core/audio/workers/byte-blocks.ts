// A body that arrives in pieces, gathered for a worker: each piece copied, as it arrives, into blocks of memory of
// their own, which then move to the worker (transferred, not copied) and are joined there. The main thread never
// joins a file's bytes in one go (Buffer.concat of the pieces: a copy the size of the file in one task).

/** A block's size: a few network reads; the last one is partly used. */
const BLOCK_BYTES = 256 * 1024;

export class ByteBlocks {
  readonly #full: Uint8Array<ArrayBuffer>[] = [];
  #block: Uint8Array<ArrayBuffer> | undefined;
  #at = 0;
  #bytes = 0;

  /** Bytes gathered. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Copies `piece` in (the caller's piece stays its own: a flight's other readers and the cache still hold it). */
  add(piece: Uint8Array): void {
    this.#bytes += piece.byteLength;
    for (let from = 0; from < piece.byteLength;) {
      if (this.#block === undefined || this.#at === this.#block.length) {
        if (this.#block) this.#full.push(this.#block);
        this.#block = new Uint8Array(new ArrayBuffer(BLOCK_BYTES));
        this.#at = 0;
      }
      const n = Math.min(piece.byteLength - from, this.#block.length - this.#at);
      this.#block.set(piece.subarray(from, from + n), this.#at);
      this.#at += n;
      from += n;
    }
  }

  /** The blocks in order, the last cut to what it holds (a view: its whole buffer moves with it). */
  take(): Uint8Array<ArrayBuffer>[] {
    const blocks = this.#full.splice(0);
    if (this.#block) blocks.push(this.#block.subarray(0, this.#at));
    this.#block = undefined;
    this.#at = 0;
    this.#bytes = 0;
    return blocks;
  }
}
