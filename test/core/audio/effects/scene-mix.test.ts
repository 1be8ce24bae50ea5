// A scene's lines mixed as one file: lines from different rates, formats and levels come out at one rate and one
// loudness, in the places reported, with silent gaps and no clicks. Every figure is measured here on the decoded
// output (the returned ones are only compared with it), with a plain RMS over each line's window.
import { describe, expect, it } from 'vitest';
import { rmsDbfs } from '../../../../src/core/audio/analysis/analysis.ts';
import { decodeAudio } from '../../../../src/core/audio/effects/effects.ts';
import { LIMIT } from '../../../../src/core/audio/effects/gain.ts';
import {
  MAX_SCENE_SECONDS,
  mixScene,
  type SceneMixLine,
  type SceneMixResult,
} from '../../../../src/core/audio/effects/scene-mix.ts';
import { encodeMp3, encodeWav, toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { buildWav, stereo } from '../fixtures.ts';

/** A tone whose RMS reads `db` dBFS on rmsDbfs' scale (a sine's RMS is its peak over the square root of 2). */
function tone(pitchHz: number, seconds: number, db: number, sampleRate: number): Int16Array {
  return toneSamples({ pitchHz, seconds, amplitude: 10 ** ((db + 3.0103) / 20), sampleRate });
}

async function decoded(result: SceneMixResult): Promise<Float32Array> {
  const audio = await decodeAudio(result.data);
  expect(audio.sampleRate).toBe(result.sampleRate);
  expect(audio.channels).toHaveLength(1);
  return audio.channels[0] as Float32Array;
}

/** The samples of a line's window, less `trim` seconds at each end (its fades). */
function window(samples: Float32Array, rate: number, line: { start: number; end: number }, trim = 0.02) {
  return samples.subarray(Math.round((line.start + trim) * rate), Math.round((line.end - trim) * rate));
}

/** The largest step from one sample to the next within [from, to). */
function largestStep(samples: Float32Array, from: number, to: number): number {
  let most = 0;
  for (let i = Math.max(1, from); i < Math.min(samples.length, to); i++)
    most = Math.max(most, Math.abs((samples[i] as number) - (samples[i - 1] as number)));
  return most;
}

const peak = (x: Float32Array) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
/** Sixteen-bit rounding may put a sample half a step over what the float mix held. */
const ROUNDING = 1 / 32767;

/** Three voices: 16 kHz WAV at -30 dBFS, 24 kHz WAV at -8, a 44.1 kHz MP3 at -18; their lengths in seconds. */
async function threeVoices(): Promise<{ lines: SceneMixLine[]; seconds: number[]; gaps: number[] }> {
  const seconds = [2, 1.5, 1.7];
  const gaps = [0.1, 0.3, 0.25];
  const parts = [
    encodeWav(tone(200, 2, -30, 16_000), 16_000),
    encodeWav(tone(300, 1.5, -8, 24_000), 24_000),
    await encodeMp3(tone(250, 1.7, -18, 44_100), 44_100, 128),
  ];
  return { lines: parts.map((p, i) => ({ parts: [p], gapBefore: gaps[i] as number })), seconds, gaps };
}

describe('mixScene', () => {
  it('brings lines of three rates and levels to the highest rate and one loudness', async () => {
    const { lines } = await threeVoices();
    const result = await mixScene({ lines, format: 'wav' });
    expect(result.format).toBe('wav');
    expect(result.sampleRate).toBe(44_100);
    expect(result.loudness.spreadBefore).toBeGreaterThan(15);
    const samples = await decoded(result);
    const levels = result.lines.map((line) => rmsDbfs(window(samples, result.sampleRate, line)));
    expect(Math.max(...levels) - Math.min(...levels)).toBeLessThan(1.5);
    // The figures returned agree with what is measured on the file.
    levels.forEach((db, i) => expect(Math.abs(db - (result.loudness.after[i] as number))).toBeLessThan(0.5));
    expect(result.loudness.spreadAfter).toBeLessThan(1.5);
    // The input levels, as measured by the mix.
    result.loudness.before.forEach((db, i) => expect(Math.abs((db as number) - [-30, -8, -18][i]!)).toBeLessThan(0.6));
  });

  it('places each line after the previous ones and their gaps, to the sample; the gaps are silent', async () => {
    const { lines, seconds, gaps } = await threeVoices();
    const result = await mixScene({ lines, format: 'wav' });
    const samples = await decoded(result);
    const rate = result.sampleRate;
    let at = 0;
    result.lines.forEach((line, i) => {
      at += gaps[i] as number;
      expect(Math.abs(line.start - at)).toBeLessThan(0.001);
      at += seconds[i] as number;
      expect(Math.abs(line.end - at)).toBeLessThan(0.001);
      const gapFrom = i === 0 ? 0 : Math.round((result.lines[i - 1] as { end: number }).end * rate);
      expect(peak(samples.subarray(gapFrom, Math.round(line.start * rate)))).toBe(0);
    });
    expect(samples.length).toBe(Math.round(result.seconds * rate));
    expect(Math.abs(result.seconds - at)).toBeLessThan(0.001);
  });

  it('never passes -1 dBFS, even where a quiet line with loud clicks is brought up 10 dB', async () => {
    const rate = 24_000;
    // Gated RMS near -16 dBFS, but a click at 0.9 every 100 ms: brought up to the others' -6, they would reach 2.8.
    const clicky = tone(200, 1, -16, rate);
    for (let i = 0; i < clicky.length; i += rate / 10) clicky[i] = Math.round(0.9 * 32767);
    const loud = (hz: number) => encodeWav(tone(hz, 1, -6, rate), rate);
    const result = await mixScene({
      lines: [
        { parts: [loud(180)], gapBefore: 0 },
        { parts: [encodeWav(clicky, rate)], gapBefore: 0 },
        { parts: [loud(260)], gapBefore: 0 },
      ],
      format: 'wav',
    });
    const samples = await decoded(result);
    expect(peak(samples)).toBeLessThanOrEqual(LIMIT + ROUNDING);
    // The limiter did act: the clicks reach the limit rather than staying where they were.
    expect(peak(window(samples, rate, result.lines[1] as { start: number; end: number }))).toBeGreaterThan(
      LIMIT - 0.01,
    );
  });

  it('joins lines with no click: near each join no step is larger than inside the lines, even across a DC offset', async () => {
    const rate = 24_000;
    // A line carrying a DC offset of 0.2 against one without: joined as is, that is a step of 0.2 at each edge.
    const offset = Int16Array.from(tone(220, 1, -14, rate), (s) => s + 0.2 * 32767);
    const lines: SceneMixLine[] = [
      { parts: [encodeWav(tone(200, 1, -14, rate), rate)], gapBefore: 0 },
      { parts: [encodeWav(offset, rate)], gapBefore: 0 },
      { parts: [encodeWav(tone(240, 1, -14, rate), rate)], gapBefore: 0.05 },
    ];
    const result = await mixScene({ lines, format: 'wav' });
    const samples = await decoded(result);
    const near = Math.round(0.01 * rate);
    const bodies = result.lines.map((line) =>
      largestStep(samples, Math.round(line.start * rate) + near, Math.round(line.end * rate) - near),
    );
    const inside = Math.max(...bodies);
    for (const line of result.lines)
      for (const edge of [line.start, line.end]) {
        const at = Math.round(edge * rate);
        expect(largestStep(samples, at - near, at + near)).toBeLessThanOrEqual(inside);
      }
    // The offset is gone: the line's body averages zero.
    const body = window(samples, rate, result.lines[1] as { start: number; end: number });
    expect(Math.abs(body.reduce((s, v) => s + v, 0) / body.length)).toBeLessThan(0.002);
  });

  it('leaves a silent line silent (no loudness, no gain) and evens out the others', async () => {
    const rate = 16_000;
    const lines: SceneMixLine[] = [
      { parts: [encodeWav(tone(200, 1, -10, rate), rate)], gapBefore: 0 },
      { parts: [encodeWav(new Int16Array(rate), rate)], gapBefore: 0.2 },
      { parts: [encodeWav(tone(300, 1, -26, rate), rate)], gapBefore: 0.2 },
    ];
    const result = await mixScene({ lines, format: 'wav' });
    expect(result.loudness.before[1]).toBeNull();
    expect(result.loudness.after[1]).toBeNull();
    const samples = await decoded(result);
    const silent = result.lines[1] as { start: number; end: number };
    expect(peak(samples.subarray(Math.round(silent.start * rate), Math.round(silent.end * rate)))).toBe(0);
    expect(result.loudness.spreadAfter).toBeLessThan(1.5);
  });

  it("keeps a speaker's own volume setting after evening out: a line at -6 dB ends 6 dB under the others", async () => {
    const rate = 16_000;
    // The parts carry the volume already (the effects job made them so); evening out alone would undo it.
    const lines: SceneMixLine[] = [
      { parts: [encodeWav(tone(200, 1, -20, rate), rate)], gapBefore: 0 },
      { parts: [encodeWav(tone(300, 1, -26, rate), rate)], gapBefore: 0.2, volumeDb: -6 },
      { parts: [encodeWav(tone(250, 1, -20, rate), rate)], gapBefore: 0.2 },
    ];
    const result = await mixScene({ lines, format: 'wav' });
    const samples = await decoded(result);
    const level = (i: number) => rmsDbfs(window(samples, rate, result.lines[i] as { start: number; end: number }));
    expect(level(1) - level(0)).toBeCloseTo(-6, 0);
    expect(level(2) - level(0)).toBeCloseTo(0, 0);
  });

  it('takes stereo and several parts per line, and caps the rate at 48 kHz', async () => {
    const rate = 96_000;
    const left = Float32Array.from(tone(200, 0.5, -12, rate), (s) => s / 32768);
    const wide = buildWav(stereo(left, left), { sampleRate: rate, channels: 2 });
    const result = await mixScene({
      lines: [{ parts: [wide, encodeWav(tone(200, 0.5, -12, 22_050), 22_050)], gapBefore: 0 }],
      format: 'wav',
    });
    expect(result.sampleRate).toBe(48_000);
    expect(result.lines[0]?.end).toBeCloseTo(1, 3);
    expect(result.loudness.before[0]).toBeCloseTo(-12, 0);
  });

  it('writes an MP3 whose decoded lines start and end where reported, within 10 ms', async () => {
    const { lines } = await threeVoices();
    const result = await mixScene({ lines, format: 'mp3' });
    expect(result.format).toBe('mp3');
    expect(result.sampleRate).toBe(44_100);
    const samples = await decoded(result);
    const rate = result.sampleRate;
    expect(Math.abs(samples.length / rate - result.seconds)).toBeLessThan(0.01);
    const threshold = 0.01; // the lines sit near -18 dBFS (a peak of 0.18); the encoder's noise far below this
    for (const line of result.lines) {
      // The first and last samples above the threshold within 50 ms of the reported edges.
      const from = Math.round((line.start - 0.05) * rate);
      const to = Math.round((line.end + 0.05) * rate);
      let first = -1;
      let last = -1;
      for (let i = Math.max(0, from); i < Math.min(samples.length, to); i++)
        if (Math.abs(samples[i] as number) > threshold) {
          if (first < 0) first = i;
          last = i;
        }
      expect(Math.abs(first / rate - line.start)).toBeLessThan(0.01);
      expect(Math.abs(last / rate - line.end)).toBeLessThan(0.01);
    }
    const levels = result.lines.map((line) => rmsDbfs(window(samples, rate, line)));
    expect(Math.max(...levels) - Math.min(...levels)).toBeLessThan(1.5);
    expect(peak(samples)).toBeLessThan(1);
  });

  it(`refuses gaps over ${MAX_SCENE_SECONDS} s or below 0 with a RangeError`, async () => {
    const short = encodeWav(tone(200, 0.1, -20, 8000), 8000);
    await expect(
      mixScene({ lines: [{ parts: [short], gapBefore: MAX_SCENE_SECONDS + 1 }], format: 'wav' }),
    ).rejects.toThrow(RangeError);
    await expect(mixScene({ lines: [{ parts: [short], gapBefore: -1 }], format: 'wav' })).rejects.toThrow(RangeError);
  });

  it(`cuts audio that passes ${MAX_SCENE_SECONDS} s at the cap, leaving out the lines after it, and says so`, async () => {
    const half = encodeWav(tone(200, MAX_SCENE_SECONDS / 2 + 1, -20, 8000), 8000);
    const short = encodeWav(tone(300, 1, -20, 8000), 8000);
    const mixed = await mixScene({
      lines: [
        { parts: [half], gapBefore: 0 },
        { parts: [half], gapBefore: 0.5 },
        { parts: [short], gapBefore: 0.5 },
      ],
      format: 'wav',
    });
    expect(mixed.cut).toBe(true);
    expect(mixed.seconds).toBeCloseTo(MAX_SCENE_SECONDS, 3);
    expect(mixed.lines).toHaveLength(2);
    expect(mixed.lines[1]?.start).toBeCloseTo(MAX_SCENE_SECONDS / 2 + 1.5, 3);
    expect(mixed.lines[1]?.end).toBeCloseTo(MAX_SCENE_SECONDS, 3);
    const whole = await mixScene({ lines: [{ parts: [short], gapBefore: 0 }], format: 'wav' });
    expect(whole.cut).toBe(false);
  });
});
