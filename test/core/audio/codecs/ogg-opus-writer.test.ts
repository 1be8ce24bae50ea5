import { Readable } from 'node:stream';
import opus from '@discordjs/opus';
import { describe, expect, it } from 'vitest';
import { dominantPitchHz } from '../../../../src/core/audio/analysis/analysis.ts';
import { readOggInfo } from '../../../../src/core/audio/codecs/ogg.ts';
import { OggOpusPacketStream } from '../../../../src/core/audio/codecs/ogg-opus-stream.ts';
import { ENCODER_PRE_SKIP, packetSamples, writeOggOpus } from '../../../../src/core/audio/codecs/ogg-opus-writer.ts';
import { encodeMonoOpus } from '../../../support/mono-opus.ts';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { collectPackets } from '../stream-helpers.ts';

const RATE = 48000;

/** Ogg's CRC-32 bit by bit (poly 0x04C11DB7, MSB first, init 0, no final XOR): independent of the writer's table. */
function referenceCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) >>> 0 : (crc << 1) >>> 0;
  }
  return crc >>> 0;
}

interface ParsedPage {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crcOk: boolean;
  packets: Buffer[];
  continued: boolean;
}

/** Walks the file page by page, checking each CRC, and reassembles the packets from the lacing values. */
function parsePages(file: Buffer): ParsedPage[] {
  const pages: ParsedPage[] = [];
  let offset = 0;
  while (offset < file.length) {
    expect(file.toString('latin1', offset, offset + 4)).toBe('OggS');
    expect(file[offset + 4]).toBe(0);
    const segments = file[offset + 26] ?? 0;
    const lacing = [...file.subarray(offset + 27, offset + 27 + segments)];
    const bodyLength = lacing.reduce((a, b) => a + b, 0);
    const end = offset + 27 + segments + bodyLength;
    const page = Buffer.from(file.subarray(offset, end));
    const stored = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    const packets: Buffer[] = [];
    let at = offset + 27 + segments;
    let current: Buffer[] = [];
    for (const value of lacing) {
      current.push(file.subarray(at, at + value));
      at += value;
      if (value < 255) {
        packets.push(Buffer.concat(current));
        current = [];
      }
    }
    pages.push({
      flags: file[offset + 5] ?? 0,
      granule: file.readBigUInt64LE(offset + 6),
      serial: file.readUInt32LE(offset + 14),
      sequence: file.readUInt32LE(offset + 18),
      crcOk: referenceCrc(page) === stored,
      packets,
      continued: current.length > 0,
    });
    offset = end;
  }
  return pages;
}

function decodeMono(packets: readonly Buffer[]): Int16Array {
  const decoder = new opus.OpusEncoder(RATE, 1);
  const pcm = Buffer.concat(packets.map((packet) => decoder.decode(packet)));
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
}

const toFloat = (samples: Int16Array) => Float32Array.from(samples, (s) => s / 32768);

