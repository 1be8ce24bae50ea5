// Builds an Ogg/Opus file in the test: packets from the real Opus encoder, paged with a minimal Ogg muxer.
// (No ffmpeg or opusenc here, and this keeps the exact packets at hand to compare with what comes out.)
import opus from '@discordjs/opus';
import { oggCrc32 as oggCrc } from '../../../src/core/audio/codecs/ogg-opus-writer.ts';

function page(packets: Buffer[], flags: number, granule: bigint, serial: number, sequence: number): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header.writeUInt8(0, 4);
  header.writeUInt8(flags, 5);
  header.writeBigUInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(lacing.length, 26);
  lacing.forEach((value, i) => header.writeUInt8(value, 27 + i));
  const bytes = Buffer.concat([header, ...packets]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

/** s16le 48 kHz stereo -> { file, packets }: the Ogg/Opus bytes and the Opus packets inside them. */
export function buildOggOpus(pcm: Buffer, packetsPerPage = 10): { file: Buffer; packets: Buffer[] } {
  const encoder = new opus.OpusEncoder(48000, 2);
  const frameBytes = 960 * 4;
  const packets: Buffer[] = [];
  for (let at = 0; at + frameBytes <= pcm.length; at += frameBytes)
    packets.push(encoder.encode(pcm.subarray(at, at + frameBytes)));

  const serial = 0x5a7b07;
  const preSkip = 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head.writeUInt8(1, 8);
  head.writeUInt8(2, 9);
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(48000, 12);
  const vendor = 'saybot-test';
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  tags.write(vendor, 12, 'latin1');

  const pages = [page([head], 0x02, 0n, serial, 0), page([tags], 0, 0n, serial, 1)];
  for (let i = 0; i < packets.length; i += packetsPerPage) {
    const group = packets.slice(i, i + packetsPerPage);
    const last = i + packetsPerPage >= packets.length;
    const granule = BigInt(preSkip + (i + group.length) * 960);
    pages.push(page(group, last ? 0x04 : 0, granule, serial, pages.length));
  }
  return { file: Buffer.concat(pages), packets };
}
