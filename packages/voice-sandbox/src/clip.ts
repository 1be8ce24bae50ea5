// What the sandbox needs to know of a reference clip, read here and never with SayBot's own audio code (a bug there
// would otherwise be shared by both sides of a test): its format by its first bytes, its length, and for WAV and MP3
// its samples. WAV is read here (PCM 8/16/24/32-bit and float; sizes left unknown by a streaming writer); MP3 is
// decoded by the mpg123-decoder library; M4A gives its length from the box tree (no AAC decoder, so no samples).

/** A clip the sandbox cannot read: `unsupported` for bytes that are no audio it knows, `unreadable` for broken ones. */
export class ClipProblem extends Error {
  readonly kind: 'empty' | 'unsupported' | 'unreadable';

  constructor(kind: 'empty' | 'unsupported' | 'unreadable', message: string) {
    super(message);
    this.name = 'ClipProblem';
    this.kind = kind;
  }
}

export type ClipFormat = 'wav' | 'mp3' | 'm4a' | 'ogg' | 'flac';

export interface Clip {
  format: ClipFormat;
  durationSeconds: number;
  /** Mono, -1..1, where the format can be decoded here (WAV, MP3). */
  samples?: Float32Array;
  sampleRate?: number;
}

const text = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/** The format by the clip's first bytes (what a service sniffs; the file's name says nothing). */
export function sniffFormat(bytes: Uint8Array): ClipFormat | undefined {
  const head = text(bytes, 0, 12);
  if ((head.startsWith('RIFF') || head.startsWith('RF64')) && head.slice(8, 12) === 'WAVE') return 'wav';
  if (head.startsWith('OggS')) return 'ogg';
  if (head.startsWith('fLaC')) return 'flac';
  if (head.slice(4, 8) === 'ftyp') return 'm4a';
  if (head.startsWith('ID3')) return 'mp3';
  const first = mp3FrameAt(bytes, 0);
  return first !== undefined ? 'mp3' : undefined;
}

/**
 * Reads a clip, decoding no more than `maxSeconds` (and a little) of it: a longer clip reports a duration past the
 * limit without its whole length being decoded.
 */
export async function readClip(bytes: Uint8Array, maxSeconds: number): Promise<Clip> {
  if (bytes.length === 0) throw new ClipProblem('empty', 'no bytes');
  const format = sniffFormat(bytes);
  switch (format) {
    case 'wav':
      return readWav(bytes);
    case 'mp3':
      return readMp3(bytes, maxSeconds);
    case 'm4a':
      return { format, durationSeconds: m4aSeconds(bytes) };
    case 'ogg':
    case 'flac':
      return { format, durationSeconds: 0 };
    case undefined:
      throw new ClipProblem('unsupported', 'not audio in a known format');
  }
}

function readWav(bytes: Uint8Array): Clip {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let fmt: { tag: number; channels: number; rate: number; bits: number; align: number } | undefined;
  while (at + 8 <= bytes.length) {
    const id = text(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 24 <= bytes.length) {
      let tag = view.getUint16(at + 8, true);
      // WAVE_FORMAT_EXTENSIBLE: the real tag is the sub-format GUID's first two bytes.
      if (tag === 0xfffe && at + 34 <= bytes.length) tag = view.getUint16(at + 32, true);
      fmt = {
        tag,
        channels: view.getUint16(at + 10, true),
        rate: view.getUint32(at + 12, true),
        align: view.getUint16(at + 20, true),
        bits: view.getUint16(at + 22, true),
      };
    } else if (id === 'data') {
      if (fmt === undefined) throw new ClipProblem('unreadable', 'WAV data before its fmt chunk');
      return wavSamples(bytes, view, at + 8, size, fmt);
    }
    at += 8 + size + (size & 1);
  }
  throw new ClipProblem('unreadable', 'WAV without a data chunk');
}

function wavSamples(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  size: number,
  fmt: { tag: number; channels: number; rate: number; bits: number; align: number },
): Clip {
  const { tag, channels, rate, bits, align } = fmt;
  const float = tag === 3;
  if ((tag !== 1 && !float) || channels === 0 || rate === 0 || align === 0 || ![8, 16, 24, 32, 64].includes(bits))
    throw new ClipProblem('unreadable', `WAV in a form the sandbox does not read (format ${tag}, ${bits} bits)`);
  // A streaming writer leaves the size unknown (0 or 0xFFFFFFFF): the data runs to the end of the file.
  const available = bytes.length - start;
  const usable = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
  const frames = Math.floor(usable / align);
  if (frames === 0) throw new ClipProblem('unreadable', 'WAV with no samples');
  const width = bits / 8;
  const read = (offset: number): number => {
    if (float) return bits === 64 ? view.getFloat64(offset, true) : view.getFloat32(offset, true);
    if (bits === 8) return ((bytes[offset] ?? 128) - 128) / 128;
    if (bits === 16) return view.getInt16(offset, true) / 32768;
    if (bits === 24) return ((view.getUint8(offset + 2) << 24) | (view.getUint16(offset, true) << 8)) / 2 ** 31;
    return view.getInt32(offset, true) / 2 ** 31;
  };
  const samples = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel++) sum += read(start + frame * align + channel * width);
    samples[frame] = sum / channels;
  }
  return { format: 'wav', durationSeconds: frames / rate, samples, sampleRate: rate };
}

