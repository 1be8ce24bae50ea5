import { createHash, webcrypto } from 'node:crypto';
import { detectAudioFormat } from '../audio/format.ts';
import type { CachedAudio } from './audio-fill.ts';

// One cache entry, one file:
//   "SBC1" | u32 header length | header JSON | audio bytes | packets (u16 length + bytes, each)
// The header holds the key, the sizes and a SHA-256 of everything after it, so a file cut short, padded or
// altered is recognised on read (and refetched) instead of played.
//
// The cache itself writes and reads through the *OffThread forms: an entry is hundreds of kilobytes and its SHA-256
// is taken on libuv's thread pool (WebCrypto), so a burst of clips ending or hits starting does not hold the main
// thread, which sends every voice's packets (issue 25's profile: building and hashing entries was 5 % of it with
// 150 voices). The file is laid out in one buffer, packets read back as views of it: no copy per packet.

const MAGIC = Buffer.from('SBC1');
const SHA256_HEX_LENGTH = 64;

interface Header {
  key: string;
  voice: string;
  format: CachedAudio['format'];
  audioBytes: number;
  /** -1: no packets kept (a format the player cannot encode). */
  packetCount: number;
  sha256: string;
}

type Sha256 = (body: Uint8Array) => string;
type Sha256Async = (body: Uint8Array) => Promise<string>;

const sha256Here: Sha256 = (body) => createHash('sha256').update(body).digest('hex');
const sha256OffThread: Sha256Async = async (body) => Buffer.from(await webcrypto.subtle.digest('SHA-256', body)).toString('hex');

/** The whole file but its checksum, in one buffer; `seal` writes the checksum into its place in the header. */
function layOut(key: string, voice: string, entry: CachedAudio): { file: Buffer; body: Buffer; seal(sha256: string): Buffer } {
  const packets = entry.packets ?? [];
  let bodyBytes = entry.audio.length;
  for (const packet of packets) bodyBytes += 2 + packet.length;
  const header: Header = {
    key,
    voice,
    format: entry.format,
    audioBytes: entry.audio.length,
    packetCount: entry.packets === undefined ? -1 : packets.length,
    sha256: '0'.repeat(SHA256_HEX_LENGTH),
  };
  // The checksum is hex of a fixed length: the header's size is known before the body is hashed.
  const jsonBytes = Buffer.byteLength(JSON.stringify(header));
  const file = Buffer.allocUnsafeSlow(8 + jsonBytes + bodyBytes);
  MAGIC.copy(file, 0);
  file.writeUInt32BE(jsonBytes, 4);
  const bodyStart = 8 + jsonBytes;
  let at = bodyStart + entry.audio.copy(file, bodyStart);
  for (const packet of packets) {
    at = file.writeUInt16BE(packet.length, at);
    at += packet.copy(file, at);
  }
  return {
    file,
    body: file.subarray(bodyStart),
    seal(sha256) {
      file.write(JSON.stringify({ ...header, sha256 }), 8, jsonBytes, 'utf8');
      return file;
    },
  };
}

/** An entry's file, hashed on this thread (tests, benchmark fixtures). */
export function encodeEntry(key: string, voice: string, entry: CachedAudio): Buffer {
  const laid = layOut(key, voice, entry);
  return laid.seal(sha256Here(laid.body));
}

/** An entry's file, hashed on libuv's thread pool: what the cache writes. */
export async function encodeEntryOffThread(key: string, voice: string, entry: CachedAudio): Promise<Buffer> {
  const laid = layOut(key, voice, entry);
  return laid.seal(await sha256OffThread(laid.body));
}

export class CorruptEntryError extends Error {
  constructor(reason: string) {
    super(`cache entry is unusable: ${reason}`);
    this.name = 'CorruptEntryError';
  }
}

/** The header and the body after it, checked as far as can be without the checksum. */
function split(file: Buffer, expectedKey: string): { header: Header; body: Buffer } {
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
  return { header, body: file.subarray(8 + headerLength) };
}

/** The audio and packets of a body whose checksum matched: views of the file, nothing copied. */
function read(header: Header, body: Buffer, sha256: string): CachedAudio & { voice: string } {
  if (sha256 !== header.sha256) throw new CorruptEntryError('checksum mismatch (cut short or altered)');
  const audio = body.subarray(0, header.audioBytes);
  if (audio.length !== header.audioBytes || detectAudioFormat(audio) !== header.format) throw new CorruptEntryError('audio does not match its header');
  if (header.packetCount < 0) return { voice: header.voice, format: header.format, audio };
  const packets: Buffer[] = [];
  let offset = header.audioBytes;
  while (offset < body.length) {
    if (offset + 2 > body.length) throw new CorruptEntryError('packet length cut short');
    const length = body.readUInt16BE(offset);
    if (offset + 2 + length > body.length) throw new CorruptEntryError('packet cut short');
    packets.push(body.subarray(offset + 2, offset + 2 + length));
    offset += 2 + length;
  }
  if (packets.length !== header.packetCount) throw new CorruptEntryError('packet count does not match its header');
  return { voice: header.voice, format: header.format, audio, packets };
}

/** Reads and verifies an entry on this thread; throws CorruptEntryError for anything but a whole, unaltered file for `expectedKey`. */
export function decodeEntry(file: Buffer, expectedKey: string): CachedAudio & { voice: string } {
  const { header, body } = split(file, expectedKey);
  return read(header, body, sha256Here(body));
}

/** As decodeEntry, the checksum taken on libuv's thread pool: what the cache reads. */
export async function decodeEntryOffThread(file: Buffer, expectedKey: string): Promise<CachedAudio & { voice: string }> {
  const { header, body } = split(file, expectedKey);
  return read(header, body, await sha256OffThread(body));
}
