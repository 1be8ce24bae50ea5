import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { dominantPitchHz, rmsDbfs } from '../../src/audio/analysis.ts';
import { OpusEncoderPool } from '../../src/audio/opus-pool.ts';
import { createOpusPacketStream } from '../../src/audio/playback.ts';
import { configureOpusEncoding, encoderSpec, LEGACY_SETTINGS, opusSettings, SPEECH_SETTINGS } from '../../src/audio/opus-settings.ts';
import { buildWav, fixture, sine } from './fixtures.ts';
import { collectPackets, decodePackets, irregularChunks } from './stream-helpers.ts';

/** The Opus TOC byte's stereo flag (RFC 6716 §3.1). */
const isStereo = (packet: Buffer): boolean => ((packet[0] ?? 0) & 0x04) !== 0;

function packetsOf(bytes: Uint8Array): Promise<Buffer[]> {
  return collectPackets(createOpusPacketStream(Readable.from(irregularChunks(bytes)), 'wav'));
}

/** Interleaves two mono signals. */
function stereo(left: Float32Array, right: Float32Array): Float32Array {
  const out = new Float32Array(left.length * 2);
  for (let i = 0; i < left.length; i++) { out[i * 2] = left[i]!; out[i * 2 + 1] = right[i]!; }
  return out;
}

const before = opusSettings();
afterEach(() => configureOpusEncoding(before));

describe('Opus encoding for the player (issue 17)', () => {
  it('encodes a mono source as mono packets, a stereo one as stereo, and always stereo with the previous settings', async () => {
    configureOpusEncoding(SPEECH_SETTINGS);
    const mono = buildWav(sine(300, 1, 24000), { sampleRate: 24000, channels: 1 });
    const both = buildWav(stereo(sine(300, 1, 44100), sine(500, 1, 44100)), { sampleRate: 44100, channels: 2 });
    expect((await packetsOf(mono)).every((p) => !isStereo(p))).toBe(true);
    expect((await packetsOf(both)).every(isStereo)).toBe(true);
    configureOpusEncoding(LEGACY_SETTINGS);
    expect((await packetsOf(mono)).every(isStereo)).toBe(true);
  });

  it('keeps the speech fixture\'s pitch and level through mono encoding, as a stereo decoder hears it', async () => {
    configureOpusEncoding(SPEECH_SETTINGS);
    const decoded = decodePackets(await packetsOf(fixture('speech-en-24k-mono.wav')));
    configureOpusEncoding(LEGACY_SETTINGS);
    const reference = decodePackets(await packetsOf(fixture('speech-en-24k-mono.wav')));
    expect(decoded.left).toEqual(decoded.right);
    expect(Math.abs(dominantPitchHz(decoded.left, 48000)! - dominantPitchHz(reference.left, 48000)!)).toBeLessThan(1);
    expect(Math.abs(rmsDbfs(decoded.left) - rmsDbfs(reference.left))).toBeLessThan(0.2);
    expect(decoded.seconds).toBe(reference.seconds);
  });

  it('gives the very same packets from the worker pool as on the calling thread', async () => {
    const bytes = fixture('speech-en-24k-mono.wav');
    configureOpusEncoding({ ...SPEECH_SETTINGS, thread: 'workers', workers: 1 });
    const pooled = await packetsOf(bytes);
    configureOpusEncoding({ ...SPEECH_SETTINGS, thread: 'main' });
    const inline = await packetsOf(bytes);
    expect(pooled.length).toBeGreaterThan(100);
    expect(pooled).toEqual(inline);
  });

  it('keeps many streams on one worker apart, each in order, and one destroyed midway does not disturb the others', async () => {
    configureOpusEncoding({ ...SPEECH_SETTINGS, thread: 'main' });
    const tones = [220, 330, 440, 550].map((f) => buildWav(sine(f, 1.5, 24000), { sampleRate: 24000, channels: 1 }));
    const expected = await Promise.all(tones.map(packetsOf));
    configureOpusEncoding({ ...SPEECH_SETTINGS, thread: 'workers', workers: 1 });
    const doomed = createOpusPacketStream(Readable.from(irregularChunks(tones[0]!)), 'wav');
    doomed.once('data', () => doomed.destroy());
    const together = await Promise.all(tones.map(packetsOf));
    expect(together).toEqual(expected);
    expect(doomed.destroyed).toBe(true);
  });

  it('answers every frame given to the pool with a packet, in order per stream, and answers frames waiting or sent after the pool closed with an error', async () => {
    const pool = new OpusEncoderPool(2);
    const spec = encoderSpec(SPEECH_SETTINGS, 1);
    const frame = Buffer.from(new Int16Array(960).map((_, i) => Math.round(8000 * Math.sin(i / 10))).buffer);
    const encoders = [pool.open(spec), pool.open(spec), pool.open(spec)];
    const order: number[][] = encoders.map(() => []);
    await Promise.all(encoders.flatMap((e, i) => Array.from({ length: 5 }, (_, k) => new Promise<void>((resolve, reject) => {
      e.encode(frame, (error, packet) => {
        if (error || !packet || packet.length === 0) reject(error ?? new Error('no packet'));
        order[i]!.push(k);
        resolve();
      });
    }))));
    expect(order).toEqual(encoders.map(() => [0, 1, 2, 3, 4]));
    // A frame still waiting for its batch when the pool closes is answered too, with an error.
    const pending = new Promise<Error | null>((resolve) => encoders[1]!.encode(frame, (error) => resolve(error)));
    await pool.close();
    expect((await pending)?.name).toBe('OpusWorkerError');
    const failed = await new Promise<Error | null>((resolve) => encoders[0]!.encode(frame, (error) => resolve(error)));
    expect(failed?.name).toBe('OpusWorkerError');
  });
});
