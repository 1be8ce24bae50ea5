// What a transcoding worker does per stream: decoder, resampler and encoder (src/core/audio/codecs/) fed its bytes,
// each batch answered with the packets made. A stream's failure is answered for it alone.
import { ClipError, UnsupportedAudioError } from '../../errors.ts';
import type { PcmSink, StreamDecoder } from '../../codecs/decode-stream.ts';
import { Mp3StreamDecoder } from '../../codecs/mp3-stream.ts';
import { frameBytes } from '../../codecs/opus-encode.ts';
import { createNativeEncoder, type NativeEncoder } from '../../codecs/opus-settings.ts';
import { packChunks } from '../../workers/packed-chunks.ts';
import { Pcm48kWriter } from '../../codecs/pcm48k.ts';
import type { TranscodeFailure, TranscodeReply, TranscodeRequest, TranscodeSpec } from './transcode-protocol.ts';
import { WavStreamDecoder } from '../../codecs/wav.ts';

/** One stream's decoder, resampler and encoder: its bytes in, in any chunks, its Opus packets out. */
export class Transcode {
  readonly #spec: TranscodeSpec;
  readonly #decoder: StreamDecoder;
  readonly #writer: Pcm48kWriter;
  #encoder: NativeEncoder | undefined;
  #partial: Buffer | undefined;
  #out: Buffer[] = [];
  readonly #sink: PcmSink = (channels, length, sampleRate) => {
    const bytes = this.#writer.write(channels, length, sampleRate);
    if (bytes && bytes.length > 0) this.#encode(bytes, sampleRate);
  };

  constructor(spec: TranscodeSpec) {
    this.#spec = spec;
    this.#decoder = spec.format === 'mp3' ? new Mp3StreamDecoder() : new WavStreamDecoder();
    this.#writer = new Pcm48kWriter((source) => (spec.encoder.channels === 'stereo' ? 2 : source));
  }

  /** The packets `chunk` completes. */
  async write(chunk: Uint8Array): Promise<Buffer[]> {
    const pending = this.#decoder.write(chunk, this.#sink);
    if (pending) await pending;
    return this.#take();
  }

  /** The last packets (the tail, padded to a whole frame). */
  end(): Buffer[] {
    this.#decoder.end(this.#sink);
    this.free();
    if (this.#writer.framesWritten === 0) throw new ClipError('empty', 'the audio stream held no samples');
    this.#encode(this.#writer.end());
    return this.#take();
  }

  free(): void {
    this.#decoder.free();
  }

  #take(): Buffer[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }

  #encode(bytes: Buffer, sourceRate?: number): void {
    const channels = this.#writer.channels ?? 2;
    this.#encoder ??= createNativeEncoder({ ...this.#spec.encoder, channels, sourceRate });
    const size = frameBytes(channels);
    let data = this.#partial ? Buffer.concat([this.#partial, bytes]) : bytes;
    this.#partial = undefined;
    while (data.length >= size) {
      this.#out.push(this.#encoder.encode(data.subarray(0, size)));
      data = data.subarray(size);
    }
    if (data.length > 0) this.#partial = Buffer.from(data);
  }
}

function failure(error: unknown): TranscodeFailure {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { name, message } = error;
  const format = error instanceof UnsupportedAudioError && error.format ? { format: error.format } : {};
  return error instanceof ClipError ? { name, message, code: error.code, ...format } : { name, message };
}

/** The streams of one worker thread. */
export class TranscodeBatches {
  readonly #streams = new Map<number, Transcode>();

  async handle(request: TranscodeRequest): Promise<TranscodeReply> {
    const streams = this.#streams;
    for (const [id, spec] of request.opens) streams.set(id, new Transcode(spec));
    const ids: number[] = [];
    const packets: Buffer[] = [];
    const ended: number[] = [];
    const failed: [number, TranscodeFailure][] = [];
    const add = (id: number, made: Buffer[]): void => {
      packets.push(...made);
      ids.push(...Array<number>(made.length).fill(id));
    };
    const fail = (id: number, error: unknown): void => {
      streams.get(id)?.free();
      streams.delete(id);
      failed.push([id, failure(error)]);
    };
    const input = Buffer.from(request.data);
    let at = 0;
    for (let i = 0; i < request.ids.length; i++) {
      const id = request.ids[i] ?? -1;
      const length = request.lengths[i] ?? 0;
      const chunk = input.subarray(at, at + length);
      at += length;
      const stream = streams.get(id);
      try {
        if (stream) add(id, await stream.write(chunk));
      } catch (error) {
        fail(id, error);
      }
    }
    for (const id of request.ends) {
      const stream = streams.get(id);
      if (!stream) continue;
      try {
        add(id, stream.end());
        streams.delete(id);
        ended.push(id);
      } catch (error) {
        fail(id, error);
      }
    }
    for (const id of request.closes) {
      streams.get(id)?.free();
      streams.delete(id);
    }
    return { ids, ...packChunks(packets), ended, failed };
  }
}
