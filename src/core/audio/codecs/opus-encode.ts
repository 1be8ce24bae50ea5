// Opus encoding for Discord: 20 ms packets at 48 kHz, one or two channels (opus-settings.ts), encoded in the pool's
// worker threads (src/core/audio/codecs/opus-pool/) or, as before, on the calling thread.
import { Transform, type TransformCallback } from 'node:stream';
import { sharedEncoderPool, type EncodeDone } from './opus-pool/opus-pool.ts';
import { createNativeEncoder, encoderSpec, type OpusSettings } from './opus-settings.ts';

export const OPUS_RATE = 48000;
export const FRAME_SAMPLES = 960; // per channel: 20 ms at 48 kHz

/** Bytes of one 20 ms frame of s16le with `channels` interleaved. */
export function frameBytes(channels: 1 | 2): number {
  return FRAME_SAMPLES * channels * 2;
}

/** Encoded packets that may wait ahead of the player (40 ms): encoding per read spreads it evenly, not in bursts. */
export const ENCODED_AHEAD_PACKETS = 2;

/** Frames a stream may have in a worker at once: enough to hide a batch's round trip, few enough to stay paced. */
const IN_FLIGHT_FRAMES = 3;

interface FrameEncoder {
  encode(frame: Buffer, done: EncodeDone): void;
  close(): void;
}

function openEncoder(settings: Readonly<OpusSettings>, channels: 1 | 2, sourceRate?: number): FrameEncoder {
  const spec = encoderSpec(settings, channels, sourceRate);
  if (settings.thread === 'workers') return sharedEncoderPool(settings.workers).open(spec);
  const native = createNativeEncoder(spec);
  return {
    encode(frame, done) {
      let packet: Buffer;
      try {
        packet = native.encode(frame);
      } catch (error) {
        done(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      done(null, packet);
    },
    close() {},
  };
}

/** What the encoder asks of its source (DecodeTo48kStream) at its first frame. */
type PcmSource = { readonly channels: 1 | 2; readonly sourceRate?: number | undefined };
/** s16le 48 kHz PCM in (a partial last frame dropped), one Opus packet out each; `source` asked late. */
export function createOpusEncoder(source: PcmSource, settings: Readonly<OpusSettings>): Transform {
  return new OpusEncodeStream(source, settings);
}

class OpusEncodeStream extends Transform {
  readonly #source: PcmSource;
  readonly #settings: Readonly<OpusSettings>;
  #encoder: FrameEncoder | undefined;
  #frameBytes = 0;
  #partial: Buffer | undefined;
  #inFlight = 0;
  /** The write callback held back while IN_FLIGHT_FRAMES are out. */
  #held: TransformCallback | undefined;
  #flushed: TransformCallback | undefined;

  constructor(source: PcmSource, settings: Readonly<OpusSettings>) {
    super({
      readableObjectMode: true,
      readableHighWaterMark: ENCODED_AHEAD_PACKETS,
      writableHighWaterMark: frameBytes(2),
    });
    this.#source = source;
    this.#settings = settings;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.#encoder) {
      const { channels, sourceRate } = this.#source;
      try {
        this.#encoder = openEncoder(this.#settings, channels, sourceRate);
      } catch (error) {
        callback(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.#frameBytes = frameBytes(channels);
    }
    let data = this.#partial ? Buffer.concat([this.#partial, chunk]) : chunk;
    this.#partial = undefined;
    while (data.length >= this.#frameBytes) {
      this.#inFlight += 1;
      this.#encoder.encode(data.subarray(0, this.#frameBytes), (error, packet) => this.#encoded(error, packet));
      data = data.subarray(this.#frameBytes);
    }
    if (data.length > 0) this.#partial = Buffer.from(data);
    if (this.#inFlight >= IN_FLIGHT_FRAMES) this.#held = callback;
    else callback();
  }

  #encoded(error: Error | null, packet: Buffer | undefined): void {
    this.#inFlight -= 1;
    if (this.destroyed) return;
    if (error || !packet) {
      this.destroy(error ?? new Error('no Opus packet'));
      return;
    }
    this.push(packet);
    const held = this.#held;
    if (held && this.#inFlight < IN_FLIGHT_FRAMES) {
      this.#held = undefined;
      held();
    }
    const flushed = this.#flushed;
    if (flushed && this.#inFlight === 0) {
      this.#flushed = undefined;
      this.#close();
      flushed();
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.#inFlight === 0) {
      this.#close();
      callback();
    } else {
      this.#flushed = callback;
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#close();
    callback(error);
  }

  #close(): void {
    this.#encoder?.close();
    this.#encoder = undefined;
  }
}
