// A WAV to post as a file gets one plain RIFF header with exact sizes, whatever the service streamed: many players
// (Discord's preview too) show unknown sizes as empty or endless.
import { ClipError } from '../errors.ts';
import { parseWavHeader } from './wav.ts';

/** The largest data chunk a plain RIFF header can describe (its size field is 32-bit, and counts the header). */
const MAX_RIFF_DATA_BYTES = 0xffff_ffff - 36 - 64;

/** The same audio as a canonical WAV (fmt + data, exact size, whole frames); too long for RIFF: unchanged. */
export function exactWavFile(bytes: Uint8Array): Uint8Array {
  const part = wavPart(bytes);
  if (part.data.length > MAX_RIFF_DATA_BYTES) return bytes;
  return writeWav(part.fmt, [part.data]);
}

/** A WAV's `fmt ` chunk body and its data cut to whole sample frames (views into `bytes`). */
interface WavPart {
  fmt: Uint8Array;
  data: Uint8Array;
}

function wavPart(bytes: Uint8Array): WavPart {
  const parsed = parseWavHeader(bytes);
  if (!('header' in parsed)) throw new ClipError('corrupt', 'WAV header cut short');
  const { format, dataOffset, dataBytes, fmtOffset, fmtBytes } = parsed.header;
  const available = bytes.length - dataOffset;
  const usable = dataBytes === undefined ? available : Math.min(dataBytes, available);
  const data = usable - (usable % format.blockAlign);
  return { fmt: bytes.subarray(fmtOffset, fmtOffset + fmtBytes), data: bytes.subarray(dataOffset, dataOffset + data) };
}

/** One request's parts as one WAV (at most `maxDataBytes`); undefined when fmt chunks differ or too long. */
export function joinWavFiles(parts: readonly Uint8Array[], maxDataBytes = Infinity): Uint8Array | undefined {
  const wavs = parts.map(wavPart);
  const first = wavs[0];
  if (!first) return undefined;
  if (wavs.some((w) => !sameBytes(w.fmt, first.fmt))) return undefined;
  const frame = new DataView(first.fmt.buffer, first.fmt.byteOffset, first.fmt.byteLength).getUint16(12, true) || 1;
  const total = wavs.reduce((sum, w) => sum + w.data.length, 0);
  let room = Math.min(total, Math.floor(maxDataBytes / frame) * frame);
  if (room > MAX_RIFF_DATA_BYTES) return undefined;
  const datas: Uint8Array[] = [];
  for (const { data } of wavs) {
    // Views into the parts: cutting copies nothing until the one WAV is written.
    const kept = data.subarray(0, Math.max(0, room));
    room -= kept.length;
    datas.push(kept);
  }
  return writeWav(first.fmt, datas);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** `RIFF` + `fmt ` (the chunk body given) + `data` holding `datas` in order, every size exact. */
function writeWav(fmt: Uint8Array, datas: readonly Uint8Array[]): Uint8Array {
  const fmtBytes = fmt.length;
  const data = datas.reduce((sum, d) => sum + d.length, 0);
  const fmtChunk = 8 + fmtBytes + (fmtBytes & 1);
  const pad = data & 1;
  const out = new Uint8Array(12 + fmtChunk + 8 + data + pad);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmtBytes, true);
  out.set(fmt, 20);
  let at = 12 + fmtChunk;
  ascii(at, 'data');
  view.setUint32(at + 4, data, true);
  at += 8;
  for (const d of datas) {
    out.set(d, at);
    at += d.length;
  }
  return out;
}

/** A 16-bit PCM WAV of planar float samples (-1..1, one or two channels), exact sizes. */
export function encodeWav16(channels: readonly Float32Array[], sampleRate: number): Uint8Array {
  const count = channels.length;
  const frames = channels[0]?.length ?? 0;
  const fmt = new Uint8Array(16);
  const f = new DataView(fmt.buffer);
  f.setUint16(0, 1, true); // PCM
  f.setUint16(2, count, true);
  f.setUint32(4, sampleRate, true);
  f.setUint32(8, sampleRate * 2 * count, true);
  f.setUint16(12, 2 * count, true);
  f.setUint16(14, 16, true);
  const data = new Uint8Array(frames * 2 * count);
  const d = new DataView(data.buffer);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < count; c++)
      d.setInt16((i * count + c) * 2, toInt16((channels[c] as Float32Array)[i] as number), true);
  }
  return writeWav(fmt, [data]);
}

/** A float sample as a 16-bit one, rounded, clamped to the range. */
export function toInt16(sample: number): number {
  return Math.max(-32768, Math.min(32767, Math.round(sample * 32767)));
}
