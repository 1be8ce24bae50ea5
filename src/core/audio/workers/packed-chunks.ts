// How the audio pools (../codecs/opus-pool/, ../jobs/transcode/) and their workers hand many small buffers across threads:
// one ArrayBuffer of all of them and their lengths, transferred without a copy, so that crossing costs one message
// per batch, not one per frame or packet; and a batch gathered per turn of the event loop.

export interface PackedChunks {
  lengths: number[];
  data: ArrayBuffer;
}

/** The chunks end to end in an ArrayBuffer of their own (not Node's shared pool), so that it can be transferred. */
export function packChunks(chunks: readonly Uint8Array[]): PackedChunks {
  const lengths = chunks.map((c) => c.length);
  const data = Buffer.allocUnsafeSlow(lengths.reduce((sum, n) => sum + n, 0));
  let at = 0;
  for (const chunk of chunks) {
    data.set(chunk, at);
    at += chunk.length;
  }
  return { lengths, data: data.buffer as ArrayBuffer };
}

/** Each chunk of a packed batch in order, as a view of `data` (valid while `data` is). */
export function forEachView(
  data: ArrayBuffer,
  lengths: readonly number[],
  each: (view: Buffer, index: number) => void,
): void {
  const all = Buffer.from(data);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const length = lengths[i] ?? 0;
    each(all.subarray(at, at + length), i);
    at += length;
  }
}

/**
 * Each chunk of a packed batch in order, as a copy from Node's shared pool: a view would keep the whole batch alive
 * while any one packet is cached, and an ArrayBuffer per packet would add external memory that makes V8 collect the
 * old space often.
 */
export function forEachCopy(
  data: ArrayBuffer,
  lengths: readonly number[],
  each: (copy: Buffer, index: number) => void,
): void {
  forEachView(data, lengths, (view, i) => {
    const copy = Buffer.allocUnsafe(view.length);
    view.copy(copy);
    each(copy, i);
  });
}

/**
 * Runs `flush` once after the I/O of this turn of the event loop however often it is asked within the turn, so that
 * every stream that got data in the turn joins the same batch.
 */
export class OncePerTurn {
  #scheduled = false;
  readonly #flush: () => void;

  constructor(flush: () => void) {
    this.#flush = flush;
  }

  request(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }
}
