// WAV (RIFF/RF64): header parsing and PCM conversion for the analysis (src/core/audio/analysis/clip.ts), and the
// incremental decoder built on them (WavStreamDecoder, below), for which the header may arrive in pieces, the data
// size may be unknown, and chunk boundaries fall anywhere, also inside a sample. The parser finds the data chunk in
// the bytes so far, or says how many more it needs.
import type { PcmSink, StreamDecoder } from './decode-stream.ts';
import { ascii, startsWith, u16le, u32le } from './bytes.ts';
import { ClipError, UnsupportedAudioError } from '../errors.ts';

interface PcmFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: 8 | 16 | 24 | 32 | 64;
  encoding: 'int' | 'float';
  blockAlign: number; // bytes per sample frame (all channels)
}

interface WavHeader {
  format: PcmFormat;
  dataOffset: number;
  /** Bytes in the data chunk; undefined when the writer did not know (0 or 0xFFFFFFFF): read to the end. */
  dataBytes: number | undefined;
  /** Where the `fmt ` chunk's body starts, and its size (to copy it into a rewritten header). */
  fmtOffset: number;
  fmtBytes: number;
}

type WavHeaderResult = { header: WavHeader } | { needBytes: number };

/** Chunks before `data` are kept in memory while streaming; a header bigger than this is not a real WAV. */
export const MAX_WAV_HEADER_BYTES = 1024 * 1024;

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** Parses RIFF up to `data`, skipping other chunks; ClipError for a header that cannot be a playable WAV. */
export function parseWavHeader(bytes: Uint8Array): WavHeaderResult {
  if (bytes.length < 12) return { needBytes: 12 };
  if (!(startsWith(bytes, 0, 'RIFF') || startsWith(bytes, 0, 'RF64')) || !startsWith(bytes, 8, 'WAVE')) {
    throw new ClipError('corrupt', 'not a RIFF/WAVE header');
  }
  let format: PcmFormat | undefined;
  let fmt = { offset: 0, size: 0 };
  // RF64: the ds64 chunk holds the 64-bit data size the 32-bit field cannot.
  let ds64DataBytes: number | undefined;
  let offset = 12;
  for (;;) {
    if (offset + 8 > bytes.length) return need(offset + 8);
    const id = ascii(bytes, offset, 4);
    const size = u32le(bytes, offset + 4);
    const body = offset + 8;
    if (id === 'data') {
      if (!format) throw new ClipError('corrupt', 'WAV data chunk before its fmt chunk');
      // Streaming writers put 0 or 0xFFFFFFFF (some 0x7FFFFFFF or "max minus header") here.
      const unknown = size === 0 || size >= 0x7fff_0000;
      const dataBytes = unknown ? ds64DataBytes : size;
      return { header: { format, dataOffset: body, dataBytes, fmtOffset: fmt.offset, fmtBytes: fmt.size } };
    }
    if (size >= 0x7fff_0000) throw new ClipError('corrupt', `WAV chunk '${id}' has no usable size`);
    const next = body + size + (size & 1);
    if (id === 'fmt ') {
      if (body + size > bytes.length) return need(body + size);
      format = parseFmt(bytes, body, size);
      fmt = { offset: body, size };
    }
    if (id === 'ds64' && size >= 24) {
      if (body + 24 > bytes.length) return need(body + 24);
      // riffSize (8 bytes), then dataSize (8 bytes, little-endian); a "streamed" RF64 leaves it 0 or all ones.
      const low = u32le(bytes, body + 8);
      const high = u32le(bytes, body + 12);
      const known = !(low === 0 && high === 0) && !(low === 0xffffffff && high === 0xffffffff);
      ds64DataBytes = known ? high * 2 ** 32 + low : undefined;
    }
    offset = next;
  }
}

function need(bytes: number): WavHeaderResult {
  if (bytes > MAX_WAV_HEADER_BYTES)
    throw new ClipError('corrupt', 'WAV header too large (no data chunk in the first MiB)');
  return { needBytes: bytes };
}

function parseFmt(bytes: Uint8Array, at: number, size: number): PcmFormat {
  if (size < 16) throw new ClipError('corrupt', 'WAV fmt chunk too short');
  let tag = u16le(bytes, at);
  const channels = u16le(bytes, at + 2);
  const sampleRate = u32le(bytes, at + 4);
  const blockAlign = u16le(bytes, at + 12);
  const bits = u16le(bytes, at + 14);
  if (tag === WAVE_FORMAT_EXTENSIBLE && size >= 26) tag = u16le(bytes, at + 24); // first 2 bytes of the sub-format GUID
  if (channels === 0 || sampleRate === 0)
    throw new ClipError('corrupt', 'WAV fmt chunk with no channels or sample rate');
  const encoding = tag === WAVE_FORMAT_PCM ? 'int' : tag === WAVE_FORMAT_IEEE_FLOAT ? 'float' : undefined;
  const supported =
    encoding === 'int' ? [8, 16, 24, 32].includes(bits) : encoding === 'float' && (bits === 32 || bits === 64);
  if (!encoding || !supported) {
    // Supported: PCM 8/16/24/32-bit and float 32/64. The message is a short label; bot replies quote it.
    throw new UnsupportedAudioError('wav', `WAV (format tag ${tag}, ${bits}-bit)`);
  }
  const frameBytes = (bits / 8) * channels;
  // Some writers get blockAlign wrong; the sample layout is what the samples are.
  return {
    sampleRate,
    channels,
    bitsPerSample: bits as PcmFormat['bitsPerSample'],
    encoding,
    blockAlign: blockAlign === frameBytes ? blockAlign : frameBytes,
  };
}

