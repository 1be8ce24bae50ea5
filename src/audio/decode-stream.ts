// A Transform from encoded bytes, as they arrive, to s16le 48 kHz stereo. The format-specific part is a
// StreamDecoder (wav-stream.ts, mp3-stream.ts); resampling and frame padding are shared here.
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { ClipError } from './errors.ts';
import { FRAME_BYTES } from './opus-encode.ts';
import { Pcm48kWriter } from './pcm48k.ts';

/** Planar samples, valid only during the call that receives them (decoders reuse their buffers). */
export type PcmSink = (channels: readonly Float32Array[], length: number, sampleRate: number) => void;

export interface StreamDecoder {
  /** Decodes what `chunk` completes and hands the samples to `sink`. */
  write(chunk: Uint8Array, sink: PcmSink): void | Promise<void>;
  /** The input is complete: throws if it ended in a state that is not valid audio. */
  end(sink: PcmSink): void;
  /** Releases what the decoder holds (WASM memory); called exactly once, on end or on destroy. */
  free(): void;
}

export class DecodeTo48kStream extends Transform {
  readonly #decoder: StreamDecoder;
  readonly #writer = new Pcm48kWriter();
  readonly #sink: PcmSink;
  #freed = false;

  constructor(decoder: StreamDecoder) {
    super();
    this.#decoder = decoder;
    this.#sink = (channels, length, sampleRate) => {
      const bytes = this.#writer.write(channels, length, sampleRate);
      if (bytes && bytes.length > 0) this.#pushFrames(bytes);
    };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let pending: void | Promise<void>;
    try {
      pending = this.#decoder.write(chunk, this.#sink);
    } catch (error) {
      callback(asError(error));
      return;
    }
    if (pending) pending.then(() => callback(), (error: unknown) => callback(asError(error)));
    else callback();
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.#decoder.end(this.#sink);
      this.#free();
      if (this.#writer.framesWritten === 0) throw new ClipError('empty', 'the audio stream held no samples');
      this.#pushFrames(this.#writer.end());
      callback();
    } catch (error) {
      callback(asError(error));
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#free();
    callback(error);
  }

  /**
   * In pieces of at most one 20 ms frame (views, no copies): the Opus encoder downstream encodes whatever a write
   * completes at once, so frame-sized writes let it encode on demand (see ENCODED_AHEAD_PACKETS).
   */
  #pushFrames(bytes: Buffer): void {
    for (let at = 0; at < bytes.length; at += FRAME_BYTES) this.push(bytes.subarray(at, at + FRAME_BYTES));
  }

  #free(): void {
    if (this.#freed) return;
    this.#freed = true;
    this.#decoder.free();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
