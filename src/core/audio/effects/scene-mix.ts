// A scene (/scene) as one file, so many voices sound like one recording; run in the audio worker
// (../jobs/audio-thread/: ten minutes at 48 kHz is 115 MB of floats). Each line's parts are decoded to mono at one
// rate: the highest input's, at most 48 kHz, raised to a rate MPEG carries for MP3, so no line loses bandwidth
// (../codecs/resample.ts resamples). Loudness: a gated RMS (50 ms blocks, dropping those under -60 dBFS or 30 dB below
// the loudest: pauses, padding); every line is moved to the median line (one shouting voice moves no other), by at most
// 12 dB so a whisper is not pushed into its noise floor, then through gain.ts' limiter (no sample past -1 dBFS); the
// speaker's `volumeDb` after. Joins: DC removed and 8 ms raised-cosine fades inside each line, so gaps are true silence
// and timings exact. Timings are counted in output samples; the MP3's LAME Info frame (../codecs/mp3-encode.ts) gives
// delay and padding, so players that honour it keep them to the sample (others start ~1,105 samples late, the same for
// every line).
import { applyGain } from './gain.ts';
import { decodeAudio, encodeAudio, mono } from './effects.ts';
import { ClipError } from '../errors.ts';
import { MPEG_SAMPLE_RATES } from '../codecs/mpeg.ts';
import { StereoResampler, gcd } from '../codecs/resample.ts';
import type { EditableFormat, SceneMixInput, SceneMixLine, SceneMixResult } from './effect-types.ts';
import { nextSlice } from '../workers/slices.ts';

export type { SceneMixInput, SceneMixLine, SceneMixResult } from './effect-types.ts';

/** The longest scene, gaps included: past it mixScene throws a RangeError before decoding more or allocating. */
export const MAX_SCENE_SECONDS = 600;
/** The highest output rate: Discord's own, and the highest a voice service sends. */
export const MAX_SCENE_RATE = 48_000;
/** Most a line's level is moved, either way. */
export const MAX_LINE_GAIN_DB = 12;

const BLOCK_SECONDS = 0.05;
const ABSOLUTE_GATE_DB = -60;
const RELATIVE_GATE_DB = -30;
const FADE_SECONDS = 0.008;
/** Input samples resampled at a time: the resampler's buffers stay small whatever the part's length. */
const RESAMPLE_CHUNK = 1 << 16;

interface Part {
  sampleRate: number;
  samples: Float32Array;
}

/**
 * The scene's lines as one file of `input.format`, with each line's place and loudness. Past MAX_SCENE_SECONDS it is
 * cut (`cut`; `lines` only those heard), so audio already paid for still reaches the member. Throws RangeError for a
 * bad gap or gaps alone past the cap, ClipError for no audio or a damaged part, UnsupportedAudioError for a part that
 * is neither WAV nor MP3.
 */
