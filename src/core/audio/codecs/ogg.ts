// Ogg container facts without decoding: codec, sample rate, channels and duration of the first logical stream,
// from its identification header and the granule position of its last page.
import { startsWith, u16le, u32le, u64le, u8 } from './bytes.ts';
import { ClipError } from '../errors.ts';

interface OggInfo {
  codec: 'opus' | 'vorbis' | 'flac' | 'unknown';
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  truncated: boolean;
}

interface Page {
  offset: number;
  flags: number;
  granule: number;
  serial: number;
  bodyOffset: number;
  bodyLength: number;
  end: number;
}

const OGG_EOS = 0x04;

export function readOggPage(bytes: Uint8Array, offset: number): Page | undefined {
  if (!startsWith(bytes, offset, 'OggS') || offset + 27 > bytes.length || u8(bytes, offset + 4) !== 0) return undefined;
  const segments = u8(bytes, offset + 26);
  if (offset + 27 + segments > bytes.length) return undefined;
  let bodyLength = 0;
  for (let i = 0; i < segments; i++) bodyLength += u8(bytes, offset + 27 + i);
  const bodyOffset = offset + 27 + segments;
  return {
    offset,
    bodyOffset,
    bodyLength,
    end: bodyOffset + bodyLength,
    flags: u8(bytes, offset + 5),
    granule: u64le(bytes, offset + 6),
    serial: u32le(bytes, offset + 14),
  };
}

export function readOggInfo(bytes: Uint8Array): OggInfo {
  const first = readOggPage(bytes, 0);
  if (!first) throw new ClipError('corrupt', 'not an Ogg page at the start');
  const id = first.bodyOffset;
  let codec: OggInfo['codec'] = 'unknown';
  let sampleRate = 0;
  let channels = 0;
  let preSkip = 0;
  if (startsWith(bytes, id, 'OpusHead')) {
    // Opus granule positions always count 48 kHz samples, whatever rate the input had.
    codec = 'opus';
    channels = u8(bytes, id + 9);
    preSkip = u16le(bytes, id + 10);
    sampleRate = 48000;
  } else if (startsWith(bytes, id, '\x01vorbis')) {
    codec = 'vorbis';
    channels = u8(bytes, id + 11);
    sampleRate = u32le(bytes, id + 12);
  } else if (startsWith(bytes, id, '\x7fFLAC')) {
    codec = 'flac';
    const info = id + 13 + 8; // mapping header, then 'fLaC' and the STREAMINFO block header
    sampleRate = (u8(bytes, info + 10) << 12) | (u8(bytes, info + 11) << 4) | (u8(bytes, info + 12) >> 4);
    channels = ((u8(bytes, info + 12) >> 1) & 7) + 1;
  }
  // The last complete page of this stream holds its final granule position.
  let last: Page | undefined;
  let cut = false;
  for (let offset = bytes.length - 27; offset >= 0; offset--) {
    if (bytes[offset] !== 0x4f) continue; // 'O'
    const page = readOggPage(bytes, offset);
    if (!page || page.serial !== first.serial) continue;
    if (page.end > bytes.length) {
      cut = true;
      continue;
    }
    last = page;
    break;
  }
  if (!last || sampleRate === 0) throw new ClipError('corrupt', 'Ogg stream without a readable header or final page');
  const samples = Math.max(0, last.granule - preSkip);
  return {
    codec,
    sampleRate,
    channels,
    durationSeconds: samples / sampleRate,
    truncated: cut || (last.flags & OGG_EOS) === 0,
  };
}
