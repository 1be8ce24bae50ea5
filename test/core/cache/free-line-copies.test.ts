// A free line on its way to a file copies no audio on the main thread: spoken in the free voice's worker, kept as
// the part's bytes, written to the cache and read back, read whole as a file's part, and joined in the audio worker.
// The main thread also sends every server's voice packets, and a copy of a few megabytes there is a gap in each.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { AudioFill } from '../../../src/core/cache/audio-fill.ts';
import { joinPartsOffThread } from '../../../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { speakFree } from '../../../src/core/free-voice/free-voice-engine.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a free line on the main thread', () => {
  it('is spoken, cached, read back, read whole and joined into a file without one copy of its audio', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'saybot-copies-'));
    dirs.push(dir);
    const cache = await AudioCache.open({ dir, maxBytes: 100 * 1024 * 1024, logger: silentLogger });
    const key = 'a'.repeat(64);
    const text = 'A free line long enough to be a few hundred kilobytes of audio, spoken for a file. '.repeat(3);
    const { result, copies } = await mainThreadCopies(async () => {
      const wav = await speakFree(text, 'free-en-f', 'G1', 'M1');
      const fill = new AudioFill({ format: 'wav', body: Readable.from([wav]) });
      await cache.put(key, 'free-en-f', await fill.complete, 0);
      const hit = await cache.get(key, 'free-en-f');
      // One piece, the free voice's WAV as it came (in shared memory): nothing to join.
      const [part = Buffer.alloc(0)] = (await fill.part().body.toArray()) as Buffer[];
      const file = await joinPartsOffThread([part, part], 'wav', { guild: 'G1', member: 'M1' });
      return { wav, hit, file };
    });
    expect(result.wav.length).toBeGreaterThan(100_000);
    expect(result.hit?.audio[0]?.equals(result.wav)).toBe(true);
    expect(result.file.data.length).toBeGreaterThan(2 * (result.wav.length - 44));
    expect(copies).toEqual([]);
  });

  it("sees the copies it looks for: a concat, a typed array's copy, a join of bytes of the main thread's own", async () => {
    const bytes = Buffer.alloc(64 * 1024, 1);
    const { copies } = await mainThreadCopies(async () => {
      Buffer.concat([bytes, bytes]);
      void new Uint8Array(bytes);
      // Bytes in the main thread's own memory (not shared) are copied once to be handed to the worker.
      await joinPartsOffThread([bytes], 'wav').catch(() => undefined);
    });
    expect(copies.map((copy) => copy.how)).toEqual(['Buffer.concat', 'new Uint8Array(bytes)', 'new Uint8Array(bytes)']);
  });
});
