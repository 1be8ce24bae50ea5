// The voice message waveform's plain model (src/core/audio/analysis/waveform.ts's scale, computed on whole PCM): what
// the tests hold src/core/voice-message/render.ts's streaming measurement to.
import { levelByte, MAX_WAVEFORM_BYTES, WAVEFORM_BUCKET_SECONDS } from '../../src/core/audio/analysis/waveform.ts';

/**
 * Loudness per bucket, 0..255: one bucket per ~100 ms, fewer (each longer) when that would exceed 256.
 * `samples` is interleaved s16 PCM with `channels` channels; at least one value, even for no audio.
 */
export function waveformValues(samples: Int16Array, sampleRate: number, channels = 1): Uint8Array {
  const frames = Math.floor(samples.length / channels);
  const seconds = frames / sampleRate;
  const count = Math.max(1, Math.min(MAX_WAVEFORM_BYTES, Math.ceil(seconds / WAVEFORM_BUCKET_SECONDS)));
  const values = new Uint8Array(count);
  for (let bucket = 0; bucket < count; bucket++) {
    // Bucket edges by proportion, so every frame lands in exactly one bucket whatever the rounding.
    const start = Math.floor((bucket * frames) / count);
    const end = Math.floor(((bucket + 1) * frames) / count);
    let sum = 0;
    for (let i = start * channels; i < end * channels; i++) {
      const s = (samples[i] ?? 0) / 32768;
      sum += s * s;
    }
    const n = (end - start) * channels;
    values[bucket] = n === 0 ? 0 : levelByte(10 * Math.log10(sum / n));
  }
  return values;
}
