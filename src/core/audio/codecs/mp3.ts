// Whole-file MP3 decoding for analysis: the duration comes from the decoded samples, never from the Xing frame
// count or the file size (both lie for cut or VBR files).
import { ClipError } from '../errors.ts';
import { findFirstMpegFrame, readVbrHeader, skipId3v2, walkMpegFrames } from './mpeg.ts';
import { openMp3Decoder } from './mpg123.ts';

interface Mp3Decoded {
  sampleRate: number;
  channels: 1 | 2;
  samples: Float32Array; // mono mix
  sampleCount: number; // exact content length in samples (encoder delay and padding removed if known)
  truncated: boolean;
  /** Decoding stopped at `maxSeconds`: the clip is longer, `sampleCount` is what was decoded until then. */
  overLimit: boolean;
}

/** mpg123's own output delay (samples) that the LAME delay figure does not include. */
const DECODER_DELAY = 529;
/** Bytes handed to mpg123 at a time, so decoding can stop at the limit whatever the file's size. */
const CHUNK_BYTES = 64 * 1024;

/** Decodes to a mono mix; with `maxSeconds`, stops once that much came out, so cost never depends on file length. */
export async function decodeMp3(bytes: Uint8Array, options: { maxSeconds?: number } = {}): Promise<Mp3Decoded> {
  const first = findFirstMpegFrame(bytes, skipId3v2(bytes));
  if (!first) throw new ClipError('corrupt', 'no MPEG audio frame found');
  const vbr = readVbrHeader(bytes, first.offset, first.header);
  const spf = first.header.samplesPerFrame;
  const limit =
    options.maxSeconds === undefined
      ? Infinity
      : Math.ceil(options.maxSeconds * first.header.sampleRate) +
        (vbr?.encoderDelay ?? 0) +
        (vbr?.encoderPadding ?? 0) +
        DECODER_DELAY +
        spf;

  const decoder = await openMp3Decoder({ gapless: false });
  const pieces: Float32Array[] = [];
  let total = 0;
  let sampleRate = first.header.sampleRate;
  let overLimit = false;
  try {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      const decoded = decoder.decode(bytes.subarray(at, at + CHUNK_BYTES));
      if (decoded.samplesDecoded === 0) continue;
      sampleRate = decoded.sampleRate;
      const [left, right] = decoded.channelData;
      if (!left) continue;
      const take = Math.min(decoded.samplesDecoded, limit - total);
      const mono = new Float32Array(take);
      // mpg123 duplicates mono into both channels.
      if (right && first.header.channels === 2)
        for (let i = 0; i < take; i++) mono[i] = ((left[i] ?? 0) + (right[i] ?? 0)) / 2;
      else mono.set(left.subarray(0, take));
      pieces.push(mono);
      total += take;
      if (total >= limit) {
        overLimit = true;
        break;
      }
    }
  } finally {
    decoder.free();
  }
  if (total === 0) throw new ClipError('corrupt', 'MPEG data decoded to no samples');
  const all = pieces.length === 1 ? (pieces[0] as Float32Array) : joined(pieces, total);
  if (overLimit) {
    return {
      sampleRate,
      channels: first.header.channels,
      samples: all,
      sampleCount: total,
      truncated: false,
      overLimit,
    };
  }

  const walk = walkMpegFrames(bytes, first.offset);
  const decodedFrames = Math.round(total / spf);
  // More than one frame missing against what the header promised, or a last frame cut in the middle.
  const truncated = walk.endsMidFrame || (vbr?.frames !== undefined && vbr.frames > decodedFrames + 1);

  // Trust the LAME delay/padding only when the data matches the stream they describe (a cut file keeps them).
  let start = 0;
  let sampleCount = total;
  const delay = vbr?.encoderDelay;
  const padding = vbr?.encoderPadding;
  if (!truncated && delay !== undefined && padding !== undefined && vbr?.frames === decodedFrames) {
    const content = total - delay - padding;
    if (content > 0) {
      start = Math.min(delay + DECODER_DELAY, total);
      sampleCount = content;
    }
  }
  const end = Math.min(total, start + sampleCount);
  return {
    sampleRate,
    channels: first.header.channels,
    samples: all.subarray(start, end),
    sampleCount,
    truncated,
    overLimit,
  };
}

function joined(pieces: readonly Float32Array[], total: number): Float32Array {
  const out = new Float32Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
