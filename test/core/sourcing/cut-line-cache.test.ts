// A free line cut at its cap is delivered with a note saying so, and a cache hit could not carry that note: neither
// the line nor any copy of it at another speed or volume is ever kept. ChangedParts on a real cache on disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { OPUS_ENCODER_SETTINGS } from '../../../src/core/cache/audio-fill.ts';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { ChangedParts, type Originals } from '../../../src/core/sourcing/changed-parts.ts';
import type { SpeechAudio } from '../../../src/core/sourcing/order-account.ts';
import type { ServiceRequest } from '../../../src/core/settings/speech-request.ts';
import { encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';

const RATE = 22050;
const wav = Buffer.from(encodeWav(toneSamples({ pitchHz: 200, seconds: 2, amplitude: 0.3, sampleRate: RATE }), RATE));
const request: ServiceRequest = { kind: 'tts', text: 'a line', voice: 'free-en-f', format: 'wav' };
let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The line at twice its speed, its original as `cutAt` says; how many entries the cache kept after. */
async function fasterCopyKept(cutAt: number | undefined): Promise<{ entries: number; cutAt: number | undefined }> {
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-cut-'));
  const cache = await AudioCache.open({ dir, maxBytes: 50_000_000, logger: silentLogger });
  const original = { format: 'wav', body: Readable.from([wav]), ...(cutAt === undefined ? {} : { cutAt }) };
  const originals: Originals = {
    key: () => 'c'.repeat(64),
    fetch: () => Promise.resolve(original as SpeechAudio),
    saved: () => undefined,
  };
  const parts = new ChangedParts(
    { cache, metrics: undefined, log: silentLogger, encoding: OPUS_ENCODER_SETTINGS },
    originals,
  );
  const part = await parts.fetch(request, { speed: 2, volumeDb: 0 }, 'a line', new AbortController().signal);
  await part.body.toArray();
  await parts.drained();
  await cache.close();
  return { entries: cache.size.entries, cutAt: part.cutAt };
}

describe('a copy of a free line at another speed', () => {
  it('is cached when its line was whole', async () => {
    expect(await fasterCopyKept(undefined)).toEqual({ entries: 1, cutAt: undefined });
  });

  it('is not cached when its line was cut at the cap, and still says it was cut', async () => {
    expect(await fasterCopyKept(120)).toEqual({ entries: 0, cutAt: 120 });
  });
});
