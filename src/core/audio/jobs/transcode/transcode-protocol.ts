// Messages between the transcoding pool (main thread, transcode-pool.ts) and its workers (transcode-worker.ts): one
// request per batch (every stream that got bytes in one turn of the event loop), one reply each, in order.
import type { AudioFormat } from '../../codecs/format.ts';
import type { EncoderSpec } from '../../codecs/opus-settings.ts';

/** What a worker needs to turn one stream's encoded bytes into Opus packets. */
export interface TranscodeSpec {
  format: 'wav' | 'mp3';
  /** The encoder's settings; `channels` here is the most it may use (1: always mono). */
  encoder: Omit<EncoderSpec, 'channels'> & { channels: 'source' | 'stereo' };
}

export interface TranscodeRequest {
  /** Streams to start before this batch's bytes: [stream id, spec]. */
  opens: [number, TranscodeSpec][];
  /** One entry per chunk of bytes, in order: its stream and its length in `data`. */
  ids: number[];
  lengths: number[];
  data: ArrayBuffer;
  /** Streams whose input is complete (after their chunks in this batch): the rest of their audio is flushed. */
  ends: number[];
  /** Streams given up: their state is freed, nothing more is answered for them. */
  closes: number[];
}

/** A failure crossing the thread: enough to make the same error again on the main thread. */
export interface TranscodeFailure {
  name: string;
  message: string;
  /** ClipError's code, when it was one, and an UnsupportedAudioError's format. */
  code?: 'unsupported-format' | 'corrupt' | 'empty';
  format?: AudioFormat;
}

export interface TranscodeReply {
  /** One entry per packet, streams in the order of the request's chunks. */
  ids: number[];
  lengths: number[];
  data: ArrayBuffer;
  /** Streams whose end was flushed in this batch (their last packets are above). */
  ended: number[];
  failed: [number, TranscodeFailure][];
}