describe('writeOggOpus', () => {
  // 1.234 s: not a whole number of 20 ms frames, so the final granule has padding to trim.
  const seconds = 1.234;
  const tone = toneSamples({ pitchHz: 330, seconds, amplitude: 0.5, sampleRate: RATE });
  const { packets, sampleCount } = encodeMonoOpus(tone);
  const file = writeOggOpus(packets, { sampleCount, packetsPerPage: 20 });
  const pages = parsePages(file);

  it('writes pages with valid CRCs, sequence numbers, one serial, BOS first and EOS last', () => {
    expect(pages.length).toBe(2 + Math.ceil(packets.length / 20));
    expect(pages.every((page) => page.crcOk)).toBe(true);
    expect(pages.map((page) => page.sequence)).toEqual(pages.map((_, i) => i));
    expect(new Set(pages.map((page) => page.serial)).size).toBe(1);
    expect(pages.map((page) => page.flags)).toEqual(
      pages.map((_, i) => (i === 0 ? 0x02 : i === pages.length - 1 ? 0x04 : 0)),
    );
    expect(pages.some((page) => page.continued)).toBe(false);
  });

  it('starts with OpusHead (v1, mono, the pre-skip, 48 kHz, gain 0, family 0) and OpusTags, each on its own page', () => {
    const [head, tags] = pages;
    expect(head?.packets).toHaveLength(1);
    const h = head?.packets[0] ?? Buffer.alloc(0);
    expect(h.length).toBe(19);
    expect(h.toString('latin1', 0, 8)).toBe('OpusHead');
    expect([h[8], h[9], h.readUInt16LE(10), h.readUInt32LE(12), h.readInt16LE(16), h[18]]).toEqual([
      1,
      1,
      ENCODER_PRE_SKIP,
      48000,
      0,
      0,
    ]);
    expect(head?.granule).toBe(0n);
    const t = tags?.packets[0] ?? Buffer.alloc(0);
    expect(tags?.packets).toHaveLength(1);
    expect(t.toString('latin1', 0, 8)).toBe('OpusTags');
    const vendorLength = t.readUInt32LE(8);
    expect(t.toString('utf8', 12, 12 + vendorLength)).toBe('SayBot');
    expect(t.readUInt32LE(12 + vendorLength)).toBe(0);
    expect(tags?.granule).toBe(0n);
  });

  it('carries the packets unchanged with granule positions true to the samples', () => {
    const audioPages = pages.slice(2);
    expect(audioPages.flatMap((page) => page.packets)).toEqual(packets);
    let samples = 0;
    audioPages.forEach((page, i) => {
      samples += page.packets.length * 960;
      const expected = i === audioPages.length - 1 ? ENCODER_PRE_SKIP + sampleCount : ENCODER_PRE_SKIP + samples;
      expect(page.granule).toBe(BigInt(expected));
    });
    expect(sampleCount).toBe(Math.round(seconds * RATE));
  });

  it("reads back through the repo's Ogg reader and demuxer, and decodes to the tone's length and pitch", async () => {
    const info = readOggInfo(file);
    expect(info).toMatchObject({ codec: 'opus', channels: 1, sampleRate: 48000, truncated: false });
    expect(Math.abs(info.durationSeconds - seconds)).toBeLessThan(0.02);

    const demuxed = await collectPackets(Readable.from([file]).pipe(new OggOpusPacketStream()));
    expect(demuxed).toEqual(packets);
    // As a player does: decode, drop the pre-skip, stop at the final granule.
    const decoded = decodeMono(demuxed).subarray(ENCODER_PRE_SKIP, ENCODER_PRE_SKIP + sampleCount);
    expect(Math.abs(decoded.length / RATE - seconds)).toBeLessThan(0.02);
    const pitch = dominantPitchHz(toFloat(decoded), RATE);
    expect(pitch).toBeDefined();
    expect(Math.abs((pitch ?? 0) - 330)).toBeLessThan(3);
  });

  it('is the same file for the same packets (a cached reply posts identical bytes)', () => {
    expect(writeOggOpus(packets, { sampleCount, packetsPerPage: 20 }).equals(file)).toBe(true);
  });

  it('laces packets of 255 bytes and more with a terminating segment', () => {
    const sizes = [254, 255, 256, 510, 0, 1];
    const fake = sizes.map((size, i) => Buffer.alloc(size, i + 1).fill(0x08, 0, Math.min(1, size)));
    const parsed = parsePages(writeOggOpus(fake, { packetsPerPage: 255 }));
    expect(parsed.every((page) => page.crcOk)).toBe(true);
    expect(parsed.slice(2).flatMap((page) => page.packets)).toEqual(fake);
  });

  it('writes stereo packets (the cache keeps stereo) with two channels in OpusHead', () => {
    const encoder = new opus.OpusEncoder(RATE, 2);
    const stereo = Buffer.alloc(960 * 4);
    const stereoPackets = [encoder.encode(stereo), encoder.encode(stereo)];
    const parsed = parsePages(writeOggOpus(stereoPackets, { channels: 2 }));
    expect(parsed[0]?.packets[0]?.[9]).toBe(2);
    expect(parsed.at(-1)?.granule).toBe(BigInt(ENCODER_PRE_SKIP + 2 * 960));
  });

  it('trims at most the last page: a sample count below the earlier pages is not written', () => {
    const parsed = parsePages(writeOggOpus(packets, { sampleCount: 100, packetsPerPage: 20 }));
    const granules = parsed.slice(2).map((page) => page.granule);
    expect(granules.at(-1)).toBe(granules.at(-2));
    expect(granules).toEqual([...granules].sort((a, b) => Number(a - b)));
  });

  it('writes a valid, empty stream for no packets', () => {
    const parsed = parsePages(writeOggOpus([]));
    expect(parsed).toHaveLength(2);
    expect(parsed.map((page) => page.flags)).toEqual([0x02, 0x04]);
  });
});

describe('packetSamples', () => {
  it.each([
    ['CELT 20 ms', [0xf8], 960],
    ['CELT 2.5 ms', [0x80], 120],
    ['SILK 60 ms', [0x18], 2880],
    ['hybrid 10 ms', [0x60], 480],
    ['two CELT 20 ms frames (code 1)', [0xf9], 1920],
    ['three CELT 10 ms frames (code 3)', [0xf3, 0x03], 1440],
    ['empty packet', [], 0],
  ] as const)('%s', (_name, bytes, samples) => {
    expect(packetSamples(Uint8Array.from(bytes))).toBe(samples);
  });
});

describe('encodeMonoOpus', () => {
  it('makes 20 ms mono packets whose decoder delay is the pre-skip written in OpusHead', () => {
    // A sweep (no period, so one lag fits best) after 100 ms of silence: the decoded audio lags by the lookahead.
    const input = new Int16Array(4800 + 19200);
    for (let i = 0; i < 19200; i++) {
      const t = i / RATE;
      input[4800 + i] = Math.round(16000 * Math.sin(2 * Math.PI * (200 * t + 2250 * t * t))); // 200 Hz -> 2 kHz
    }
    const { packets, sampleCount } = encodeMonoOpus(input);
    // The pre-skip's worth of silence is encoded after the input, so the delayed end of the input still comes out.
    expect(packets).toHaveLength(Math.ceil((input.length + ENCODER_PRE_SKIP) / 960));
    expect(packets.length * 960).toBeGreaterThanOrEqual(ENCODER_PRE_SKIP + input.length);
    expect(packets.every((packet) => packetSamples(packet) === 960)).toBe(true);
    expect(sampleCount).toBe(input.length);

    const decoded = decodeMono(packets);
    const source = toFloat(input);
    const output = toFloat(decoded);
    let bestLag = 0;
    let best = -Infinity;
    for (let lag = 0; lag <= 1000; lag++) {
      let sum = 0;
      for (let i = 4000; i < 20000; i++) sum += (source[i] ?? 0) * (output[i + lag] ?? 0);
      if (sum > best) {
        best = sum;
        bestLag = lag;
      }
    }
    expect(Math.abs(bestLag - ENCODER_PRE_SKIP)).toBeLessThanOrEqual(2);
  });
});
