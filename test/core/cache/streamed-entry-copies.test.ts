// A paid part streamed in pieces becomes a cache entry and is read back with no copy of its audio on the main
// thread: the entry is written as the pieces that came (never joined into one buffer there), and a hit is read from
// disk into shared memory, so the audio worker reads it as it is. The main thread also sends every server's voice
// packets, and a copy of a few megabytes there is a gap in each.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { AudioFill, cachedPart } from '../../../src/core/cache/audio-fill.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';
import { inPieces } from '../../support/streamed-pieces.ts';

const RATE = 24000;

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a streamed part in the cache', () => {
  it('is kept, written and read back without one copy of its audio on the main thread', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'saybot-streamed-entry-'));
    dirs.push(dir);
    const cache = await AudioCache.open({ dir, maxBytes: 100 * 1024 * 1024, logger: silentLogger });
    const wav = Buffer.from(
      encodeWav(toneSamples({ pitchHz: 220, seconds: 20, amplitude: 0.3, sampleRate: RATE }), RATE),
    );
    // As the service's body arrives: pieces of 64 KiB, each a buffer of its own (about 15 of them).
    const pieces = inPieces(wav);
    const key = 'b'.repeat(64);
    const { result, copies } = await mainThreadCopies(async () => {
      const fill = new AudioFill({ format: 'wav', body: Readable.from(pieces) });
      await cache.put(key, 'voice-b-en-f-01', await fill.complete, 0);
      const hit = await cache.get(key, 'voice-b-en-f-01');
      const read = hit === undefined ? [] : ((await cachedPart(hit).body.toArray()) as Buffer[]);
      return { hit, read };
    });
    expect(copies).toEqual([]);
    expect(result.hit?.format).toBe('wav');
    // Read back whole: one view of the entry's audio, in shared memory (which the audio worker reads as it is).
    expect(result.read).toHaveLength(1);
    expect(result.read[0]?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(result.read[0] ?? Buffer.alloc(0), wav)).toBe(0);
  });
});
