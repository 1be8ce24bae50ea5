// MPEG audio (MP3) bitstream facts that do not need a decoder: ID3v2 tags, frame headers, the Xing/Info/VBRI
// header with its LAME extension, and a frame walk that tells whether the data ends inside a frame.
import { ascii, startsWith, u16be, u32be, u8 } from './bytes.ts';

export interface MpegFrameHeader {
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrateKbps: number; // 0 for free format
  sampleRate: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  frameLength: number | undefined; // bytes, header included; undefined for free format
  crc: boolean;
}

const BITRATES: Record<string, readonly number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 2.5: [11025, 12000, 8000] } as const;
/** Every sample rate an MPEG audio stream (so an MP3 SayBot writes) can carry, lowest first. */
export const MPEG_SAMPLE_RATES: readonly number[] = Object.values(SAMPLE_RATES)
  .flat()
  .sort((a, b) => a - b);

/** Parses the 4-byte frame header at `offset`; undefined if those bytes are not a valid header. */
export function parseMpegFrameHeader(bytes: Uint8Array, offset: number): MpegFrameHeader | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const b1 = u8(bytes, offset + 1);
  const b2 = u8(bytes, offset + 2);
  const b3 = u8(bytes, offset + 3);
  if (u8(bytes, offset) !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 15 || rateIndex === 3 || (b3 & 3) === 2)
    return undefined;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrateKbps = BITRATES[`${version === 1 ? 1 : 2}-${layer}`]?.[bitrateIndex] ?? 0;
  const sampleRate = SAMPLE_RATES[version][rateIndex] ?? 0;
  const samplesPerFrame = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const padding = (b2 >> 1) & 1;
  const frameLength =
    bitrateKbps === 0
      ? undefined
      : layer === 1
        ? (Math.floor((12 * bitrateKbps * 1000) / sampleRate) + padding) * 4
        : Math.floor(((samplesPerFrame / 8) * bitrateKbps * 1000) / sampleRate) + padding;
  return {
    version,
    layer,
    bitrateKbps,
    sampleRate,
    samplesPerFrame,
    frameLength,
    channels: b3 >> 6 === 3 ? 1 : 2,
    crc: (b1 & 1) === 0,
  };
}

/** Total length of an ID3v2 tag at `offset` (header, body and footer), or undefined if there is none. */
export function id3v2Length(bytes: Uint8Array, offset: number): number | undefined {
  if (!startsWith(bytes, offset, 'ID3') || offset + 10 > bytes.length) return undefined;
  const major = u8(bytes, offset + 3);
  const flags = u8(bytes, offset + 5);
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const b = u8(bytes, offset + i);
    if (b & 0x80) return undefined; // sizes are syncsafe: a set high bit means this is not a tag
    size = (size << 7) | b;
  }
  if (major < 2 || major > 4 || u8(bytes, offset + 4) === 0xff) return undefined;
  return 10 + size + (flags & 0x10 ? 10 : 0);
}

/** Offset just past any ID3v2 tags at the start (some writers stack several). */
export function skipId3v2(bytes: Uint8Array): number {
  let offset = 0;
  for (let tag = id3v2Length(bytes, 0); tag !== undefined; tag = id3v2Length(bytes, offset)) offset += tag;
  return offset;
}

/** The first frame at or after `from` followed by another (or the end), so a stray 0xFF is not taken for one. */
export function findFirstMpegFrame(
  bytes: Uint8Array,
  from: number,
  searchLimit = 64 * 1024,
): { offset: number; header: MpegFrameHeader } | undefined {
  const end = Math.min(bytes.length - 4, from + searchLimit);
  for (let offset = from; offset <= end; offset++) {
    if (bytes[offset] !== 0xff) continue;
    const header = parseMpegFrameHeader(bytes, offset);
    if (!header) continue;
    if (header.frameLength === undefined) return { offset, header };
    const next = offset + header.frameLength;
    const following = parseMpegFrameHeader(bytes, next);
    if (
      next + 4 > bytes.length ||
      (following && following.layer === header.layer && following.sampleRate === header.sampleRate)
    ) {
      return { offset, header };
    }
  }
  return undefined;
}

interface VbrHeader {
  kind: 'Xing' | 'Info' | 'VBRI';
  frames: number | undefined; // audio frames the encoder wrote (the header frame itself not counted)
  encoderDelay: number | undefined; // LAME extension: samples of priming the encoder added at the start
  encoderPadding: number | undefined; // and samples of padding at the end
}

/** Reads a Xing/Info (with LAME extension) or VBRI header from the first frame, if it carries one. */
export function readVbrHeader(bytes: Uint8Array, frameOffset: number, header: MpegFrameHeader): VbrHeader | undefined {
  const sideInfo = header.version === 1 ? (header.channels === 1 ? 17 : 32) : header.channels === 1 ? 9 : 17;
  for (const at of [frameOffset + 4 + sideInfo, frameOffset + 6 + sideInfo]) {
    const kind = ascii(bytes, at, 4);
    if (kind !== 'Xing' && kind !== 'Info') continue;
    const flags = u32be(bytes, at + 4);
    let p = at + 8;
    let frames: number | undefined;
    if (flags & 1) {
      frames = u32be(bytes, p);
      p += 4;
    }
    if (flags & 2) p += 4;
    if (flags & 4) p += 100;
    if (flags & 8) p += 4;
    // LAME extension: a 9-character encoder version, then delay and padding as two 12-bit numbers at +21.
    const encoder = ascii(bytes, p, 4);
    const hasLame = p + 24 <= bytes.length && /^[A-Za-z]{4}$/.test(encoder);
    const delay = hasLame ? (u8(bytes, p + 21) << 4) | (u8(bytes, p + 22) >> 4) : undefined;
    const padding = hasLame ? ((u8(bytes, p + 22) & 0x0f) << 8) | u8(bytes, p + 23) : undefined;
    return { kind, frames, encoderDelay: delay, encoderPadding: padding };
  }
  if (startsWith(bytes, frameOffset + 36, 'VBRI')) {
    return {
      kind: 'VBRI',
      frames: u32be(bytes, frameOffset + 36 + 14),
      encoderDelay: u16be(bytes, frameOffset + 36 + 6),
      encoderPadding: undefined,
    };
  }
  return undefined;
}

/** Walks the frames: `endsMidFrame` when the last header promises more bytes than there are (a cut file). */
export function walkMpegFrames(bytes: Uint8Array, firstFrame: number): { frames: number; endsMidFrame: boolean } {
  let offset = firstFrame;
  let frames = 0;
  while (offset < bytes.length) {
    const header = parseMpegFrameHeader(bytes, offset);
    if (!header) {
      // Fewer than 4 bytes left that start like a frame header: a header cut in two.
      const cutHeader = bytes.length - offset < 4 && bytes[offset] === 0xff;
      return { frames, endsMidFrame: cutHeader };
    }
    if (header.frameLength === undefined) return { frames, endsMidFrame: false };
    if (offset + header.frameLength > bytes.length) return { frames, endsMidFrame: true };
    offset += header.frameLength;
    frames++;
  }
  return { frames, endsMidFrame: false };
}
