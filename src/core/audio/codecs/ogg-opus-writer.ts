// Ogg Opus files (RFC 7845) for Discord voice messages, written by hand: the format is small, and this keeps the exact
// packets (the cache's too) and exact granule positions.
import { OPUS_RATE } from './opus-encode.ts';
/** The encoder lookahead (OpusHead pre-skip): 2.5 ms overlap + 4 ms delay at 48 kHz = 312; the test measures it. */
export const ENCODER_PRE_SKIP = 312;

export interface OggOpusOptions {
  /** Channels in OpusHead: what a decoder outputs (render.ts writes 1 for mono and stereo packets alike). */
  channels?: 1 | 2;
  preSkip?: number;
  /** The audio's true length in 48 kHz samples: the final granule trims the last frame's padding (RFC 7845 §4.4). */
  sampleCount?: number;
  /** Audio packets per page; 50 x 20 ms = one page a second (small overhead, quick seeking). */
  packetsPerPage?: number;
  /** The logical stream's serial number; by default derived from the packets, so the same audio gives the same file. */
  serial?: number;
  vendor?: string;
}

/** The Ogg Opus file holding `packets` (in order, one Opus packet each). */
export function writeOggOpus(packets: readonly Uint8Array[], options: OggOpusOptions = {}): Buffer {
  const channels = options.channels ?? 1;
  const preSkip = options.preSkip ?? ENCODER_PRE_SKIP;
  const perPage = Math.max(1, Math.min(255, options.packetsPerPage ?? 50));
  const serial = (options.serial ?? oggCrc32(packets[0] ?? new Uint8Array(0)) ^ packets.length) >>> 0;

  const pages: Buffer[] = [];
  const addPage = (body: readonly Uint8Array[], flags: number, granule: bigint) =>
    pages.push(oggPage(body, flags, granule, serial, pages.length));

  addPage([opusHead(channels, preSkip)], BOS, 0n);
  addPage([opusTags(options.vendor ?? 'SayBot')], packets.length === 0 ? EOS : 0, 0n);

  let samples = 0;
  for (let i = 0; i < packets.length; i += perPage) {
    const group = packets.slice(i, i + perPage);
    const before = samples;
    for (const packet of group) samples += packetSamples(packet);
    const last = i + perPage >= packets.length;
    // Granule position: samples (pre-skip included) at the end of the page's last packet; never goes back.
    const end = last ? Math.max(before, Math.min(samples, options.sampleCount ?? samples)) : samples;
    addPage(group, last ? EOS : 0, BigInt(preSkip + end));
  }
  return Buffer.concat(pages);
}

/** The duration of one Opus packet in 48 kHz samples, from its TOC byte (RFC 6716 §3.1). */
export function packetSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const config = toc >> 3;
  // Frame sizes in units of 2.5 ms (120 samples): SILK 10/20/40/60 ms, hybrid 10/20 ms, CELT 2.5/5/10/20 ms.
  const units = config < 12 ? [4, 8, 16, 24][config % 4] : config < 16 ? [4, 8][config % 2] : [1, 2, 4, 8][config % 4];
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return (units ?? 0) * 120 * frames;
}

const BOS = 0x02;
const EOS = 0x04;
/** Lacing can describe at most 255 segments of at most 255 bytes in one page. */
const MAX_SEGMENTS = 255;

function opusHead(channels: number, preSkip: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head.writeUInt8(1, 8); // version
  head.writeUInt8(channels, 9);
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(OPUS_RATE, 12); // input sample rate (informational)
  head.writeInt16LE(0, 16); // output gain
  head.writeUInt8(0, 18); // channel mapping family 0: mono or stereo, no table
  return head;
}

function opusTags(vendor: string): Buffer {
  const name = Buffer.from(vendor, 'utf8');
  const tags = Buffer.alloc(8 + 4 + name.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(name.length, 8);
  name.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + name.length); // no user comments
  return tags;
}

function oggPage(
  packets: readonly Uint8Array[],
  flags: number,
  granule: bigint,
  serial: number,
  sequence: number,
): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    // A packet is 255-byte segments and one shorter (maybe empty) one that ends it.
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(left, 255));
      if (left < 255) break;
    }
  }
  if (lacing.length > MAX_SEGMENTS)
    throw new RangeError(`an Ogg page cannot hold ${lacing.length} segments; use fewer packets per page`);
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header.writeUInt8(0, 4); // stream structure version
  header.writeUInt8(flags, 5);
  header.writeBigUInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(lacing.length, 26); // CRC (22..25) stays 0 while it is computed
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc32(page), 22);
  return page;
}

// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR (unlike zlib's CRC-32).
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc32(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}
