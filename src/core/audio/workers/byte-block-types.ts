// The shapes of a part's bytes on their way to the audio worker (byte-blocks.ts gathers them; the worker's protocol
// and the speech code pass them on): types only.

/** A part's bytes in blocks of shared memory, in order: what a worker reads, and joins in its own thread. */
export type SharedBlocks = Uint8Array<SharedArrayBuffer>[];

/** A part gathered in blocks of its own (byte-blocks.ts `gather`). */
export interface OwnBlocks {
  blocks: SharedBlocks;
}

/** A part's bytes as the audio worker's jobs take them: in shared memory as they came, or gathered in blocks. */
export type PartBytes = Uint8Array<SharedArrayBuffer> | OwnBlocks;
