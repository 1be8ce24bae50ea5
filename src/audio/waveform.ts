// The `waveform` of a Discord voice message: one byte of loudness per slice of the audio, as the clients draw it.
// Loudness is measured in dB (RMS per bucket) rather than linear amplitude, so that quiet syllables still show and
// the bars look like the speech; below the floor is drawn as silence.

/** Discord accepts up to 256 values; clients draw about one bar per 100 ms. */
export const MAX_WAVEFORM_BYTES = 256;
export const WAVEFORM_BUCKET_SECONDS = 0.1;
/** The level drawn as an empty bar (0); 0 dBFS is a full bar (255). */
export const WAVEFORM_FLOOR_DB = -60;

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

/** The waveform as Discord's attachment field wants it: base64 of the values. */
export function waveformBase64(samples: Int16Array, sampleRate: number, channels = 1): string {
  return Buffer.from(waveformValues(samples, sampleRate, channels)).toString('base64');
}

/** A bucket's RMS level in dB as a waveform byte: the floor and below 0, 0 dBFS 255. */
export function levelByte(db: number): number {
  if (!(db > WAVEFORM_FLOOR_DB)) return 0;   // also -Infinity (digital silence) and NaN
  return Math.min(255, Math.round(((db - WAVEFORM_FLOOR_DB) / -WAVEFORM_FLOOR_DB) * 255));
}

/** s16le bytes as samples (a copy when the bytes are not 2-byte aligned). */
export function pcmSamples(pcm: Uint8Array): Int16Array {
  const whole = pcm.byteLength - (pcm.byteLength % 2);
  if (pcm.byteOffset % 2 === 0) return new Int16Array(pcm.buffer, pcm.byteOffset, whole / 2);
  return new Int16Array(Uint8Array.from(pcm.subarray(0, whole)).buffer);
}
