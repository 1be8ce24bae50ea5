// Decoded planar float audio at any rate -> s16le 48 kHz, mono or interleaved stereo: the input the Opus encoder wants.
import { endianness } from 'node:os';
import { FRAME_SAMPLES, OPUS_RATE } from './opus-encode.ts';
import { StereoResampler } from './resample.ts';
import type { InterleavedStereo } from './resample.ts';

// Samples are written through an Int16Array, which is native-endian; every platform Node runs on is LE.
if (endianness() !== 'LE') throw new Error('src/core/audio assumes a little-endian platform');

/** The output's channel count, chosen from the first audio's: 1 or 2. */
export type ChannelChoice = (sourceChannels: 1 | 2) => 1 | 2;

export class Pcm48kWriter {
  readonly #choose: ChannelChoice;
  #channels: 1 | 2 | undefined;
  #resampler: StereoResampler | undefined;
  #mix: Float32Array = new Float32Array(0);
  #frames = 0; // sample frames written so far

  /** By default stereo out, whatever comes in (a mono source on both sides). */
  constructor(choose: ChannelChoice = () => 2) {
    this.#choose = choose;
  }

  get framesWritten(): number {
    return this.#frames;
  }

  /** The output's channels, once the first audio decided them. */
  get channels(): 1 | 2 | undefined {
    return this.#channels;
  }

  /** Converts `length` samples of 1 or 2 planar channels; returns the s16le bytes ready so far, if any. */
  write(channels: readonly Float32Array[], length: number, sampleRate: number): Buffer | undefined {
    const [left, right] = channels;
    if (!left || length === 0) return undefined;
    const out = (this.#channels ??= this.#choose(right ? 2 : 1));
    let before: Buffer | undefined;
    if (this.#resampler?.inRate !== sampleRate) {
      // A rate change mid-stream (possible in MP3) ends one resampler and starts the next.
      if (this.#resampler) before = toS16(this.#resampler.flush());
      this.#resampler = new StereoResampler(sampleRate, OPUS_RATE, out);
    }
    // Mono out of a stereo source (a channel count that changed mid-stream): both sides mixed.
    const now = toS16(
      this.#resampler.process(out === 1 && right ? this.#mixed(left, right, length) : left, right, length),
    );
    return this.#count(before ? Buffer.concat([before, now]) : now);
  }

  /** The rest of the audio, padded with silence to a whole number of 20 ms frames. */
  end(): Buffer {
    const tail = this.#resampler ? this.#count(toS16(this.#resampler.flush())) : Buffer.alloc(0);
    const padFrames = (FRAME_SAMPLES - (this.#frames % FRAME_SAMPLES)) % FRAME_SAMPLES;
    this.#frames += padFrames;
    return padFrames === 0 ? tail : Buffer.concat([tail, Buffer.alloc(padFrames * 2 * (this.#channels ?? 2))]);
  }

  #mixed(left: Float32Array, right: Float32Array, length: number): Float32Array {
    if (this.#mix.length < length) this.#mix = new Float32Array(length);
    const mix = this.#mix;
    for (let i = 0; i < length; i++) mix[i] = ((left[i] ?? 0) + (right[i] ?? 0)) / 2;
    return mix;
  }

  #count(bytes: Buffer): Buffer {
    this.#frames += bytes.length / 2 / (this.#channels ?? 2);
    return bytes;
  }
}

function toS16(samples: InterleavedStereo): Buffer {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.round((samples[i] ?? 0) * 32767);
    out[i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
