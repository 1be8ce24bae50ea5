// Whole-file MP3 decoding for analysis: the duration comes from the decoded samples, never from the Xing frame
// count or the file size (both lie for cut or VBR files).
import { ClipError } from './errors.ts';
import { findFirstMpegFrame, readVbrHeader, skipId3v2, walkMpegFrames } from './mpeg.ts';
import { openMp3Decoder } from './mpg123.ts';

export interface Mp3Decoded {
  sampleRate: number;
  channels: 1 | 2;
  samples: Float32Array;          // mono mix
  sampleCount: number;            // exact content length in samples (encoder delay and padding removed if known)
  truncated: boolean;
}

/** mpg123's own output delay (samples) that the LAME delay figure does not include. */
const DECODER_DELAY = 529;

export async function decodeMp3(bytes: Uint8Array): Promise<Mp3Decoded> {
  const first = findFirstMpegFrame(bytes, skipId3v2(bytes));
  if (!first) throw new ClipError('corrupt', 'no MPEG audio frame found');
  const vbr = readVbrHeader(bytes, first.offset, first.header);
  const walk = walkMpegFrames(bytes, first.offset);

  const decoder = await openMp3Decoder({ gapless: false });
  let decoded;
  try {
    decoded = decoder.decode(bytes);
  } finally {
    decoder.free();
  }
  const [left, right] = decoded.channelData;
  const total = decoded.samplesDecoded;
  if (!left || total === 0) throw new ClipError('corrupt', 'MPEG data decoded to no samples');

  const spf = first.header.samplesPerFrame;
  const decodedFrames = Math.round(total / spf);
  // More than one frame missing against what the header promised, or a last frame cut in the middle.
  const truncated = walk.endsMidFrame || (vbr?.frames !== undefined && vbr.frames > decodedFrames + 1);

  // The LAME delay/padding describe the stream the header was written for; trust them only when the data
  // matches that stream (a cut file keeps the header of the whole one).
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
  const samples = new Float32Array(end - start);
  if (right && first.header.channels === 2) {
    for (let i = start; i < end; i++) samples[i - start] = ((left[i] ?? 0) + (right[i] ?? 0)) / 2;
  } else {
    samples.set(left.subarray(start, end));   // mpg123 duplicates mono into both channels
  }
  return { sampleRate: decoded.sampleRate, channels: first.header.channels, samples, sampleCount, truncated };
}
