import { describe, expect, it } from 'vitest';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { MAX_WAVEFORM_BYTES } from '../../../../src/core/audio/analysis/waveform.ts';
import { waveformValues } from '../../../support/waveform.ts';

const RATE = 48000;
const silence = (seconds: number) => new Int16Array(Math.round(seconds * RATE));
const tone = (seconds: number, amplitude: number) =>
  toneSamples({ pitchHz: 220, seconds, amplitude, sampleRate: RATE });
const join = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

describe('waveformValues', () => {
  it('is loud where the sound is and empty where it is silent', () => {
    // 0.5 s silence, 1 s tone, 0.5 s silence: 20 buckets of 100 ms.
    const values = [...waveformValues(join(silence(0.5), tone(1, 0.5), silence(0.5)), RATE)];
    expect(values).toHaveLength(20);
    expect(values.slice(0, 5).every((v) => v === 0)).toBe(true);
    expect(values.slice(15).every((v) => v === 0)).toBe(true);
    // The fades sit in the edge buckets; the middle of the tone is steady and loud.
    expect(values.slice(6, 14).every((v) => v > 200)).toBe(true);
    expect(Math.min(...values.slice(5, 15))).toBeGreaterThan(150);
  });

  it('maps RMS in dB linearly from -60 dB (0) to 0 dB (255)', () => {
    // A sine of peak p has an RMS of p/√2: -9.03 dB at 0.5 and -29.03 dB at 0.05, 20 dB apart = 85 units.
    const loud = waveformValues(tone(1, 0.5), RATE)[5] ?? 0;
    const quiet = waveformValues(tone(1, 0.05), RATE)[5] ?? 0;
    expect(loud).toBeCloseTo(((60 - 9.03) / 60) * 255, -0.5);
    expect(loud - quiet).toBeCloseTo(85, -0.5);
    // Below the floor is an empty bar, a full-scale square a full one.
    expect(waveformValues(tone(1, 0.0005), RATE)[5]).toBe(0);
    expect(waveformValues(new Int16Array(4800).fill(-32768), RATE)[0]).toBe(255);
  });

  it('uses fewer, longer buckets for long audio, never more than 256', () => {
    expect(waveformValues(silence(25.6), RATE)).toHaveLength(256);
    const long = waveformValues(join(silence(30), tone(30, 0.5)), RATE);
    expect(long).toHaveLength(MAX_WAVEFORM_BYTES);
    expect(long[100]).toBe(0);
    expect(long[200]).toBeGreaterThan(200);
  });

  it('gives at least one value, also for very short or no audio', () => {
    expect([...waveformValues(new Int16Array(0), RATE)]).toEqual([0]);
    expect(waveformValues(tone(0.03, 0.5), RATE)).toHaveLength(1);
  });

  it('averages interleaved channels', () => {
    const mono = tone(1, 0.5);
    const stereo = new Int16Array(mono.length * 2);
    mono.forEach((s, i) => {
      stereo[2 * i] = s;
      stereo[2 * i + 1] = s;
    });
    expect([...waveformValues(stereo, RATE, 2)]).toEqual([...waveformValues(mono, RATE)]);
  });
});
