// How long a part lasts, estimated from its first header and size (a job's class,
// src/core/audio/workers/job-thread.ts, chosen on the main thread): WAV at its byte rate, MP3 at its first bitrate,
// else 64 kb/s, which errs long.
import type { OwnBlocks } from '../workers/byte-block-types.ts';
import { partLength } from '../workers/byte-blocks.ts';
import { findFirstMpegFrame, skipId3v2 } from '../codecs/mpeg.ts';
import { parseWavHeader } from '../codecs/wav.ts';

/** The bytes read for a header: a few frames, or a WAV's chunks before its data. */
const HEAD_BYTES = 16 * 1024;
/** Bytes a second when nothing better is known: a low MP3 bitrate, so a part errs long. */
const UNKNOWN_BYTES_PER_SECOND = 8000;

function headOf(part: Uint8Array | OwnBlocks): Uint8Array {
  const first = 'blocks' in part ? part.blocks[0] : part;
  return first === undefined ? new Uint8Array(0) : first.subarray(0, HEAD_BYTES);
}

/** The seconds `part` (WAV or MP3; other formats estimated) lasts, estimated from its header and size. */
export function partSeconds(part: Uint8Array | OwnBlocks): number {
  const bytes = partLength(part);
  const head = headOf(part);
  try {
    const wav = parseWavHeader(head);
    if ('header' in wav) {
      const { format, dataOffset, dataBytes } = wav.header;
      const data = Math.min(dataBytes ?? Number.POSITIVE_INFINITY, bytes - dataOffset);
      return Math.max(0, data) / (format.sampleRate * format.blockAlign);
    }
  } catch {
    // Not a WAV: an MP3, or not known.
  }
  const start = skipId3v2(head);
  const frame = start < head.length ? findFirstMpegFrame(head, start, 4096) : undefined;
  if (frame && frame.header.bitrateKbps > 0) return ((bytes - frame.offset) * 8) / (frame.header.bitrateKbps * 1000);
  return bytes / UNKNOWN_BYTES_PER_SECOND;
}
