// A Discord voice message from the Opus packets of a reply's parts: one Ogg Opus file (48 kHz, mono), its true
// duration and its waveform. The packets are the ones the player plays and the cache keeps, written as they are:
// a cached reply is never decoded, resampled or encoded again to become a voice message.
//
// Mono without re-encoding: OpusHead says one channel whatever each packet's TOC says. In channel mapping family 0
// the head's count is the OUTPUT channel count (RFC 7845 §5.1.1.2); a decoder opened for one channel downmixes a
// stereo-coded packet (RFC 6716 §4: a mono decoder may decode a stereo stream), so the player's mono packets (a mono
// source, encoded in the same worker pool with the same settings: src/core/audio/codecs/opus-settings.ts) and stereo
// ones (a stereo source, or audio cached before the player went mono) both play as the same mono audio.
import { setImmediate as nextTurn } from 'node:timers/promises';
import opus from '@discordjs/opus';
import { ENCODER_PRE_SKIP, packetSamples } from '../audio/codecs/ogg-opus-writer.ts';
import { PacketFrames } from '../audio/codecs/packet-frames.ts';
import { type AudioJobOwner, writeOggOffThread } from '../audio/workers/audio-thread/audio-thread.ts';
import { OPUS_RATE } from '../audio/codecs/opus-encode.ts';
import { levelByte, MAX_WAVEFORM_BYTES, WAVEFORM_BUCKET_SECONDS } from '../audio/analysis/waveform.ts';

/** What a voice message needs: the file and the attachment's `duration_secs` and `waveform`. */
export interface VoiceMessage {
  /** Ogg Opus, 48 kHz, one channel; pages with CRCs, OpusHead with the pre-skip, granules true to the samples. */
  ogg: Buffer;
  /** The audio's length as players decode it (granule position minus pre-skip), in seconds. */
  durationSecs: number;
  /** base64 of 1..256 loudness bytes, one per ~100 ms (fewer, longer buckets beyond 25.6 s). */
  waveform: string;
}

/** One part's packets, in order: a packet stream (object-mode Readable), an async generator or an array. */
export type PacketSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export type VoiceMessageErrorCode = 'no-audio' | 'bad-packet';

/** The packets cannot make a voice message: none that carry audio, or one that does not decode. */
export class VoiceMessageError extends Error {
  readonly code: VoiceMessageErrorCode;

  constructor(code: VoiceMessageErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'VoiceMessageError';
    this.code = code;
  }
}

export interface RenderOptions {
  /**
   * Samples the decoder drops at the start (OpusHead pre-skip). Default: the lookahead of the encoder that makes
   * the player's packets (312). Parts after the first keep their own encoder's warm-up (6.5 ms, near silence):
   * Ogg Opus can trim only at the start and the end of a stream.
   */
  preSkip?: number;
  /** Stops between packets with the signal's reason. */
  signal?: AbortSignal;
  /** Whose the file's writing is in the audio worker: its server's share and, for a long message, its member's. */
  owner?: AudioJobOwner;
}

/**
 * Packets decoded between two turns of the event loop: about 1.5 ms of work (one second of audio). Packets already
 * in memory (a cache hit) would otherwise be decoded in one go, ~100 ms per minute of audio, long enough for every
 * guild's 20 ms voice send cycle to miss its slots.
 */
const PACKETS_PER_TURN = 50;

/** Sum of squares per 10 ms: the waveform's buckets are made from these at the end, whatever the length. */
const BLOCK_SAMPLES = OPUS_RATE / 100;

/**
 * Collects packets part after part, decoding each once (mono, cheap next to encoding) to measure the levels and
 * count the samples, then has the audio worker write the file (its pages and CRCs, work the size of the file), the
 * packets moved there in blocks, not copied. Memory is the packets plus 8 bytes per 10 ms, not the PCM.
 */
export class VoiceMessageBuilder {
  readonly #preSkip: number;
  readonly #packets = new PacketFrames();
  #largest = 0;
  readonly #decoder = new opus.OpusEncoder(OPUS_RATE, 1);
  #decoded = 0;
  readonly #blocks: number[] = [];
  #metered = 0;

  constructor(options: { preSkip?: number | undefined } = {}) {
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

  /**
   * The file, its duration and its waveform. Rejects with VoiceMessageError('no-audio') when nothing is audible
   * time, and with the audio worker's errors (AudioBusyError when it cannot run now). Once only: the packets move.
   */
  async finish(owner: AudioJobOwner = {}): Promise<VoiceMessage> {
    const sampleCount = this.samples;
    if (sampleCount === 0) throw new VoiceMessageError('no-audio', 'no audio to make a voice message of');
    const options = {
      channels: 1,
      preSkip: this.#preSkip,
      sampleCount,
      packetsPerPage: packetsPerPage(this.#largest),
    } as const;
    const ogg = await writeOggOffThread(this.#packets, options, owner);
    return { ogg, durationSecs: sampleCount / OPUS_RATE, waveform: Buffer.from(this.#waveform()).toString('base64') };
  }

  /**
   * RMS per bucket in dB as bytes (src/core/audio/analysis/waveform.ts's scale), buckets made of whole 10 ms blocks by
   * proportion.
   */
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

/**
 * The voice message of a reply: every part's packets in order, joined into one Ogg. A part is read to its end
 * before the next is started, so a caller may hand in parts whose audio is still being fetched.
 */
export async function renderVoiceMessage(
  parts: Iterable<PacketSource> | AsyncIterable<PacketSource>,
  options: RenderOptions = {},
): Promise<VoiceMessage> {
  const builder = new VoiceMessageBuilder({ preSkip: options.preSkip });
  let count = 0;
  for await (const part of parts) {
    options.signal?.throwIfAborted();
    for await (const packet of part) {
      options.signal?.throwIfAborted();
      builder.add(packet);
      if (++count % PACKETS_PER_TURN === 0) await nextTurn();
    }
  }
  return builder.finish(options.owner);
}

/** Packets per Ogg page: 50 (one page a second) unless the largest packets would exceed a page's 255 lacing values. */
function packetsPerPage(largest: number): number {
  const segments = Math.floor(largest / 255) + 1;
  return Math.max(1, Math.min(50, Math.floor(255 / segments)));
}
