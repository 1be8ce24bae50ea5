// Ogg/Opus needs no decoding: its packets go to Discord as they are. prism's demuxer does the paging; this
// adds the checks it lacks, so an Ogg stream that is not Opus fails at once instead of playing nothing.
import prism from 'prism-media';
import type { TransformCallback } from 'node:stream';
import { startsWith, u8 } from './bytes.ts';
import { ClipError, UnsupportedAudioError } from '../errors.ts';

export class OggOpusPacketStream extends prism.opus.OggDemuxer {
  #problem: Error | undefined;
  #sawHead = false;

  constructor() {
    super();
    this.on('head', (head: Buffer) => {
      this.#sawHead = true;
      // Channel mapping family 0 is mono/stereo, which a Discord client decodes; others need multistream.
      if (u8(head, 18) !== 0 || u8(head, 9) > 2) this.#problem = new UnsupportedAudioError('ogg', 'Ogg/Opus surround');
    });
    this.on('unknownSegment', (segment: Buffer) => {
      if (this.#sawHead) return;
      const codec = startsWith(segment, 1, 'vorbis')
        ? 'Ogg Vorbis'
        : startsWith(segment, 1, 'FLAC')
          ? 'Ogg FLAC'
          : 'Ogg (not Opus)';
      this.#problem = new UnsupportedAudioError('ogg', codec);
    });
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    super._transform(chunk, encoding, (error?: Error | null) => callback(error ?? this.#problem));
  }

  override _flush(callback: TransformCallback): void {
    callback(this.#sawHead ? undefined : new ClipError('corrupt', 'the Ogg stream ended before an OpusHead'));
  }
}
