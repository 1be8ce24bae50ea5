import { mp3FrameStarts } from './mp3.ts';

export { encodeMp3, MP3_SAMPLE_RATES } from './mp3.ts';

const FADE_SECONDS = 0.01;

export interface ToneSpec {
  pitchHz: number;
  seconds: number;
  /** Peak level, 0..1 of full scale. */
  amplitude: number;
  sampleRate: number;
}

/** A sine with raised-cosine fades at both ends, so the audio starts and stops without a click. */
export function toneSamples({ pitchHz, seconds, amplitude, sampleRate }: ToneSpec): Int16Array {
  const length = Math.round(seconds * sampleRate);
  const fade = Math.min(Math.round(FADE_SECONDS * sampleRate), Math.floor(length / 2));
  const peak = amplitude * 32767;
  const step = (2 * Math.PI * pitchHz) / sampleRate;
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    const edge = Math.min(i, length - 1 - i);
    const gain = edge < fade ? 0.5 - 0.5 * Math.cos((Math.PI * edge) / fade) : 1;
    out[i] = Math.round(peak * gain * Math.sin(step * i));
  }
  return out;
}

function ascii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

// A LIST/INFO chunk naming the software, as streaming synthesisers put before `data`.
const INFO_SOFTWARE = 'SayBot sandbox\0\0'; // even length keeps the chunk word-aligned
const LIST_CHUNK_BYTES = 8 + 4 + 8 + INFO_SOFTWARE.length;
const FACT_CHUNK_BYTES = 12;
const DS64_CHUNK_BYTES = 8 + 28;

/**
 * How a WAV header is written. `exact`: sizes known. The others are what a synthesiser sends before it knows
 * the length: `streamed` has RIFF and data sizes 0xFFFFFFFF and a LIST chunk before data; `streamed-zero` sizes
 * 0 with LIST and fact chunks; `rf64` an RF64 header whose ds64 chunk leaves the sizes unknown too.
 */
export type WavHeaderForm = 'exact' | 'streamed' | 'streamed-zero' | 'rf64';
export const WAV_HEADER_FORMS: readonly WavHeaderForm[] = ['exact', 'streamed', 'streamed-zero', 'rf64'];

/** PCM16 mono WAV with the header form given (`true` is the old spelling of 'streamed'). */
export function encodeWav(
  samples: Int16Array,
  sampleRate: number,
  form: WavHeaderForm | boolean = 'exact',
): Uint8Array {
  const header: WavHeaderForm = form === true ? 'streamed' : form === false ? 'exact' : form;
  const dataBytes = samples.length * 2;
  const extra =
    header === 'streamed'
      ? LIST_CHUNK_BYTES
      : header === 'streamed-zero'
        ? LIST_CHUNK_BYTES + FACT_CHUNK_BYTES
        : header === 'rf64'
          ? DS64_CHUNK_BYTES
          : 0;
  const headerBytes = 44 + extra;
  const unknown = header === 'streamed-zero' ? 0 : 0xffffffff;
  const out = new Uint8Array(headerBytes + dataBytes);
  const view = new DataView(out.buffer);
  ascii(view, 0, header === 'rf64' ? 'RF64' : 'RIFF');
  view.setUint32(4, header === 'exact' ? headerBytes - 8 + dataBytes : unknown, true);
  ascii(view, 8, 'WAVE');
  let offset = 12;
  if (header === 'rf64') {
    // ds64: RIFF size, data size, sample count (64-bit each) and a table length; all left "unknown" (0).
    ascii(view, offset, 'ds64');
    view.setUint32(offset + 4, DS64_CHUNK_BYTES - 8, true);
    offset += DS64_CHUNK_BYTES;
  }
  ascii(view, offset, 'fmt ');
  view.setUint32(offset + 4, 16, true);
  view.setUint16(offset + 8, 1, true); // PCM
  view.setUint16(offset + 10, 1, true); // mono
  view.setUint32(offset + 12, sampleRate, true);
  view.setUint32(offset + 16, sampleRate * 2, true);
  view.setUint16(offset + 20, 2, true);
  view.setUint16(offset + 22, 16, true);
  offset += 24;
  if (header === 'streamed' || header === 'streamed-zero') {
    ascii(view, offset, 'LIST');
    view.setUint32(offset + 4, LIST_CHUNK_BYTES - 8, true);
    ascii(view, offset + 8, 'INFO');
    ascii(view, offset + 12, 'ISFT');
    view.setUint32(offset + 16, INFO_SOFTWARE.length, true);
    ascii(view, offset + 20, INFO_SOFTWARE);
    offset += LIST_CHUNK_BYTES;
  }
  if (header === 'streamed-zero') {
    // A fact chunk whose sample count is unknown too.
    ascii(view, offset, 'fact');
    view.setUint32(offset + 4, 4, true);
    view.setUint32(offset + 8, 0, true);
    offset += FACT_CHUNK_BYTES;
  }
  ascii(view, offset, 'data');
  view.setUint32(offset + 4, header === 'exact' ? dataBytes : unknown, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(headerBytes + i * 2, samples[i] as number, true);
  return out;
}

/**
 * How an MP3 can arrive damaged from a real service: 'cut-last-frame' ends inside its last frame (a stream
 * closed mid-write), 'xing-overcounts' lacks its last frames while the Info header still counts them.
 */
export type Mp3Damage = 'none' | 'cut-last-frame' | 'xing-overcounts';
export const MP3_DAMAGES: readonly Mp3Damage[] = ['none', 'cut-last-frame', 'xing-overcounts'];

/** Frames dropped from the end for 'xing-overcounts': enough that a reader trusting the header is visibly wrong. */
const DROPPED_FRAMES = 4;

export function damageMp3(mp3: Uint8Array, damage: Mp3Damage): Uint8Array {
  if (damage === 'none') return mp3;
  const starts = mp3FrameStarts(mp3);
  if (damage === 'cut-last-frame') {
    const last = starts.at(-1) ?? 0;
    return mp3.subarray(0, last + Math.max(4, Math.floor((mp3.length - last) / 2)));
  }
  const keep = starts.at(-DROPPED_FRAMES) ?? mp3.length;
  return mp3.subarray(0, keep);
}
