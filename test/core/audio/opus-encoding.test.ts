import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dominantPitchHz, rmsDbfs } from '../../../src/core/audio/analysis/analysis.ts';
import opus from '@discordjs/opus';
import { ENCODER_PRE_SKIP } from '../../../src/core/audio/codecs/ogg-opus-writer.ts';
import { OpusEncoderPool } from '../../../src/core/audio/codecs/opus-pool/opus-pool.ts';
import { createOpusPacketStream, OPUS_ENCODER_SETTINGS } from '../../../src/core/cache/audio-fill.ts';
import { encoderSpec, type OpusSettings } from '../../../src/core/audio/codecs/opus-settings.ts';
import { LEGACY_SETTINGS } from '../../../fixtures/legacy-encoding.ts';
import { buildWav, fixture, sine, stereo } from './fixtures.ts';
import { collectPackets, decodePackets, irregularChunks } from './stream-helpers.ts';

/** The Opus TOC byte's stereo flag (RFC 6716 §3.1). */
const isStereo = (packet: Buffer): boolean => ((packet[0] ?? 0) & 0x04) !== 0;

function packetsOf(bytes: Uint8Array, encoding: Readonly<OpusSettings>): Promise<Buffer[]> {
  return collectPackets(createOpusPacketStream(Readable.from(irregularChunks(bytes)), 'wav', { encoding }));
}

/**
 * Whether a CELT-only packet's frame uses the pitch pre-filter: after the TOC byte, the range coder's second symbol
 * (RFC 6716 §4.1 and §4.3: the silence flag at 1/32768, then the pre-filter flag at 1/2).
 */
function usesPitchPrefilter(packet: Buffer): boolean {
  let at = 1;
  const byte = (): number => (at < packet.length ? (packet[at++] ?? 0) : 0);
  let rem = byte();
  let rng = 128;
  let val = rng - 1 - (rem >> 1);
  const normalize = (): void => {
    while (rng <= 2 ** 23) {
      rng *= 256;
      const sym = ((rem << 8) | (rem = byte())) >> 1;
      val = (val * 256 + (255 & ~sym)) % 2 ** 31;
    }
  };
  const bit = (logp: number): boolean => {
    const s = Math.floor(rng / 2 ** logp);
    const one = val < s;
    if (one) rng = s;
    else {
      val -= s;
      rng -= s;
    }
    normalize();
    return one;
  };
  normalize();
  return !bit(15) && bit(1);
}

const pooled = { ...OPUS_ENCODER_SETTINGS, thread: 'workers', workers: 1 } as const;
const inline = { ...OPUS_ENCODER_SETTINGS, thread: 'main' } as const;