export async function mixScene(input: SceneMixInput): Promise<SceneMixResult> {
  const { format } = input;
  for (const line of input.lines)
    if (!(Number.isFinite(line.gapBefore) && line.gapBefore >= 0))
      throw new RangeError(`a line's gap must be a number of seconds >= 0, not ${line.gapBefore}`);
  const { decoded, cut } = await decodeLines(input.lines);
  const lines = input.lines.slice(0, decoded.length);
  const rate = outputRate(decoded, format);

  // Every place in samples first, so the output is allocated once, at its exact length, after the guard.
  const gaps = lines.map((line) => Math.round(line.gapBefore * rate));
  const lengths = decoded.map((parts) => parts.reduce((sum, p) => sum + resampledLength(p, rate), 0));
  const spans: Array<{ from: number; to: number }> = [];
  let total = 0;
  for (let i = 0; i < lines.length; i++) {
    const from = total + (gaps[i] as number);
    total = from + (lengths[i] as number);
    spans.push({ from, to: total });
  }
  // Each part was cut at the cap in its own rate: resampled, each may round up by under a sample.
  const cap = MAX_SCENE_SECONDS * rate;
  if (total > cap + lengths.length + decoded.flat().length) throw tooLong(total / rate);
  if (lengths.every((n) => n === 0)) throw new ClipError('empty', 'the scene has no audio');

  const whole = new Float32Array(total);
  const out = whole.subarray(0, Math.min(total, cap));
  for (const span of spans) {
    span.from = Math.min(span.from, out.length);
    span.to = Math.min(span.to, out.length);
  }
  // Between the steps of every line, a slice of long work may end (../workers/slices.ts): short work goes first.
  for (const [i, parts] of decoded.entries()) {
    let at = (spans[i] as { from: number }).from;
    for (const part of parts) at += resampleInto(part, rate, whole, at);
    parts.length = 0; // the decoded input is no longer needed: let it go before the next line's
    await nextSlice();
  }
  const bodies = spans.map(({ from, to }) => out.subarray(from, to));

  for (const body of bodies) removeDc(body);
  const before = bodies.map((body) => gatedLoudnessDb(body, rate));
  await nextSlice();
  const target = median(before.filter((db): db is number => db !== null));
  bodies.forEach((body, i) => {
    const level = before[i];
    if (level !== null && level !== undefined && target !== undefined) {
      // Evened out to the median, then the speaker's own volume again (the parts carry it; evening out undid it).
      const evened = Math.max(-MAX_LINE_GAIN_DB, Math.min(MAX_LINE_GAIN_DB, target - level));
      const gain = 10 ** ((evened + (lines[i]?.volumeDb ?? 0)) / 20);
      for (let j = 0; j < body.length; j++) body[j] = (body[j] as number) * gain;
    }
    applyGain([body], rate, 0); // the limiter alone (0 dB): nothing passes -1 dBFS
    fadeEdges(body, rate);
  });
  await nextSlice();
  const after = bodies.map((body) => gatedLoudnessDb(body, rate));

  const data = await encodeAudio({ format, sampleRate: rate, channels: [out], kbps: rate > 24_000 ? 96 : 64 });
  return {
    data,
    format,
    seconds: out.length / rate,
    cut,
    sampleRate: rate,
    lines: spans.map(({ from, to }) => ({ start: from / rate, end: to / rate })),
    loudness: { before, after, spreadBefore: spread(before), spreadAfter: spread(after) },
  };
}

function tooLong(seconds: number): RangeError {
  return new RangeError(
    `a scene may last at most ${MAX_SCENE_SECONDS} s; this one lasts ${seconds.toFixed(1)} s or more`,
  );
}

/** Every part decoded to mono within what is left of MAX_SCENE_SECONDS; the part that passes it is cut (`cut`). */
async function decodeLines(lines: readonly SceneMixLine[]): Promise<{ decoded: Part[][]; cut: boolean }> {
  const gaps = lines.reduce((sum, line) => sum + line.gapBefore, 0);
  if (gaps > MAX_SCENE_SECONDS) throw tooLong(gaps);
  let seconds = 0;
  const decoded: Part[][] = [];
  for (const line of lines) {
    seconds += line.gapBefore;
    if (seconds >= MAX_SCENE_SECONDS) return { decoded, cut: true };
    const parts: Part[] = [];
    decoded.push(parts);
    for (const bytes of line.parts) {
      const left = MAX_SCENE_SECONDS - seconds;
      const part = await decodeAudio(bytes, { maxSeconds: left });
      const samples = mono(part.channels);
      const room = Math.floor(left * part.sampleRate);
      const over = part.overLimit || samples.length > room;
      const kept = over ? samples.subarray(0, room) : samples;
      seconds += kept.length / part.sampleRate;
      parts.push({ sampleRate: part.sampleRate, samples: kept });
      if (over) return { decoded, cut: true };
      await nextSlice();
    }
  }
  return { decoded, cut: false };
}

