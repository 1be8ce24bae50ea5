// A part let go of while it was fetched (a clone refused before its first line plays aborts its audio) must not become
// a packet stream that fails on its own before anyone listens: that failure was an uncaught exception (seen in the
// suite, from /clone's first line refused). partPackets refuses an aborted signal at once, and releases the body.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { partPackets, OPUS_ENCODER_SETTINGS } from '../../../src/core/cache/audio-fill.ts';

describe('partPackets on a part already let go of', () => {
  it.each(['stored packets', 'a body to encode'])(
    'refuses at once, with the abort, and releases the body (%s)',
    (kind) => {
      const controller = new AbortController();
      controller.abort();
      const body = new Readable({ read() {} });
      const audio = {
        format: 'wav' as const,
        body,
        ...(kind === 'stored packets'
          ? { packets: (signal?: AbortSignal) => new Readable({ objectMode: true, read() {}, signal }) }
          : {}),
      };
      let made: Readable | undefined;
      expect(() => {
        made = partPackets(audio, OPUS_ENCODER_SETTINGS, controller.signal);
      }).toThrow(/abort/i);
      // On the code before, a stream came back and failed on the next tick with no listener: keep that from the run.
      made?.on('error', () => undefined);
      expect(body.destroyed).toBe(true);
    },
  );
});
