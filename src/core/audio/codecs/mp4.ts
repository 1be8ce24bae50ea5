// MP4/M4A container facts (box tree only, no AAC decoding): duration, sample rate and channels of the audio track.
import { ascii, u16be, u32be, u64be, u8 } from './bytes.ts';
import { ClipError } from '../errors.ts';

interface Mp4AudioInfo {
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  codec: string; // sample entry type, e.g. 'mp4a'
}

interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

function* boxes(bytes: Uint8Array, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = u32be(bytes, offset);
    const type = ascii(bytes, offset + 4, 4);
    let body = offset + 8;
    if (size === 1) {
      size = u64be(bytes, offset + 8);
      body += 8;
    } else if (size === 0) size = end - offset;
    if (size < body - offset) throw new ClipError('corrupt', `MP4 box '${type}' has an impossible size`);
    const boxEnd = Math.min(offset + size, end);
    yield { type, start: offset, body, end: boxEnd };
    offset += size;
  }
}

function child(bytes: Uint8Array, parent: Box, type: string): Box | undefined {
  for (const box of boxes(bytes, parent.body, parent.end)) if (box.type === type) return box;
  return undefined;
}

function path(bytes: Uint8Array, parent: Box, ...types: string[]): Box | undefined {
  let box: Box | undefined = parent;
  for (const type of types) box = box && child(bytes, box, type);
  return box;
}

/** timescale and duration from an mvhd or mdhd box (version 0: 32-bit fields, version 1: 64-bit). */
function timeHeader(bytes: Uint8Array, box: Box): { timescale: number; duration: number } {
  const v1 = u8(bytes, box.body) === 1;
  const at = box.body + 4 + (v1 ? 16 : 8);
  return { timescale: u32be(bytes, at), duration: v1 ? u64be(bytes, at + 4) : u32be(bytes, at + 4) };
}

/** The edit list's presentation length (movie timescale): it trims AAC priming and padding, so it is exact. */
function editListDuration(bytes: Uint8Array, trak: Box): { movieUnits: number; mediaStart: number } | undefined {
  const elst = path(bytes, trak, 'edts', 'elst');
  if (!elst) return undefined;
  const v1 = u8(bytes, elst.body) === 1;
  const count = u32be(bytes, elst.body + 4);
  let movieUnits = 0;
  let mediaStart: number | undefined;
  for (let i = 0, at = elst.body + 8; i < count && at < elst.end; i++, at += v1 ? 20 : 12) {
    const segment = v1 ? u64be(bytes, at) : u32be(bytes, at);
    const mediaTime = v1 ? u64be(bytes, at + 8) : u32be(bytes, at + 4);
    const empty = v1 ? mediaTime >= 2 ** 63 : mediaTime === 0xffff_ffff; // media_time -1
    if (empty) continue; // an empty edit delays the start; it is not audio
    mediaStart ??= mediaTime;
    movieUnits += segment;
  }
  return mediaStart === undefined || movieUnits === 0 ? undefined : { movieUnits, mediaStart };
}

/** Channels and sample rate from the first sample entry; the AAC AudioSpecificConfig wins for channels. */
function sampleEntry(
  bytes: Uint8Array,
  stsd: Box,
): { codec: string; channels: number; sampleRate: number } | undefined {
  const entries = { ...stsd, body: stsd.body + 8 }; // skip version/flags and the entry count
  for (const entry of boxes(bytes, entries.body, entries.end)) {
    const channels = u16be(bytes, entry.body + 16);
    const sampleRate = u32be(bytes, entry.body + 24) / 65536;
    const asc = entry.type === 'mp4a' ? aacChannels(bytes, { ...entry, body: entry.body + 28 }) : undefined;
    return { codec: entry.type, channels: asc ?? channels, sampleRate };
  }
  return undefined;
}