describe('Opus encoding for the player', () => {
  it('encodes a mono source as mono packets, a stereo one as stereo, and always stereo with the previous settings', async () => {
    const mono = buildWav(sine(300, 1, 24000), { sampleRate: 24000, channels: 1 });
    const both = buildWav(stereo(sine(300, 1, 44100), sine(500, 1, 44100)), { sampleRate: 44100, channels: 2 });
    expect((await packetsOf(mono, OPUS_ENCODER_SETTINGS)).every((p) => !isStereo(p))).toBe(true);
    expect((await packetsOf(both, OPUS_ENCODER_SETTINGS)).every(isStereo)).toBe(true);
    expect((await packetsOf(mono, LEGACY_SETTINGS)).every(isStereo)).toBe(true);
  });

  it("keeps the speech fixture's pitch and level through mono encoding, as a stereo decoder hears it", async () => {
    const decoded = decodePackets(await packetsOf(fixture('speech-en-24k-mono.wav'), OPUS_ENCODER_SETTINGS));
    const reference = decodePackets(await packetsOf(fixture('speech-en-24k-mono.wav'), LEGACY_SETTINGS));
    expect(decoded.left).toEqual(decoded.right);
    expect(Math.abs(dominantPitchHz(decoded.left, 48000)! - dominantPitchHz(reference.left, 48000)!)).toBeLessThan(1);
    expect(Math.abs(rmsDbfs(decoded.left) - rmsDbfs(reference.left))).toBeLessThan(0.2);
    expect(decoded.seconds).toBe(reference.seconds);
  });

  it('gives the very same packets from the worker pool as on the calling thread', async () => {
    const bytes = fixture('speech-en-24k-mono.wav');
    const fromPool = await packetsOf(bytes, pooled);
    const onThread = await packetsOf(bytes, inline);
    expect(fromPool.length).toBeGreaterThan(100);
    expect(fromPool).toEqual(onThread);
  });

  it('keeps many streams on one worker apart, each in order, and one destroyed midway does not disturb the others', async () => {
    const tones = [220, 330, 440, 550].map((f) => buildWav(sine(f, 1.5, 24000), { sampleRate: 24000, channels: 1 }));
    const expected = await Promise.all(tones.map((tone) => packetsOf(tone, inline)));
    const doomed = createOpusPacketStream(Readable.from(irregularChunks(tones[0]!)), 'wav', { encoding: pooled });
    doomed.once('data', () => doomed.destroy());
    const together = await Promise.all(tones.map((tone) => packetsOf(tone, pooled)));
    expect(together).toEqual(expected);
    expect(doomed.destroyed).toBe(true);
  });

  it('delays the audio by the pre-skip voice messages write (render.ts), as the default encoder does', async () => {
    // Voice messages are the player's packets in an Ogg whose OpusHead says ENCODER_PRE_SKIP: complexity 5 and
    // CELT only must not change the encoder's lookahead. A sweep (no period: one lag fits best) after 100 ms of
    // silence, at 48 kHz so that no resampling moves it.
    const input = new Float32Array(4800 + 19200);
    for (let i = 0; i < 19200; i++) {
      const t = i / 48000;
      input[4800 + i] = 0.5 * Math.sin(2 * Math.PI * (200 * t + 2250 * t * t));
    }
    const packets = await packetsOf(buildWav(input, { sampleRate: 48000, channels: 1 }), OPUS_ENCODER_SETTINGS);
    expect(packets.every((p) => !isStereo(p))).toBe(true);
    const decoder = new opus.OpusEncoder(48000, 1);
    const pcm = Buffer.concat(packets.map((packet) => decoder.decode(packet)));
    const output = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
    let bestLag = -1;
    let best = -Infinity;
    for (let lag = 0; lag <= 1000; lag++) {
      let sum = 0;
      for (let i = 4000; i < 20000; i++) sum += input[i]! * (output[i + lag] ?? 0);
      if (sum > best) {
        best = sum;
        bestLag = lag;
      }
    }
    expect(Math.abs(bestLag - ENCODER_PRE_SKIP)).toBeLessThanOrEqual(2);
  });

  it("leaves out CELT's pitch pre-filter (a third of the transcoder's CPU a frame): no packet of the speech fixture uses it", async () => {
    const speech = fixture('speech-en-24k-mono.wav');
    const prefiltered = async (complexity: number): Promise<number> =>
      (await packetsOf(speech, { ...OPUS_ENCODER_SETTINGS, complexity })).filter(usesPitchPrefilter).length;
    expect(await prefiltered(OPUS_ENCODER_SETTINGS.complexity)).toBe(0);
    // The reading holds: at libopus' default complexity the voiced frames use it.
    expect(await prefiltered(10)).toBeGreaterThan(100);
  });

  it('answers every frame given to the pool with a packet, in order per stream, and answers frames waiting or sent after the pool closed with an error', async () => {
    const pool = new OpusEncoderPool(2);
    const spec = encoderSpec(OPUS_ENCODER_SETTINGS, 1);
    const frame = Buffer.from(new Int16Array(960).map((_, i) => Math.round(8000 * Math.sin(i / 10))).buffer);
    const encoders = [pool.open(spec), pool.open(spec), pool.open(spec)];
    const order: number[][] = encoders.map(() => []);
    await Promise.all(
      encoders.flatMap((e, i) =>
        Array.from(
          { length: 5 },
          (_, k) =>
            new Promise<void>((resolve, reject) => {
              e.encode(frame, (error, packet) => {
                if (error || !packet || packet.length === 0) reject(error ?? new Error('no packet'));
                order[i]!.push(k);
                resolve();
              });
            }),
        ),
      ),
    );
    expect(order).toEqual(encoders.map(() => [0, 1, 2, 3, 4]));
    // A frame still waiting for its batch when the pool closes is answered too, with an error.
    const pending = new Promise<Error | null>((resolve) => encoders[1]!.encode(frame, (error) => resolve(error)));
    await pool.close();
    expect((await pending)?.name).toBe('OpusWorkerError');
    const failed = await new Promise<Error | null>((resolve) => encoders[0]!.encode(frame, (error) => resolve(error)));
    expect(failed?.name).toBe('OpusWorkerError');
  });
});
