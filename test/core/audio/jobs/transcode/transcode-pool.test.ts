// The transcoding pool with real worker threads: a stream's failure stays its own, a worker that crashes or stops
// answering fails only the streams it held, and the pool goes on with a new worker.
import { once } from 'node:events';
import { PassThrough, Readable, type Transform } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClipError } from '../../../../../src/core/audio/errors.ts';
import { OpusWorkerError } from '../../../../../src/core/audio/codecs/opus-pool/opus-pool.ts';
import { SLICE_BYTES, TranscodePool } from '../../../../../src/core/audio/jobs/transcode/transcode-pool.ts';
import type { TranscodeSpec } from '../../../../../src/core/audio/jobs/transcode/transcode-protocol.ts';
import { START_LEAD_PACKETS } from '../../../../../src/core/voice/sender/worker-clip.ts';
import { buildWav, sine } from '../../fixtures.ts';
import { collectPackets, irregularChunks } from '../../stream-helpers.ts';

const SPEC: TranscodeSpec = {
  format: 'wav',
  encoder: { complexity: 5, bitrate: 64_000, celtOnly: true, channels: 'source' },
};
const FAULTY = new URL('../../../../support/faulty-transcode-worker.ts', import.meta.url);
/** One second of a 440 Hz tone at 24 kHz mono: 50 packets. */
const TONE = buildWav(sine(440, 1, 24_000), { sampleRate: 24_000, channels: 1 });

const pools: TranscodePool[] = [];
function pool(size: number, options: ConstructorParameters<typeof TranscodePool>[1] = {}): TranscodePool {
  const made = new TranscodePool(size, options);
  pools.push(made);
  return made;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function feed(stream: Transform, bytes: Uint8Array): Promise<Buffer[]> {
  const packets = collectPackets(stream);
  Readable.from(irregularChunks(bytes)).pipe(stream);
  return packets;
}

async function failure(packets: Promise<unknown>): Promise<unknown> {
  return packets.then(
    () => new Error('the stream ended without an error'),
    (error: unknown) => error,
  );
}

describe('TranscodePool', () => {
  it('a corrupt body fails its own stream; the stream beside it on the same worker is transcoded to its end', async () => {
    const transcode = pool(1);
    const bad = feed(transcode.stream(SPEC), Buffer.from('{"error":{"message":"internal"}}'.repeat(20)));
    const good = feed(transcode.stream(SPEC), TONE);
    expect(await failure(bad)).toBeInstanceOf(ClipError);
    expect((await good).length).toBe(50);
    expect(transcode.workers).toBe(1);
  });

  it("a worker that crashes fails the streams it held; the other worker's stream finishes and a new worker takes the next", async () => {
    const transcode = pool(2, { workerUrl: FAULTY });
    const crashing = new PassThrough();
    const doomed = collectPackets(crashing.pipe(transcode.stream(SPEC)));
    const good = feed(transcode.stream(SPEC), TONE);
    crashing.write(TONE.subarray(0, 100));
    crashing.write(Buffer.from('CRASH!'));
    const error = await failure(doomed);
    expect(error).toBeInstanceOf(OpusWorkerError);
    expect((error as Error).message).toMatch(/exited \(3\)/);
    expect((await good).length).toBe(50);
    expect(transcode.workers).toBe(1);
    expect((await feed(transcode.stream(SPEC), TONE)).length).toBe(50);
    expect(transcode.workers).toBe(2);
  });

  it('a worker that does not answer within the deadline is ended and its streams fail; a new one takes the next stream', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const transcode = pool(1, { workerUrl: FAULTY, batchDeadlineMs: 5_000 });
    const stream = transcode.stream(SPEC);
    let failed: unknown;
    stream.on('error', (error) => {
      failed = error;
    });
    stream.write(Buffer.from('HANG!'));
    // The batch goes to the worker after this turn's I/O (setImmediate, not faked).
    await new Promise((resolve) => setImmediate(resolve));
    vi.advanceTimersByTime(4_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed).toBeUndefined();
    vi.advanceTimersByTime(1);
    // destroy() emits its error on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed).toBeInstanceOf(OpusWorkerError);
    expect((failed as Error).message).toMatch(/did not answer within 5000 ms/);
    expect(transcode.workers).toBe(0);
    vi.useRealTimers();
    expect((await feed(transcode.stream(SPEC), TONE)).length).toBe(50);
  });

  it('a whole clip written as one chunk comes back a slice at a time: the first packets before the rest is transcoded', async () => {
    const transcode = pool(1);
    const clip = buildWav(sine(440, 10, 24_000), { sampleRate: 24_000, channels: 1 });
    const stream = transcode.stream(SPEC);
    stream.end(clip);
    await once(stream, 'readable');
    // 10 s is 500 packets; a 16 KiB slice of 24 kHz mono is a third of a second (17 packets).
    expect(stream.readableLength).toBeGreaterThan(0);
    expect(stream.readableLength).toBeLessThanOrEqual(Math.ceil(SLICE_BYTES / 960));
    expect(stream.readableLength).toBeLessThan(50);
    expect((await collectPackets(stream)).length).toBe(500);
  });

  it("a clip's start lead, its body's 4 KiB chunks come in one turn, is made in one round trip to the worker", async () => {
    const transcode = pool(1);
    const sent = vi.spyOn(Worker.prototype, 'postMessage');
    const body = new PassThrough();
    const stream = body.pipe(transcode.stream(SPEC));
    // The sandbox's chunks: 4 KiB, about 4.3 packets of 24 kHz mono each; four make the lead.
    for (let at = 0; at < 4 * 4096; at += 4096) body.write(TONE.subarray(at, at + 4096));
    const roundTrips: number[] = [];
    for await (const _packet of stream) {
      roundTrips.push(sent.mock.calls.length);
      if (roundTrips.length === START_LEAD_PACKETS) break;
    }
    expect(roundTrips).toEqual(Array(START_LEAD_PACKETS).fill(1));
  });

  it('codes no band above what its source holds: 16 kHz audio at wideband, 24 kHz at superwideband, 48 kHz at fullband', async () => {
    const transcode = pool(1);
    // A CELT-only packet's bandwidth is in its first byte's config (RFC 6716 3.1): 16-19 narrow, then 4 configs each.
    const CELT_BANDWIDTHS = ['narrow', 'wide', 'superwide', 'full'];
    const bandwidths = async (sampleRate: number) => {
      const wav = buildWav(sine(440, 1, sampleRate), { sampleRate, channels: 1 });
      const packets = await feed(transcode.stream(SPEC), wav);
      return new Set(packets.map((packet) => CELT_BANDWIDTHS[(((packet[0] as number) >> 3) - 16) >> 2]));
    };
    expect(await bandwidths(16_000)).toEqual(new Set(['wide']));
    expect(await bandwidths(24_000)).toEqual(new Set(['superwide']));
    expect(await bandwidths(48_000)).toEqual(new Set(['full']));
  });

  it('closing the pool fails the streams still open with an OpusWorkerError', async () => {
    const transcode = pool(1);
    const stream = transcode.stream(SPEC);
    stream.write(TONE.subarray(0, 1000));
    const error = once(stream, 'error');
    await transcode.close();
    expect((await error)[0]).toBeInstanceOf(OpusWorkerError);
  });
});
