import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { detectAudioFormat } from '../audio/codecs/format.ts';
import type { CachedAudio } from './audio-fill.ts';

// One cache entry, one file: "SBC1" | u32 header length | header JSON | audio | packets (u16 length + bytes each).
// The header holds the key, sizes and a SHA-256 of the rest, so a damaged file is refetched, never played. Written as
// pieces (never joined) and read as views, the audio into shared memory for the audio worker, the checksum taken a
// slice per event-loop turn: this runs on the main thread that sends every voice's packets.

const MAGIC = Buffer.from('SBC1');

/** Bytes hashed in one turn of the event loop: about half a millisecond, well inside a voice's 20 ms cycle. */
const HASH_SLICE_BYTES = 256 * 1024;

interface Header {
  key: string;
  voice: string;
  format: CachedAudio['format'];
  audioBytes: number;
  /** -1: no packets kept (a format the player cannot encode). */
  packetCount: number;
  sha256: string;
}

/** What follows the header: the audio, then each packet after its length. */
function bodyPieces(entry: CachedAudio): Buffer[] {
  const pieces = [...entry.audio];
  for (const packet of entry.packets ?? []) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(packet.length);
    pieces.push(length, packet);
  }
  return pieces;
}

function headed(key: string, voice: string, entry: CachedAudio, body: Buffer[], sha256: string): Buffer[] {
  const header: Header = {
    key,
    voice,
    format: entry.format,
    audioBytes: entry.audio.reduce((sum, piece) => sum + piece.length, 0),
    packetCount: entry.packets === undefined ? -1 : entry.packets.length,
    sha256,
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return [MAGIC, length, json, ...body];
}

/** The entry's file as one buffer, hashed at once: for tests and tools, not the main thread's cache. */
export function encodeEntry(key: string, voice: string, entry: CachedAudio): Buffer {
  const body = bodyPieces(entry);
  const hash = createHash('sha256');
  for (const piece of body) hash.update(piece);
  return Buffer.concat(headed(key, voice, entry, body, hash.digest('hex')));
}

/** `pieces` into `hash` a slice at a time, the event loop turning between slices. */
async function hashInTurns(hash: Hash, pieces: readonly Uint8Array[]): Promise<Hash> {
  let sinceTurn = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += HASH_SLICE_BYTES) {
      const slice = piece.subarray(at, at + HASH_SLICE_BYTES);
      hash.update(slice);
      sinceTurn += slice.length;
      if (sinceTurn >= HASH_SLICE_BYTES) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  }
  return hash;
}

/** The entry's file as pieces to write in order (the audio and packets themselves, not copies), and its size. */
export async function entryPieces(
  key: string,
  voice: string,
  entry: CachedAudio,
): Promise<{ pieces: Buffer[]; bytes: number }> {
  const body = bodyPieces(entry);
  const sha256 = (await hashInTurns(createHash('sha256'), body)).digest('hex');
  const pieces = headed(key, voice, entry, body, sha256);
  return { pieces, bytes: pieces.reduce((sum, piece) => sum + piece.length, 0) };
}

export class CorruptEntryError extends Error {
  constructor(reason: string) {
    super(`cache entry is unusable: ${reason}`);
    this.name = 'CorruptEntryError';
  }
}

function readHeader(file: Buffer, expectedKey: string): { header: Header; body: Buffer } {
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

/** The audio and packets as views of what was read (one entry, kept or dropped whole). */
function unpack(header: Header, audio: Buffer, rest: Buffer): CachedAudio & { voice: string } {
  if (audio.length !== header.audioBytes || detectAudioFormat(audio) !== header.format)
    throw new CorruptEntryError('audio does not match its header');
  if (header.packetCount < 0) return { voice: header.voice, format: header.format, audio: [audio] };
  const packets: Buffer[] = [];
  let offset = 0;
  while (offset < rest.length) {
    if (offset + 2 > rest.length) throw new CorruptEntryError('packet length cut short');
    const length = rest.readUInt16BE(offset);
    if (offset + 2 + length > rest.length) throw new CorruptEntryError('packet cut short');
    packets.push(rest.subarray(offset + 2, offset + 2 + length));
    offset += 2 + length;
  }
  if (packets.length !== header.packetCount) throw new CorruptEntryError('packet count does not match its header');
  return { voice: header.voice, format: header.format, audio: [audio], packets };
}

const MISMATCH = 'checksum mismatch (cut short or altered)';

/** `into` filled from `handle` at `position`, or as much of it as the file holds (a short entry fails its checks). */
async function readAt(handle: FileHandle, into: Buffer, position: number): Promise<Buffer> {
  let at = 0;
  while (at < into.length) {
    const { bytesRead } = await handle.read(into, at, into.length - at, position + at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return into.subarray(0, at);
}

/** An entry read and verified a slice per turn, audio into shared memory; CorruptEntryError unless whole. */
export async function readEntryFile(
  handle: FileHandle,
  size: number,
  expectedKey: string,
): Promise<CachedAudio & { voice: string }> {
  const prefix = await readAt(handle, Buffer.alloc(Math.min(8, size)), 0);
  const headEnd = prefix.length < 8 ? prefix.length : Math.min(size, 8 + prefix.readUInt32BE(4));
  const { header } = readHeader(await readAt(handle, Buffer.alloc(headEnd), 0), expectedKey);
  const audioBytes = Math.max(0, Math.min(header.audioBytes, size - headEnd));
  const audio = await readAt(handle, Buffer.from(new SharedArrayBuffer(audioBytes)), headEnd);
  const rest = await readAt(handle, Buffer.allocUnsafeSlow(size - headEnd - audioBytes), headEnd + audioBytes);
  if ((await hashInTurns(createHash('sha256'), [audio, rest])).digest('hex') !== header.sha256)
    throw new CorruptEntryError(MISMATCH);
  return unpack(header, audio, rest);
}
