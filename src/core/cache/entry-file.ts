import { createHash } from 'node:crypto';
import { detectAudioFormat } from '../audio/codecs/format.ts';
import type { CachedAudio } from './audio-fill.ts';

// One cache entry, one file:
//   "SBC1" | u32 header length | header JSON | audio bytes | packets (u16 length + bytes, each)
// The header holds the key, the sizes and a SHA-256 of everything after it, so a file cut short, padded or
// altered is recognised on read (and refetched) instead of played.

const MAGIC = Buffer.from('SBC1');

interface Header {
  key: string;
  voice: string;
  format: CachedAudio['format'];
  audioBytes: number;
  /** -1: no packets kept (a format the player cannot encode). */
  packetCount: number;
  sha256: string;
}

export function encodeEntry(key: string, voice: string, entry: CachedAudio): Buffer {
  const packets = entry.packets ?? [];
  const framed: Buffer[] = [];
  for (const packet of packets) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(packet.length);
    framed.push(length, packet);
  }
  const body = Buffer.concat([entry.audio, ...framed]);
  const header: Header = {
    key,
    voice,
    format: entry.format,
    audioBytes: entry.audio.length,
    packetCount: entry.packets === undefined ? -1 : packets.length,
    sha256: createHash('sha256').update(body).digest('hex'),
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([MAGIC, length, json, body]);
}

export class CorruptEntryError extends Error {
  constructor(reason: string) {
    super(`cache entry is unusable: ${reason}`);
    this.name = 'CorruptEntryError';
  }
}

/** Reads and verifies an entry; throws CorruptEntryError for anything but a whole, unaltered file for `expectedKey`. */
export function decodeEntry(file: Buffer, expectedKey: string): CachedAudio & { voice: string } {
  if (file.length < 8 || !file.subarray(0, 4).equals(MAGIC)) throw new CorruptEntryError('not a cache entry');
  const headerLength = file.readUInt32BE(4);
  if (8 + headerLength > file.length) throw new CorruptEntryError('header cut short');
  let header: Header;
  try {
    header = JSON.parse(file.subarray(8, 8 + headerLength).toString('utf8')) as Header;
  } catch {
    throw new CorruptEntryError('header is not JSON');
  }
  if (header.key !== expectedKey) throw new CorruptEntryError('key does not match the file name');
  const body = file.subarray(8 + headerLength);
  if (createHash('sha256').update(body).digest('hex') !== header.sha256)
    throw new CorruptEntryError('checksum mismatch (cut short or altered)');
  const audio = Buffer.from(body.subarray(0, header.audioBytes));
  if (audio.length !== header.audioBytes || detectAudioFormat(audio) !== header.format)
    throw new CorruptEntryError('audio does not match its header');
  if (header.packetCount < 0) return { voice: header.voice, format: header.format, audio };
  const packets: Buffer[] = [];
  let offset = header.audioBytes;
  while (offset < body.length) {
    if (offset + 2 > body.length) throw new CorruptEntryError('packet length cut short');
    const length = body.readUInt16BE(offset);
    if (offset + 2 + length > body.length) throw new CorruptEntryError('packet cut short');
    packets.push(Buffer.from(body.subarray(offset + 2, offset + 2 + length)));
    offset += 2 + length;
  }
  if (packets.length !== header.packetCount) throw new CorruptEntryError('packet count does not match its header');
  return { voice: header.voice, format: header.format, audio, packets };
}
