// What the audio worker thread does with whole parts (src/core/audio/jobs/audio-thread/ sends it there): speed,
// pitch and volume applied to one part, and the parts of one request joined into one file. Runs off the main thread only.
import { analyseClip } from '../analysis/clip.ts';
import type { AudioEffects } from './effect-types.ts';
import { ClipError, UnsupportedAudioError } from '../errors.ts';
import { detectAudioFormat, SNIFF_BYTES } from '../codecs/format.ts';
import { applyGain } from './gain.ts';
import { decodeMp3 } from '../codecs/mp3.ts';
import { encodeMp3 } from '../codecs/mp3-encode.ts';
import { exactMp3File, joinMp3Files } from '../codecs/mp3-file.ts';
import { findFirstMpegFrame, MPEG_SAMPLE_RATES, skipId3v2 } from '../codecs/mpeg.ts';
import { stretchAndShift } from './pitch-shift.ts';
import { decodedChannels, decodePcm, parseWavHeader } from '../codecs/wav.ts';
import { encodeWav16, exactWavFile, joinWavFiles, toInt16 } from '../codecs/wav-file.ts';

/** The formats SayBot can decode, change and write again. */
export type { EditableFormat } from './effect-types.ts';
import type { EditableFormat } from './effect-types.ts';

/** A part decoded to planar floats (decodeAudio), and what encodeAudio needs to write it again. */
export interface Decoded {
  format: EditableFormat;
  sampleRate: number;
  /** Planar, -1..1: one or two for WAV, the mono mix for MP3. */
  channels: Float32Array[];
  /** MP3 only: the first frame's bitrate, kept when writing it again. */
  kbps?: number;
}

/** One part with `effects` applied, in its own format (WAV as 16-bit PCM, MP3 at its own rate and bitrate). */
export async function applyEffects(
  bytes: Uint8Array,
  effects: AudioEffects,
): Promise<{ format: EditableFormat; data: Uint8Array }> {
  const decoded = await decode(bytes);
  const stretched = stretchAndShift(decoded.channels, decoded.sampleRate, effects.speed, effects.pitch ?? 0);
  applyGain(stretched, decoded.sampleRate, effects.volumeDb);
  return { format: decoded.format, data: await encode({ ...decoded, channels: stretched }) };
}

/**
 * One request's parts as one file of `format`, its duration from its samples: joined as they are where they are all
 * of `format` and their streams match (src/core/audio/codecs/{wav,mp3}-file.ts), else decoded, resampled to the first
 * part's rate (for MP3 a rate MPEG carries) and encoded once: so WAV parts (the free voice's, an engine's) make the MP3
 * a member asked for.
 */
export async function joinParts(
  parts: readonly Uint8Array[],
  format: EditableFormat,
): Promise<{ data: Uint8Array; seconds: number }> {
  const joined = parts.some((part) => detectAudioFormat(part.subarray(0, SNIFF_BYTES)) !== format)
    ? await reencode(parts, format)
    : parts.length === 1
      ? format === 'wav'
        ? exactWavFile(parts[0] as Uint8Array)
        : exactMp3File(parts[0] as Uint8Array)
      : ((format === 'wav' ? joinWavFiles(parts) : joinMp3Files(parts)) ?? (await reencode(parts, format)));
  return { data: joined, seconds: (await analyseClip(joined)).durationSeconds };
}

async function reencode(parts: readonly Uint8Array[], format: EditableFormat): Promise<Uint8Array> {
  const decoded = await Promise.all(parts.map(decode));
  const first = decoded[0] as Decoded;
  // An MP3 carries only MPEG's rates: a WAV at another (an engine's 20 kHz) is raised to the next one, losing nothing.
  const rate = format === 'mp3' ? (MPEG_SAMPLE_RATES.find((r) => r >= first.sampleRate) ?? 48_000) : first.sampleRate;
  const channels = decoded.some((d) => d.channels.length !== first.channels.length) ? 1 : first.channels.length;
  const pieces = decoded.map((d) => atRate(channels === 1 ? [mono(d.channels)] : d.channels, d.sampleRate, rate));
  const total = pieces.reduce((sum, p) => sum + (p[0]?.length ?? 0), 0);
  const out = Array.from({ length: channels }, () => new Float32Array(total));
  let at = 0;
  for (const piece of pieces) {
    piece.forEach((c, i) => out[i]?.set(c, at));
    at += piece[0]?.length ?? 0;
  }
  // An MP3 part's own bitrate; from WAV, a scene's: 64 kb/s for speech, 96 above 24 kHz (scene-mix.ts).
  const kbps = first.kbps ?? (rate > 24_000 ? 96 : 64);
  return encode({ format, sampleRate: rate, channels: out, kbps });
}