/** The highest input rate, at most MAX_SCENE_RATE; for MP3 the next rate MPEG audio carries. */
function outputRate(decoded: readonly Part[][], format: EditableFormat): number {
  const highest = Math.min(
    MAX_SCENE_RATE,
    decoded.flat().reduce((most, p) => Math.max(most, p.sampleRate), 8000),
  );
  if (format === 'wav') return highest;
  return MPEG_SAMPLE_RATES.find((r) => r >= highest) ?? MAX_SCENE_RATE;
}

/** Samples the resampler makes of `part` at `rate`: ceil(n * rate / inRate). */
function resampledLength(part: Part, rate: number): number {
  const n = part.samples.length;
  if (part.sampleRate === rate) return n;
  const g = gcd(part.sampleRate, rate);
  return Math.ceil((n * (rate / g)) / (part.sampleRate / g));
}

/** `part` at `rate` written into `out` from `at`; how many samples were written (resampledLength's count). */
function resampleInto(part: Part, rate: number, out: Float32Array, at: number): number {
  const expected = resampledLength(part, rate);
  if (part.sampleRate === rate) {
    out.set(part.samples, at);
    return expected;
  }
  const resampler = new StereoResampler(part.sampleRate, rate, 1);
  let written = 0;
  const put = (chunk: Float32Array): void => {
    // Never past the line's place: a count the prediction missed must not spill into the next line's.
    const take = Math.min(chunk.length, expected - written);
    out.set(chunk.subarray(0, take), at + written);
    written += take;
  };
  for (let i = 0; i < part.samples.length; i += RESAMPLE_CHUNK) {
    const chunk = part.samples.subarray(i, i + RESAMPLE_CHUNK);
    put(resampler.process(chunk, undefined, chunk.length));
  }
  put(resampler.flush());
  return expected;
}

/** A line's loudness in dBFS: mean power of its gated 50 ms blocks; null when silent. */
export function gatedLoudnessDb(samples: Float32Array, sampleRate: number): number | null {
  const block = Math.max(1, Math.round(BLOCK_SECONDS * sampleRate));
  const powers: number[] = [];
  for (let start = 0; start < samples.length; start += block) {
    const end = Math.min(samples.length, start + block);
    // A last block shorter than half a block is left out: a few samples would weigh as much as a whole block.
    if (end - start < block / 2 && start > 0) break;
    let sum = 0;
    for (let i = start; i < end; i++) sum += (samples[i] as number) ** 2;
    powers.push(sum / (end - start));
  }
  const loudest = powers.reduce((most, p) => Math.max(most, p), 0);
  const gate = Math.max(10 ** (ABSOLUTE_GATE_DB / 10), loudest * 10 ** (RELATIVE_GATE_DB / 10));
  const kept = powers.filter((p) => p >= gate && p > 0);
  if (kept.length === 0) return null;
  return 10 * Math.log10(kept.reduce((sum, p) => sum + p, 0) / kept.length);
}

/** The line's mean taken off, so its fades end at zero rather than at its offset (a step at every join). */
function removeDc(body: Float32Array): void {
  if (body.length === 0) return;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += body[i] as number;
  const mean = sum / body.length;
  if (mean === 0) return;
  for (let i = 0; i < body.length; i++) body[i] = (body[i] as number) - mean;
}

/** Raised-cosine fade in over the first FADE_SECONDS and out over the last, the first and last samples at zero. */
function fadeEdges(body: Float32Array, sampleRate: number): void {
  const fade = Math.min(Math.round(FADE_SECONDS * sampleRate), Math.floor(body.length / 2));
  for (let i = 0; i < fade; i++) {
    const w = 0.5 - 0.5 * Math.cos((Math.PI * i) / fade);
    body[i] = (body[i] as number) * w;
    const j = body.length - 1 - i;
    body[j] = (body[j] as number) * w;
  }
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Max - min of the lines that have a loudness; 0 when fewer than two do. */
function spread(values: ReadonlyArray<number | null>): number {
  const known = values.filter((v): v is number => v !== null);
  return known.length < 2 ? 0 : Math.max(...known) - Math.min(...known);
}
