// A scene rendered as a file copies none of its audio whole on the main thread: a paid part streamed in pieces is
// copied piece by piece, as they arrive, into blocks of the request's own, its length is measured and the lines
// mixed in the audio worker, and a part replayed from the cache (read into shared memory) is not copied at all. The
// pieces stay as they were: a flight's other readers and the cache hold them too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { AudioFill, cachedPart } from '../../../src/core/cache/audio-fill.ts';
import { silentLogger } from '../../../src/core/log.ts';
import type { Charge } from '../../../src/core/quota/paid-call.ts';
import type { PartSource } from '../../../src/core/sourcing/part-source.ts';
import type { SpeechAudio } from '../../../src/core/sourcing/order-account.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';
import { sceneFile } from '../../../src/core/order/scene-file.ts';
import type { SpokenLine } from '../../../src/core/order/order.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';
import { inPieces, PIECE } from '../../support/streamed-pieces.ts';

const RATE = 24000;
const SECONDS = [12, 9, 15];
const charge = { context: { guildId: 'guild-1', userId: 'member-1', command: 'scene' } } as unknown as Charge;
const request: SpeechRequest = { kind: 'tts', text: 'scene', voice: 'voice-b-en-f-01', format: 'wav' };
const lines: SpokenLine[] = SECONDS.map((_, i) => ({ request, texts: [String(i)], pauseBefore: i === 0 ? 0 : 0.5 }));

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A part of `seconds` as the service streams it: pieces of 64 KiB each (far above the counter's 16 KiB). */
const pieces = (seconds: number, pitchHz: number): Buffer[] =>
  inPieces(encodeWav(toneSamples({ pitchHz, seconds, amplitude: 0.3, sampleRate: RATE }), RATE));

const sourceOf = (fetch: (text: string) => Promise<SpeechAudio>) =>
  ({
    fetchPart: async (_request: SpeechRequest, text: string) => ({ audio: await fetch(text) }),
  }) as unknown as PartSource;

describe('a scene of paid parts rendered as a file', () => {
  it('is measured and mixed with no copy larger than a piece on the main thread, the pieces left as they were', async () => {
    const parts = SECONDS.map((seconds, i) => pieces(seconds, 200 + 50 * i));
    const before = parts.map((part) => part.map((piece) => Buffer.from(piece)));
    const source = sourceOf((text) =>
      Promise.resolve({ format: 'wav', body: Readable.from(parts[Number(text)] ?? []) } as unknown as SpeechAudio),
    );
    const { result, copies } = await mainThreadCopies(() =>
      sceneFile(source, lines, { charge }, () => Promise.resolve(), 'wav'),
    );
    // No join on this thread: each piece copied once as it came, into the request's own blocks.
    expect(copies.filter((copy) => copy.how === 'Buffer.concat')).toEqual([]);
    expect(copies.filter((copy) => copy.bytes > PIECE)).toEqual([]);
    expect(copies.length).toBeLessThanOrEqual(parts.flat().length);
    expect(parts).toEqual(before);
    expect(result.seconds).toBeCloseTo(12 + 0.5 + 9 + 0.5 + 15, 2);
    expect(result.timeline).toHaveLength(3);
    expect(result.files[0].data.length).toBeGreaterThan(36 * RATE * 2);
  });

  it('replayed from the cache, copies none of its audio on the main thread', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'saybot-scene-copies-'));
    dirs.push(dir);
    const cache = await AudioCache.open({ dir, maxBytes: 100 * 1024 * 1024, logger: silentLogger });
    const key = (text: string) => text.padStart(64, 'c');
    for (const [i, seconds] of SECONDS.entries()) {
      const fill = new AudioFill({ format: 'wav', body: Readable.from(pieces(seconds, 300 + 50 * i)) });
      await cache.put(key(String(i)), request.voice, await fill.complete, 0);
    }
    const source = sourceOf(async (text) => {
      const hit = await cache.get(key(text), request.voice);
      if (!hit) throw new Error(`part ${text} is not cached`);
      return cachedPart(hit) as SpeechAudio;
    });
    const { result, copies } = await mainThreadCopies(() =>
      sceneFile(source, lines, { charge }, () => Promise.resolve(), 'wav'),
    );
    expect(copies).toEqual([]);
    expect(result.seconds).toBeCloseTo(12 + 0.5 + 9 + 0.5 + 15, 2);
  });
});