function decode(bytes: Uint8Array): Promise<Decoded> {
  return decodeAudio(bytes);
}

/**
 * A WAV or MP3 part as planar floats. With `maxSeconds`, a longer part comes back cut (`overLimit`), so a bounded
 * total (a scene) never decodes an hour someone sent. Rejects with UnsupportedAudioError or ClipError.
 */
export async function decodeAudio(
  bytes: Uint8Array,
  options: { maxSeconds?: number } = {},
): Promise<Decoded & { overLimit: boolean }> {
  const format = detectAudioFormat(bytes.subarray(0, SNIFF_BYTES));
  if (format === 'wav') {
    const parsed = parseWavHeader(bytes);
    if (!('header' in parsed)) throw new ClipError('corrupt', 'WAV header cut short');
    const { format: pcm, dataOffset, dataBytes } = parsed.header;
    const available = bytes.length - dataOffset;
    const whole = Math.floor((dataBytes === undefined ? available : Math.min(dataBytes, available)) / pcm.blockAlign);
    // One frame past the limit is enough to tell the caller it is over.
    const cap = options.maxSeconds === undefined ? Infinity : Math.ceil(options.maxSeconds * pcm.sampleRate) + 1;
    const frames = Math.min(whole, cap);
    const channels = Array.from({ length: decodedChannels(pcm) }, () => new Float32Array(frames));
    decodePcm(bytes, dataOffset, frames, pcm, channels, 0);
    return { format, sampleRate: pcm.sampleRate, channels, overLimit: whole > frames };
  }
  if (format === 'mp3') {
    const mp3 = await decodeMp3(bytes, options.maxSeconds === undefined ? {} : { maxSeconds: options.maxSeconds });
    const kbps = findFirstMpegFrame(bytes, skipId3v2(bytes))?.header.bitrateKbps;
    return {
      format,
      sampleRate: mp3.sampleRate,
      channels: [mp3.samples.subarray(0, mp3.sampleCount)],
      overLimit: mp3.overLimit,
      ...(kbps ? { kbps } : {}),
    };
  }
  throw new UnsupportedAudioError(format, format === undefined ? 'unknown audio' : format.toUpperCase());
}

const MP3_KBPS = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

function encode(decoded: Decoded): Promise<Uint8Array> {
  return encodeAudio(decoded);
}

/** Planar floats as a file of `decoded.format`: 16-bit PCM WAV, or CBR mono MP3 at `kbps` (else 64 kb/s). */
export async function encodeAudio(decoded: Decoded): Promise<Uint8Array> {
  if (decoded.format === 'wav') return encodeWav16(decoded.channels, decoded.sampleRate);
  const samples = mono(decoded.channels);
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) pcm[i] = toInt16(samples[i] as number);
  // The part's own bitrate where lamejs writes it at that rate; 64 kbps (speech) otherwise.
  const kbps = MP3_KBPS.includes(decoded.kbps ?? 0) ? (decoded.kbps as number) : 64;
  return encodeMp3(pcm, decoded.sampleRate, kbps);
}

/** The mono mix of one or two planar channels (the channel itself when mono: no copy). */
export function mono(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0] ?? new Float32Array(0);
  if (channels.length === 1) return first;
  const out = new Float32Array(first.length);
  for (let i = 0; i < out.length; i++)
    out[i] = ((first[i] as number) + ((channels[1] as Float32Array)[i] as number)) / 2;
  return out;
}

/** Linear interpolation to another rate: only for the rare request whose parts came at different rates. */
function atRate(channels: readonly Float32Array[], from: number, to: number): Float32Array[] {
  if (from === to) return [...channels];
  return channels.map((c) => {
    const out = new Float32Array(Math.round((c.length * to) / from));
    for (let i = 0; i < out.length; i++) {
      const x = (i * from) / to;
      const j = Math.floor(x);
      const a = c[j] ?? 0;
      out[i] = a + ((c[j + 1] ?? a) - a) * (x - j);
    }
    return out;
  });
}
