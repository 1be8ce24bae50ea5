// Whole-buffer decoding and analysis of a clip (reference clips, tests, the sandbox). WAV is decoded here and MP3 by
// mpg123 (samples, exact duration); M4A, Ogg and FLAC give only their headers' duration (no samples, so no pitch or
// silence checks).
import { rmsDbfs, dominantPitchHz } from './analysis.ts';
import { ascii } from '../codecs/bytes.ts';
import { ClipError } from '../errors.ts';
import { readFlacInfo } from '../codecs/flac.ts';
import { detectAudioFormat, SNIFF_BYTES } from '../codecs/format.ts';
import type { AudioFormat } from '../codecs/format.ts';
import { decodeMp3 } from '../codecs/mp3.ts';
import { readMp4AudioInfo } from '../codecs/mp4.ts';
import { readOggInfo } from '../codecs/ogg.ts';
import { decodedChannels, decodePcm, parseWavHeader } from '../codecs/wav.ts';

export { ClipError } from '../errors.ts';
export type { ClipErrorCode } from '../errors.ts';
export { dominantPitchHz, rmsDbfs };

export interface ClipInfo {
  format: AudioFormat;
  sampleRate: number;
  channels: number;
  durationSeconds: number; // exact: from samples, or from the container (M4A edit list/mdhd, Ogg, FLAC)
  truncated: boolean; // e.g. an MP3 whose last frame is cut or whose Xing header claims more
  samples?: Float32Array; // mono mix, -1..1; absent where the codec cannot be decoded here (AAC, Vorbis, ...)
}

interface AnalyseOptions {
  /** Decode at most about this many seconds; a longer WAV keeps its header's duration, a longer MP3 reports what was decoded. */
  maxSeconds?: number;
}

export async function analyseClip(bytes: Uint8Array, options: AnalyseOptions = {}): Promise<ClipInfo> {
  if (bytes.length === 0) throw new ClipError('empty', 'no bytes');
  const format = detectAudioFormat(bytes.subarray(0, SNIFF_BYTES));
  switch (format) {
    case 'wav':
      return analyseWav(bytes, options.maxSeconds);
    case 'mp3': {
      const mp3 = await decodeMp3(bytes, options);
      return {
        format,
        sampleRate: mp3.sampleRate,
        channels: mp3.channels,
        truncated: mp3.truncated,
        durationSeconds: mp3.sampleCount / mp3.sampleRate,
        samples: mp3.samples,
      };
    }
    case 'm4a': {
      const { sampleRate, channels, durationSeconds } = readMp4AudioInfo(bytes);
      return { format, sampleRate, channels, durationSeconds, truncated: false };
    }
    case 'ogg': {
      const { sampleRate, channels, durationSeconds, truncated } = readOggInfo(bytes);
      return { format, sampleRate, channels, durationSeconds, truncated };
    }
    case 'flac': {
      const { sampleRate, channels, durationSeconds } = readFlacInfo(bytes);
      return { format, sampleRate, channels, durationSeconds, truncated: false };
    }
    case undefined:
      throw new ClipError(
        'unsupported-format',
        `not audio in a known format (starts with ${JSON.stringify(ascii(bytes, 0, 16))})`,
      );
  }
}

function analyseWav(bytes: Uint8Array, maxSeconds = Infinity): ClipInfo {
  const parsed = parseWavHeader(bytes);
  if (!('header' in parsed)) throw new ClipError('corrupt', 'WAV header cut short');
  const { format, dataOffset, dataBytes } = parsed.header;
  const available = bytes.length - dataOffset;
  const usable = dataBytes === undefined ? available : Math.min(dataBytes, available);
  const frames = Math.floor(usable / format.blockAlign);
  if (frames === 0) throw new ClipError('empty', 'WAV with no samples');
  const truncated = (dataBytes !== undefined && dataBytes > available) || usable % format.blockAlign !== 0;

  const decoded = Math.min(frames, Math.ceil(maxSeconds * format.sampleRate) + 1);
  const planes = [new Float32Array(decoded)];
  if (decodedChannels(format) === 2) planes.push(new Float32Array(decoded));
  decodePcm(bytes, dataOffset, decoded, format, planes, 0);
  const [samples, right] = planes as [Float32Array, Float32Array | undefined];
  if (right) for (let i = 0; i < decoded; i++) samples[i] = ((samples[i] ?? 0) + (right[i] ?? 0)) / 2;
  return {
    format: 'wav',
    sampleRate: format.sampleRate,
    channels: format.channels,
    durationSeconds: frames / format.sampleRate,
    truncated,
    samples,
  };
}
