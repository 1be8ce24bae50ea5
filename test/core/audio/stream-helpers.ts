// Helpers for the playback suites: irregular chunking, draining packets, decoding them back with real Opus.
import opus from '@discordjs/opus';
import { once } from 'node:events';
import type { Readable } from 'node:stream';

/** Splits bytes into chunks of 1..997 bytes in a fixed irregular pattern (odd sizes, splits inside samples). */
export function irregularChunks(bytes: Uint8Array, seed = 1): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, k = seed; at < bytes.length; k++) {
    const size = 1 + ((k * 7919) % 997);
    chunks.push(Buffer.from(bytes.subarray(at, at + size)));
    at += size;
  }
  return chunks;
}

/** One chunk per byte for the first `count` bytes, then the rest in one chunk. */
export function bytewiseStart(bytes: Uint8Array, count: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < Math.min(count, bytes.length); i++) chunks.push(Buffer.from(bytes.subarray(i, i + 1)));
  if (bytes.length > count) chunks.push(Buffer.from(bytes.subarray(count)));
  return chunks;
}

export async function collectPackets(stream: Readable): Promise<Buffer[]> {
  const packets: Buffer[] = [];
  for await (const packet of stream) packets.push(packet as Buffer);
  return packets;
}

export interface DecodedStereo {
  left: Float32Array;
  right: Float32Array;
  seconds: number;
}

/** Decodes Opus packets the way a Discord client would: 48 kHz stereo, 960 samples a packet. */
export function decodePackets(packets: readonly Buffer[]): DecodedStereo {
  const decoder = new opus.OpusEncoder(48000, 2);
  const pcm = Buffer.concat(packets.map((packet) => decoder.decode(packet)));
  const frames = pcm.length / 4;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = pcm.readInt16LE(i * 4) / 32768;
    right[i] = pcm.readInt16LE(i * 4 + 2) / 32768;
  }
  return { left, right, seconds: frames / 48000 };
}

/** Reads one packet without switching the stream to flowing mode (so none is lost). */
export async function nextPacket(stream: Readable): Promise<Buffer> {
  for (;;) {
    const packet = stream.read() as Buffer | null;
    if (packet !== null) return packet;
    if (stream.readableEnded) throw new Error('the stream ended without another packet');
    await once(stream, 'readable');
  }
}

/** The error a stream ends with; rejects if it ends cleanly instead. */
export function streamError(stream: Readable): Promise<Error> {
  return new Promise((resolve, reject) => {
    stream.once('error', resolve);
    stream.once('end', () => reject(new Error('the stream ended without an error')));
    stream.resume();
  });
}