/** The channelConfiguration of the AudioSpecificConfig in an esds box: the stsd field is often a fixed 2. */
function aacChannels(bytes: Uint8Array, mp4a: Box): number | undefined {
  const esds = child(bytes, mp4a, 'esds');
  if (!esds) return undefined;
  // Descriptors: tag byte, then a length of 1..4 bytes with a continuation bit each.
  let at = esds.body + 4;
  const descriptor = (): { tag: number; body: number; end: number } => {
    const tag = u8(bytes, at++);
    let length = 0;
    for (let i = 0; i < 4; i++) {
      const b = u8(bytes, at++);
      length = (length << 7) | (b & 0x7f);
      if (!(b & 0x80)) break;
    }
    return { tag, body: at, end: at + length };
  };
  const es = descriptor();
  if (es.tag !== 0x03) return undefined;
  const esFlags = u8(bytes, es.body + 2);
  at = es.body + 3 + (esFlags & 0x80 ? 2 : 0);
  if (esFlags & 0x40) at += 1 + u8(bytes, at);
  if (esFlags & 0x20) at += 2;
  const config = descriptor();
  if (config.tag !== 0x04) return undefined;
  at = config.body + 13;
  const specific = descriptor();
  if (specific.tag !== 0x05) return undefined;
  // audioObjectType (5 bits), samplingFrequencyIndex (4 bits, + 24 bits if 15), channelConfiguration (4 bits).
  const bits =
    (u8(bytes, specific.body) << 24) |
    (u8(bytes, specific.body + 1) << 16) |
    (u8(bytes, specific.body + 2) << 8) |
    u8(bytes, specific.body + 3);
  const rateIndex = (bits >>> 23) & 0x0f;
  const channelConfig = rateIndex === 15 ? undefined : (bits >>> 19) & 0x0f;
  if (channelConfig === undefined || channelConfig === 0) return undefined;
  return channelConfig === 7 ? 8 : channelConfig;
}

/** Reads the audio track's facts from an MP4/M4A file held in memory. */
export function readMp4AudioInfo(bytes: Uint8Array): Mp4AudioInfo {
  const file: Box = { type: 'file', start: 0, body: 0, end: bytes.length };
  const moov = child(bytes, file, 'moov');
  if (!moov) throw new ClipError('corrupt', 'MP4 without a moov box (cut short, or fragmented without an index)');
  const mvhd = child(bytes, moov, 'mvhd');
  for (const trak of boxes(bytes, moov.body, moov.end)) {
    if (trak.type !== 'trak') continue;
    const hdlr = path(bytes, trak, 'mdia', 'hdlr');
    if (!hdlr || ascii(bytes, hdlr.body + 8, 4) !== 'soun') continue;
    const mdhd = path(bytes, trak, 'mdia', 'mdhd');
    const stsd = path(bytes, trak, 'mdia', 'minf', 'stbl', 'stsd');
    const entry = stsd && sampleEntry(bytes, stsd);
    if (!mdhd || !entry) throw new ClipError('corrupt', 'MP4 audio track without mdhd or stsd');
    const media = timeHeader(bytes, mdhd);
    const movie = mvhd ? timeHeader(bytes, mvhd) : undefined;
    let durationSeconds = media.timescale > 0 ? media.duration / media.timescale : 0;
    const edits = editListDuration(bytes, trak);
    if (edits && movie && movie.timescale > 0 && media.timescale > 0) {
      const mediaLeft = (media.duration - edits.mediaStart) / media.timescale;
      durationSeconds = Math.min(edits.movieUnits / movie.timescale, mediaLeft);
    }
    if (durationSeconds <= 0 && movie && movie.timescale > 0) durationSeconds = movie.duration / movie.timescale;
    if (!(durationSeconds > 0))
      throw new ClipError('unsupported-format', 'MP4 audio track without a duration (fragmented MP4 is not supported)');
    return {
      codec: entry.codec,
      channels: entry.channels,
      sampleRate: entry.sampleRate || media.timescale,
      durationSeconds,
    };
  }
  throw new ClipError('corrupt', 'MP4 without an audio track');
}
