// Test audio as Opus: a tone or a sweep encoded by libopus at its defaults, mono, with the pre-skip the Ogg writer
// declares (src/core/audio/codecs/ogg-opus-writer.ts).
import opus from '@discordjs/opus';
import { ENCODER_PRE_SKIP } from '../../src/core/audio/codecs/ogg-opus-writer.ts';
import { FRAME_SAMPLES, OPUS_RATE } from '../../src/core/audio/codecs/opus-encode.ts';

export interface EncodedOpus {
  packets: Buffer[];
  /** Input samples (per channel) before the last frame's padding. */
  sampleCount: number;
}

/**
 * s16 mono PCM at 48 kHz -> 20 ms mono Opus packets. The encoder's look-ahead delays everything by the pre-skip,
 * so that much silence is fed after the samples: without it the last pre-skip's worth of speech would never come
 * out, and the granule position (pre-skip + sampleCount) would promise samples the packets do not hold.
 */
export function encodeMonoOpus(samples: Int16Array): EncodedOpus {
  const encoder = new opus.OpusEncoder(OPUS_RATE, 1);
  const packets: Buffer[] = [];
  const input = new Int16Array(samples.length + ENCODER_PRE_SKIP);
  input.set(samples);
  for (let at = 0; at < input.length; at += FRAME_SAMPLES) {
    const frame = new Int16Array(FRAME_SAMPLES);
    frame.set(input.subarray(at, at + FRAME_SAMPLES));
    packets.push(encoder.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)));
  }
  return { packets, sampleCount: samples.length };
}
