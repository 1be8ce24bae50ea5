// Connects source -> stages like stream.pipeline (any failure or early destroy tears every stream down, the
// output ending with the error), but removes every listener it added once each stream is done: pipeline leaves
// its listeners on the finished streams, which would keep the whole decoder chain reachable from an HTTP body
// that someone still holds.
import { finished } from 'node:stream';
import type { Duplex, Readable } from 'node:stream';

export function chain(source: Readable, stages: readonly Duplex[]): Readable {
  const streams: Array<Readable | Duplex> = [source, ...stages];
  const output = streams[streams.length - 1] ?? source;
  let failed = false;
  const fail = (error: Error): void => {
    if (failed) return;
    failed = true;
    // Only the output reports the error (to whoever plays it); the others just stop and release what they hold.
    for (const stream of streams) {
      if (stream === output) stream.destroy(error);
      else stream.destroy();
    }
  };
  for (const stream of streams) {
    const cleanup = finished(stream, (error) => {
      cleanup();
      if (error) fail(error);
      // Without our error listener, a stream that could still emit 'error' (a source with autoDestroy off)
      // would crash the process; a destroyed one cannot.
      else if (!stream.destroyed) stream.destroy();
    });
  }
  for (let i = 0; i + 1 < streams.length; i++) streams[i]?.pipe(streams[i + 1] as Duplex);
  return output;
}
