// The repository's real-audio fixtures (fixtures/audio, described in its README) and small builders for
// WAV bytes. Every test reads clips through here, so the suite runs from a clone in any directory.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { sine } from '../../../fixtures/tones.ts';

/** fixtures/audio/ of this checkout, wherever it lives. */
export const FIXTURE_DIR = fileURLToPath(new URL('../../../fixtures/audio/', import.meta.url));

/** The absolute path of one fixture clip in this checkout. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(name, new URL('../../../fixtures/audio/', import.meta.url)));
}

export function fixture(name: string): Buffer {
  return readFileSync(fixturePath(name));
}

export interface WavOptions {
  sampleRate: number;
  channels: number;
  bitsPerSample?: 8 | 16 | 24 | 32;
  float?: boolean;
  /** Chunks written between fmt and data, e.g. a LIST chunk. */
  extraChunks?: Array<{ id: string; body: Uint8Array }>;
  /** Write this in the data size field (and RIFF size) instead of the real size, e.g. 0xFFFFFFFF. */
  declaredDataBytes?: number;
}

/** Interleaves two mono signals. */
export function stereo(left: Float32Array, right: Float32Array): Float32Array {
  const out = new Float32Array(left.length * 2);
  for (let i = 0; i < left.length; i++) {
    out[i * 2] = left[i]!;
    out[i * 2 + 1] = right[i]!;
  }
  return out;
}

/** Interleaved float samples -> WAV bytes. */
export function buildWav(interleaved: Float32Array, options: WavOptions): Buffer {
  const bits = options.float ? 32 : (options.bitsPerSample ?? 16);
  const bytesPer = bits / 8;
  const data = Buffer.alloc(interleaved.length * bytesPer);
  interleaved.forEach((value, i) => {
    const s = Math.max(-1, Math.min(1, value));
    const at = i * bytesPer;
    if (options.float) data.writeFloatLE(s, at);
    else if (bits === 8) data.writeUInt8(Math.round(s * 127) + 128, at);
    else if (bits === 16) data.writeInt16LE(Math.round(s * 32767), at);
    else if (bits === 24) data.writeIntLE(Math.round(s * 8388607), at, 3);
    else data.writeInt32LE(Math.round(s * 2147483647), at);
  });
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(options.float ? 3 : 1, 0);
  fmt.writeUInt16LE(options.channels, 2);
  fmt.writeUInt32LE(options.sampleRate, 4);
  fmt.writeUInt32LE(options.sampleRate * options.channels * bytesPer, 8);
  fmt.writeUInt16LE(options.channels * bytesPer, 12);
  fmt.writeUInt16LE(bits, 14);
  const chunk = (id: string, body: Uint8Array, size = body.length): Buffer => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(size >>> 0, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length & 1)]);
  };
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    chunk('fmt ', fmt),
    ...(options.extraChunks ?? []).map((c) => chunk(c.id, c.body)),
    chunk('data', data, options.declaredDataBytes ?? data.length),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(options.declaredDataBytes === undefined ? body.length : 0xffffffff, 4);
  return Buffer.concat([riff, body]);
}