/** How many channels decodePcm writes: mono and stereo as they are, more than two mixed down to mono. */
export function decodedChannels(format: PcmFormat): 1 | 2 {
  return format.channels === 2 ? 2 : 1;
}

/** `frames` interleaved frames from `offset` as planar floats at `dstOffset` (reader picked once per call). */
export function decodePcm(
  src: Uint8Array,
  offset: number,
  frames: number,
  format: PcmFormat,
  dst: readonly Float32Array[],
  dstOffset: number,
): void {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const { channels, blockAlign } = format;
  const bytesPer = format.bitsPerSample / 8;
  const read = sampleReader(format);
  const left = dst[0];
  if (!left) throw new RangeError('decodePcm needs a destination channel');
  if (channels === 1) {
    for (let i = 0, p = offset; i < frames; i++, p += blockAlign) left[dstOffset + i] = read(view, p);
  } else if (channels === 2) {
    const right = dst[1];
    if (!right) throw new RangeError('decodePcm needs two destination channels for stereo');
    for (let i = 0, p = offset; i < frames; i++, p += blockAlign) {
      left[dstOffset + i] = read(view, p);
      right[dstOffset + i] = read(view, p + bytesPer);
    }
  } else {
    const scale = 1 / channels;
    for (let i = 0, p = offset; i < frames; i++, p += blockAlign) {
      let sum = 0;
      for (let c = 0; c < channels; c++) sum += read(view, p + c * bytesPer);
      left[dstOffset + i] = sum * scale;
    }
  }
}

type SampleReader = (view: DataView, at: number) => number;

const readers: Record<string, SampleReader> = {
  int8: (v, p) => (v.getUint8(p) - 128) / 128,
  int16: (v, p) => v.getInt16(p, true) / 32768,
  int24: (v, p) => (v.getUint8(p) | (v.getUint8(p + 1) << 8) | (v.getInt8(p + 2) << 16)) / 8388608,
  int32: (v, p) => v.getInt32(p, true) / 2147483648,
  float32: (v, p) => v.getFloat32(p, true),
  float64: (v, p) => v.getFloat64(p, true),
};

function sampleReader(format: PcmFormat): SampleReader {
  const reader = readers[`${format.encoding}${format.bitsPerSample}`];
  if (!reader)
    throw new ClipError('unsupported-format', `no reader for ${format.encoding} ${format.bitsPerSample}-bit`);
  return reader;
}

export class WavStreamDecoder implements StreamDecoder {
  // Until the data chunk is found: the bytes so far, concatenated only once enough have arrived.
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #needBytes = 12;
  #format: PcmFormat | undefined;
  #remaining = Infinity; // data bytes still to come (Infinity: until the end of the stream)
  #carry = new Uint8Array(0); // the start of a sample frame split across chunks
  #carryLength = 0;
  #planes: Float32Array[] = [];

  write(chunk: Uint8Array, sink: PcmSink): void {
    if (this.#format) {
      this.#data(chunk, sink);
      return;
    }
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    if (this.#pendingBytes < this.#needBytes) return;
    const head = this.#pending.length === 1 ? chunk : Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [head];
    const parsed = parseWavHeader(head);
    if ('needBytes' in parsed) {
      this.#needBytes = parsed.needBytes;
      return;
    }
    const { format, dataOffset, dataBytes } = parsed.header;
    this.#format = format;
    this.#remaining = dataBytes ?? Infinity;
    this.#carry = new Uint8Array(format.blockAlign);
    this.#pending = [];
    if (dataOffset < head.length) this.#data(head.subarray(dataOffset), sink);
  }

  end(): void {
    if (!this.#format) throw new ClipError('corrupt', 'the WAV stream ended before its data chunk');
    // A partial sample frame left in #carry is dropped: half a sample is not audio.
  }

  free(): void {
    this.#pending = [];
    this.#planes = [];
  }

  #data(chunk: Uint8Array, sink: PcmSink): void {
    const format = this.#format;
    if (!format || this.#remaining <= 0) return; // bytes after the data chunk (trailing LIST etc.) are not audio
    const bytes = chunk.length > this.#remaining ? chunk.subarray(0, this.#remaining) : chunk;
    this.#remaining -= bytes.length;
    const block = format.blockAlign;
    let offset = 0;
    let framesFromCarry = 0;
    if (this.#carryLength > 0) {
      const take = Math.min(block - this.#carryLength, bytes.length);
      this.#carry.set(bytes.subarray(0, take), this.#carryLength);
      this.#carryLength += take;
      offset = take;
      if (this.#carryLength < block) return;
      framesFromCarry = 1;
    }
    const frames = Math.floor((bytes.length - offset) / block);
    const planes = this.#planesFor(format, framesFromCarry + frames);
    if (framesFromCarry) decodePcm(this.#carry, 0, 1, format, planes, 0);
    decodePcm(bytes, offset, frames, format, planes, framesFromCarry);
    const used = offset + frames * block;
    this.#carryLength = bytes.length - used;
    if (this.#carryLength > 0) this.#carry.set(bytes.subarray(used), 0);
    if (framesFromCarry + frames > 0) sink(planes, framesFromCarry + frames, format.sampleRate);
  }

  #planesFor(format: PcmFormat, frames: number): Float32Array[] {
    const count = decodedChannels(format);
    const first = this.#planes[0];
    if (this.#planes.length !== count || !first || first.length < frames) {
      const size = Math.max(frames, 4096);
      this.#planes = Array.from({ length: count }, () => new Float32Array(size));
    }
    return this.#planes;
  }
}
