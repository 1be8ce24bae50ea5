// A voice message's Opus packets measured by decoding each once: its length in samples and its waveform. The decoder
// is given: native on the main thread (render.ts), opusscript in the audio worker (which may be ended mid-job).
import { ENCODER_PRE_SKIP, packetSamples, type OggOpusOptions } from '../codecs/ogg-opus-writer.ts';
import { PacketFrames } from '../codecs/packet-frames.ts';
import { OPUS_RATE } from '../codecs/opus-encode.ts';
import { levelByte, MAX_WAVEFORM_BYTES, WAVEFORM_BUCKET_SECONDS } from '../analysis/waveform.ts';
import { VoiceMessageError } from '../errors.ts';

/** One Opus packet (48 kHz, one channel) decoded to s16le samples. */
interface PacketDecoder {
  decode(packet: Buffer): Buffer;
}

/** The measured packets, ready to be written as one Ogg Opus file. */
interface MeteredPackets {
  packets: PacketFrames;
  options: OggOpusOptions & { channels: 1; preSkip: number; sampleCount: number; packetsPerPage: number };
  durationSecs: number;
  /** base64 of 1..256 loudness bytes. */
  waveform: string;
}

/** Sum of squares per 10 ms: the waveform's buckets are made from these at the end, whatever the length. */
const BLOCK_SAMPLES = OPUS_RATE / 100;

/** Collects packets part after part, decoding each once (mono, cheap) to measure; memory is packets plus 8 B/10 ms. */
export class PacketMeter {
  readonly #preSkip: number;
  readonly #decoder: PacketDecoder;
  readonly #packets = new PacketFrames();
  #largest = 0;
  #decoded = 0;
  readonly #blocks: number[] = [];
  #metered = 0;

  constructor(decoder: PacketDecoder, options: { preSkip?: number | undefined } = {}) {
    this.#decoder = decoder;
    this.#preSkip = options.preSkip ?? ENCODER_PRE_SKIP;
  }

  /** Samples of audio so far, after the pre-skip. */
  get samples(): number {
    return Math.max(0, this.#decoded - this.#preSkip);
  }

  add(packet: Uint8Array): void {
    // An empty packet is a lost frame to a player; in a file it carries nothing (and Ogg would give it no time).
    if (packet.length === 0) return;
    const copy = Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength);
    let pcm: Buffer;
    try {
      pcm = this.#decoder.decode(copy);
    } catch (error) {
      throw new VoiceMessageError('bad-packet', `Opus packet ${this.#packets.count + 1} does not decode`, {
        cause: error,
      });
    }
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
    // The TOC and the decoder agree for any packet libopus accepts; the Ogg's granules are counted from the TOC.
    if (samples.length !== packetSamples(copy)) {
      throw new VoiceMessageError(
        'bad-packet',
        `Opus packet ${this.#packets.count + 1} decodes to ${samples.length} samples, its TOC says ${packetSamples(copy)}`,
      );
    }
    this.#packets.add(copy);
    this.#largest = Math.max(this.#largest, copy.length);
    const skip = Math.min(samples.length, Math.max(0, this.#preSkip - this.#decoded));
    this.#decoded += samples.length;
    this.#meter(samples.subarray(skip));
  }

  #meter(samples: Int16Array): void {
    for (const sample of samples) {
      const block = Math.floor(this.#metered / BLOCK_SAMPLES);
      const s = sample / 32768;
      this.#blocks[block] = (this.#blocks[block] ?? 0) + s * s;
      this.#metered++;
    }
  }

  /** The packets with the file's options, duration and waveform; VoiceMessageError('no-audio') if nothing is audible. */
  done(): MeteredPackets {
    const sampleCount = this.samples;
    if (sampleCount === 0) throw new VoiceMessageError('no-audio', 'no audio to make a voice message of');
    return {
      packets: this.#packets,
      options: { channels: 1, preSkip: this.#preSkip, sampleCount, packetsPerPage: packetsPerPage(this.#largest) },
      durationSecs: sampleCount / OPUS_RATE,
      waveform: Buffer.from(this.#waveform()).toString('base64'),
    };
  }

  /** RMS per bucket in dB as bytes (src/core/audio/analysis/waveform.ts's scale) from whole 10 ms blocks. */
  #waveform(): Uint8Array {
    const frames = this.#metered;
    const count = Math.max(1, Math.min(MAX_WAVEFORM_BYTES, Math.ceil(frames / OPUS_RATE / WAVEFORM_BUCKET_SECONDS)));
    const blocks = this.#blocks.length;
    const values = new Uint8Array(count);
    for (let bucket = 0; bucket < count; bucket++) {
      const start = Math.floor((bucket * blocks) / count);
      const end = Math.floor(((bucket + 1) * blocks) / count);
      let sum = 0;
      for (let b = start; b < end; b++) sum += this.#blocks[b] ?? 0;
      const n = Math.min(end * BLOCK_SAMPLES, frames) - start * BLOCK_SAMPLES;
      values[bucket] = n <= 0 ? 0 : levelByte(10 * Math.log10(sum / n));
    }
    return values;
  }
}

/** Packets per Ogg page: 50 (one page a second) unless the largest packets would exceed a page's 255 lacing values. */
function packetsPerPage(largest: number): number {
  const segments = Math.floor(largest / 255) + 1;
  return Math.max(1, Math.min(50, Math.floor(255 / segments)));
}
