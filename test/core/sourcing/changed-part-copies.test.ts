// A paid part at another speed copies none of its audio whole on the main thread: the original, streamed in pieces,
// is copied piece by piece as they arrive into blocks of its own, changed in the audio worker, and comes back in
// shared memory, which every reader, the cache and a scene's mix take as it is.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OPUS_ENCODER_SETTINGS } from '../../../src/core/cache/audio-fill.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { ChangedParts, type Originals } from '../../../src/core/sourcing/changed-parts.ts';
import type { SpeechAudio } from '../../../src/core/sourcing/order-account.ts';
import type { ServiceRequest } from '../../../src/core/settings/speech-request.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';
import { inPieces, PIECE } from '../../support/streamed-pieces.ts';

const RATE = 24000;

describe('a streamed paid part at another speed', () => {
  it('is changed with no copy larger than a piece on the main thread, and read as the shared bytes that came back', async () => {
    const wav = Buffer.from(
      encodeWav(toneSamples({ pitchHz: 200, seconds: 20, amplitude: 0.3, sampleRate: RATE }), RATE),
    );
    const pieces = inPieces(wav);
    const originals: Originals = {
      key: () => 'd'.repeat(64),
      fetch: () => Promise.resolve({ format: 'wav', body: Readable.from(pieces) } as unknown as SpeechAudio),
      saved: () => undefined,
    };
    const parts = new ChangedParts(
      { cache: undefined, metrics: undefined, log: silentLogger, encoding: OPUS_ENCODER_SETTINGS },
      originals,
    );
    const request: ServiceRequest = { kind: 'tts', text: 'fast', voice: 'voice-b-en-f-01', format: 'wav' };
    const { result, copies } = await mainThreadCopies(async () => {
      const part = await parts.fetch(request, { speed: 2, volumeDb: 0 }, 'fast', new AbortController().signal);
      return (await part.body.toArray()) as Buffer[];
    });
    expect(copies.filter((copy) => copy.how === 'Buffer.concat')).toEqual([]);
    expect(copies.filter((copy) => copy.bytes > PIECE)).toEqual([]);
    expect(result).toHaveLength(1);
    expect(result[0]?.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Twice as fast: about half the samples, one header.
    expect(Math.abs((result[0]?.length ?? 0) / (wav.length / 2) - 1)).toBeLessThan(0.02);
  });
});
