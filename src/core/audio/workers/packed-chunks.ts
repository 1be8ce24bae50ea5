// How the audio pools (../codecs/opus-pool/, ../jobs/transcode/) hand many small buffers across threads: one
// transferred ArrayBuffer and their lengths, a batch gathered per event-loop turn, so crossing costs one message a
// batch.

interface PackedChunks {
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

/** Each packed chunk copied from Node's pool: a view would keep the batch, an ArrayBuffer each taxes V8's GC. */
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

/** Runs `flush` once after this turn's I/O however often asked, so every stream fed in the turn joins one batch. */
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
