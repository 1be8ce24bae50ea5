// A body as the Voice API's arrives over HTTP: what the main-thread copy tests feed SayBot, so that a part far larger
// than the copy counter's threshold comes as many pieces, none of which SayBot may join on the main thread.

/** A network read's worth: the largest copy the main thread may make of a streamed part (one piece as it came). */
export const PIECE = 64 * 1024;

/** `bytes` in pieces of PIECE bytes, each a buffer of its own (not views of one), as a streamed body's are. */
export function inPieces(bytes: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += PIECE) out.push(Buffer.from(bytes.subarray(at, at + PIECE)));
  return out;
}
