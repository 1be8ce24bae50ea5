// FLAC facts from the STREAMINFO block (no decoding).
import { startsWith, u32be, u8 } from './bytes.ts';
import { ClipError } from '../errors.ts';
import { skipId3v2 } from './mpeg.ts';

interface FlacInfo {
  sampleRate: number;
  channels: number;
  durationSeconds: number;
}

export function readFlacInfo(bytes: Uint8Array): FlacInfo {
  const start = skipId3v2(bytes);
  if (!startsWith(bytes, start, 'fLaC') || (u8(bytes, start + 4) & 0x7f) !== 0) {
    throw new ClipError('corrupt', 'FLAC without a STREAMINFO block');
  }
  const info = start + 8;
  if (info + 18 > bytes.length) throw new ClipError('corrupt', 'FLAC STREAMINFO cut short');
  // 20 bits sample rate, 3 bits channels-1, 5 bits bits-per-sample-1, 36 bits total samples.
  const sampleRate = (u8(bytes, info + 10) << 12) | (u8(bytes, info + 11) << 4) | (u8(bytes, info + 12) >> 4);
  const channels = ((u8(bytes, info + 12) >> 1) & 7) + 1;
  const totalSamples = (u8(bytes, info + 13) & 0x0f) * 0x1_0000_0000 + u32be(bytes, info + 14);
  if (sampleRate === 0) throw new ClipError('corrupt', 'FLAC STREAMINFO with a zero sample rate');
  if (totalSamples === 0)
    throw new ClipError('unsupported-format', 'FLAC without a sample count in STREAMINFO (streamed FLAC)');
  return { sampleRate, channels, durationSeconds: totalSamples / sampleRate };
}