// MPEG-1 and MPEG-2/2.5 Layer III bitrates (kbps) and sample rates, for finding the first frame.
const LAYER3_KBPS = {
  1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
} as const;
const RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as const;

/** A Layer III frame header at `at`: its length in bytes, samples and rate; undefined where there is none. */
export function mp3FrameAt(
  bytes: Uint8Array,
  at: number,
): { length: number; samples: number; rate: number; kbps: number } | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff) return undefined;
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  if ((b1 & 0xe0) !== 0xe0 || version === 1 || ((b1 >> 1) & 3) !== 1) return undefined;
  const kbps = LAYER3_KBPS[version === 3 ? 1 : 2][b2 >> 4];
  const rate = RATES[version as 0 | 2 | 3][(b2 >> 2) & 3];
  if (!kbps || rate === undefined) return undefined;
  const samples = version === 3 ? 1152 : 576;
  return { length: Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1), samples, rate, kbps };
}

async function readMp3(bytes: Uint8Array, maxSeconds: number): Promise<Clip> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const pieces: Float32Array[] = [];
  let total = 0;
  let rate = 0;
  try {
    // In pieces, so that a clip far past the limit is not decoded whole.
    const step = 64 * 1024;
    for (let at = 0; at < bytes.length && (rate === 0 || total < (maxSeconds + 1) * rate); at += step) {
      const decoded = decoder.decode(bytes.subarray(at, at + step));
      if (decoded.samplesDecoded === 0) continue;
      rate = decoded.sampleRate;
      const [left, right] = decoded.channelData;
      if (left === undefined) continue;
      const mono = new Float32Array(decoded.samplesDecoded);
      for (let i = 0; i < mono.length; i++) mono[i] = right ? ((left[i] ?? 0) + (right[i] ?? 0)) / 2 : (left[i] ?? 0);
      pieces.push(mono);
      total += mono.length;
    }
  } finally {
    decoder.free();
  }
  if (total === 0 || rate === 0) throw new ClipProblem('unreadable', 'no MPEG audio could be decoded');
  const samples = new Float32Array(total);
  let offset = 0;
  for (const piece of pieces) {
    samples.set(piece, offset);
    offset += piece.length;
  }
  return { format: 'mp3', durationSeconds: total / rate, samples, sampleRate: rate };
}

/** An M4A's length from its sound track's media header (mdhd), else the movie header (mvhd). */
function m4aSeconds(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes = function* (from: number, to: number): Generator<{ type: string; body: number; end: number }> {
    for (let at = from; at + 8 <= to;) {
      let size = view.getUint32(at);
      let header = 8;
      if (size === 1 && at + 16 <= to) {
        size = Number(view.getBigUint64(at + 8));
        header = 16;
      } else if (size === 0) size = to - at;
      if (size < header) return;
      yield { type: text(bytes, at + 4, 4), body: at + header, end: Math.min(to, at + size) };
      at += size;
    }
  };
  const fullBoxSeconds = (body: number, timescaleAt: [number, number]): number => {
    const version = bytes[body] ?? 0;
    const [v0, v1] = timescaleAt;
    const scale = view.getUint32(body + (version === 1 ? v1 : v0));
    const duration = version === 1 ? Number(view.getBigUint64(body + v1 + 4)) : view.getUint32(body + v0 + 4);
    if (scale === 0) throw new ClipProblem('unreadable', 'M4A with a time scale of 0');
    return duration / scale;
  };
  let movie: number | undefined;
  for (const top of boxes(0, bytes.length)) {
    if (top.type !== 'moov') continue;
    for (const box of boxes(top.body, top.end)) {
      if (box.type === 'mvhd') movie = fullBoxSeconds(box.body, [12, 20]);
      if (box.type !== 'trak') continue;
      for (const mdia of boxes(box.body, box.end)) {
        if (mdia.type !== 'mdia') continue;
        let sound = false;
        let seconds: number | undefined;
        for (const inner of boxes(mdia.body, mdia.end)) {
          if (inner.type === 'hdlr') sound = text(bytes, inner.body + 8, 4) === 'soun';
          if (inner.type === 'mdhd') seconds = fullBoxSeconds(inner.body, [12, 20]);
        }
        if (sound && seconds !== undefined) return seconds;
      }
    }
  }
  if (movie !== undefined) return movie;
  throw new ClipProblem('unreadable', 'M4A without a movie header');
}
