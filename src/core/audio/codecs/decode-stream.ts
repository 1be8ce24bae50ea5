// A Transform from encoded bytes, as they arrive, to s16le 48 kHz (mono or stereo: see `channels`). The format-specific
// part is a StreamDecoder (wav.ts, mp3-stream.ts); resampling and frame padding are shared here.
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { ClipError } from '../errors.ts';
import { frameBytes } from './opus-encode.ts';
import { Pcm48kWriter, type ChannelChoice } from './pcm48k.ts';

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
  readonly #writer: Pcm48kWriter;
  readonly #sink: PcmSink;
  #freed = false;
  /** The rate of the first samples decoded (the encoder's EncoderSpec.sourceRate). */
  sourceRate: number | undefined;

  /** `choose`: the output's channels from the source's (default: always stereo). */
  constructor(decoder: StreamDecoder, choose?: ChannelChoice) {
    super();
    this.#decoder = decoder;
    this.#writer = new Pcm48kWriter(choose);
    this.#sink = (channels, length, sampleRate) => {
      this.sourceRate ??= sampleRate;
      const bytes = this.#writer.write(channels, length, sampleRate);
      if (bytes && bytes.length > 0) this.#pushFrames(bytes);
    };
  }

  /** The output's channels: known once the first samples are decoded (before the first byte is pushed). */
  get channels(): 1 | 2 {
    return this.#writer.channels ?? 2;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let pending: void | Promise<void>;
    try {
      pending = this.#decoder.write(chunk, this.#sink);
    } catch (error) {
      callback(asError(error));
      return;
    }
    if (pending)
      pending.then(
        () => callback(),
        (error: unknown) => callback(asError(error)),
      );
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

  /** In frame-sized views, so the encoder downstream encodes on demand (see ENCODED_AHEAD_PACKETS). */
  #pushFrames(bytes: Buffer): void {
    const size = frameBytes(this.channels);
    for (let at = 0; at < bytes.length; at += size) this.push(bytes.subarray(at, at + size));
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
