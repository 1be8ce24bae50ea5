// Messages between the Opus encoder pool (main thread) and its workers: one request per batch, one reply each.
import type { EncoderSpec } from '../opus-settings.ts';

export interface WorkerRequest {
  /** Encoders to create before encoding: [stream id, spec]. */
  opens: [number, EncoderSpec][];
  /** One entry per frame, in order: its stream and its byte length in `data`. */
  ids: number[];
  lengths: number[];
  data: ArrayBuffer;
  /** Encoders to free after encoding. */
  closes: number[];
}

export interface EncodedBatch {
  /** One entry per packet, in the order of the request's frames. */
  ids: number[];
  lengths: number[];
  data: ArrayBuffer;
  /** Streams whose encoder failed: [stream id, message]. */
  failed: [number, string][];
}
