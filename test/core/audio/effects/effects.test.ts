// Speed and volume on real signals: a tone keeps its pitch at every speed and lasts 1/speed as long; speech-like
// audio (a tone whose pitch glides, with syllable-like bursts) keeps its length too; gain never clips.
import { describe, expect, it } from 'vitest';
import { dominantPitchHz, rmsDbfs } from '../../../../src/core/audio/analysis/analysis.ts';
import { applyGain, LIMIT, MAX_VOLUME_DB, MIN_VOLUME_DB } from '../../../../src/core/audio/effects/gain.ts';
import { MAX_SPEED, MIN_SPEED, timeStretch } from '../../../../src/core/audio/effects/time-stretch.ts';

const RATE = 24_000;

function tone(hz: number, seconds: number, amplitude = 0.8, rate = RATE): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
}

/** A voice-like signal: a 140 Hz pulse-rich tone (harmonics) in bursts of 200 ms, 50 ms of silence between. */
function syllables(seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    const inSyllable = t % 0.25 < 0.2;
    const phase = 2 * Math.PI * 140 * t;
    out[i] = inSyllable ? 0.5 * Math.sin(phase) + 0.25 * Math.sin(2 * phase) + 0.12 * Math.sin(3 * phase) : 0;
  }
  return out;
}

const peak = (x: Float32Array) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe('timeStretch (WSOLA)', () => {
  for (const speed of [MIN_SPEED, 0.75, 1.25, 1.5, MAX_SPEED]) {
    for (const hz of [110, 220, 440]) {
      it(`speed ${speed}: a ${hz} Hz tone lasts 1/${speed} as long at the same pitch`, () => {
        const input = tone(hz, 2);
        const [out] = timeStretch([input], RATE, speed) as [Float32Array];
        expect(Math.abs(out.length / input.length - 1 / speed)).toBeLessThan(0.01);
        const pitch = dominantPitchHz(out, RATE);
        expect(pitch).toBeDefined();
        expect(Math.abs((pitch ?? 0) - hz) / hz).toBeLessThan(0.01);
        // Periods lined up: the level stays the tone's (a badly aligned overlap-add cancels itself out).
        expect(Math.abs(rmsDbfs(out.subarray(RATE / 10, -RATE / 10)) - rmsDbfs(input))).toBeLessThan(0.5);
      });
    }
  }

  it('keeps the pitch and the length of speech-like bursts, and the silences stay silent', () => {
    const input = syllables(3);
    for (const speed of [0.5, 1.5, 2]) {
      const [out] = timeStretch([input], RATE, speed) as [Float32Array];
      expect(Math.abs(out.length / input.length - 1 / speed)).toBeLessThan(0.01);
      expect(Math.abs((dominantPitchHz(out, RATE) ?? 0) - 140)).toBeLessThan(2);
      // Energy per second is that of the input: nothing dropped or doubled.
      expect(Math.abs(rmsDbfs(out) - rmsDbfs(input))).toBeLessThan(1);
      expect(peak(out)).toBeLessThanOrEqual(peak(input) + 1e-6);
    }
  });

  it('stretches both channels of a stereo clip alike', () => {
    const left = tone(200, 1);
    const right = tone(300, 1, 0.4);
    const [l, r] = timeStretch([left, right], RATE, 1.5) as [Float32Array, Float32Array];
    expect(l.length).toBe(r.length);
    expect(Math.abs((dominantPitchHz(l, RATE) ?? 0) - 200)).toBeLessThan(2);
    expect(Math.abs((dominantPitchHz(r, RATE) ?? 0) - 300)).toBeLessThan(3);
  });

  it('refuses a speed outside the range', () => {
    expect(() => timeStretch([tone(200, 0.1)], RATE, 2.5)).toThrow(RangeError);
    expect(() => timeStretch([tone(200, 0.1)], RATE, 0.25)).toThrow(RangeError);
  });
});

describe('applyGain', () => {
  it('+6 dB on audio that already peaks near full scale never passes the limit, and is louder', () => {
    const input = syllables(1);
    input.forEach((v, i) => (input[i] = v * 1.1)); // peaks about 0.95
    const out = applyGain([Float32Array.from(input)], RATE, MAX_VOLUME_DB)[0] as Float32Array;
    expect(peak(out)).toBeLessThanOrEqual(LIMIT);
    expect(rmsDbfs(out)).toBeGreaterThan(rmsDbfs(input) + 1);
  });

  it('a full-scale square wave at +6 dB stays under the limit at every sample', () => {
    const square = new Float32Array(RATE).map((_, i) => (Math.floor(i / 60) % 2 === 0 ? 1 : -1));
    const out = applyGain([square], RATE, MAX_VOLUME_DB)[0] as Float32Array;
    expect(peak(out)).toBeLessThanOrEqual(LIMIT);
  });

  it('quiet audio gets exactly the gain asked (no limiting where none is needed)', () => {
    const input = tone(220, 0.5, 0.2);
    const louder = applyGain([Float32Array.from(input)], RATE, 6)[0] as Float32Array;
    const quieter = applyGain([Float32Array.from(input)], RATE, MIN_VOLUME_DB)[0] as Float32Array;
    expect(rmsDbfs(louder) - rmsDbfs(input)).toBeCloseTo(6, 2);
    expect(rmsDbfs(quieter) - rmsDbfs(input)).toBeCloseTo(MIN_VOLUME_DB, 2);
  });

  it('refuses a gain outside the range', () => {
    expect(() => applyGain([tone(200, 0.1)], RATE, 7)).toThrow(RangeError);
    expect(() => applyGain([tone(200, 0.1)], RATE, -21)).toThrow(RangeError);
  });
});
