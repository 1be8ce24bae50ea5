import { describe, expect, it } from 'vitest';
import { StereoResampler } from '../../../../src/core/audio/codecs/resample.ts';
import { sine } from '../fixtures.ts';

function resampleAll(
  input: Float32Array,
  rate: number,
  chunkSizes: number[] | undefined,
  right?: Float32Array,
): Float32Array {
  const resampler = new StereoResampler(rate, 48000);
  const parts: Float32Array[] = [];
  let at = 0;
  for (let k = 0; at < input.length; k++) {
    const size = chunkSizes ? chunkSizes[k % chunkSizes.length]! : input.length;
    const n = Math.min(size, input.length - at);
    parts.push(resampler.process(input.subarray(at), right?.subarray(at), n).slice());
    at += n;
  }
  parts.push(resampler.flush().slice());
  const out = new Float32Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

describe('StereoResampler', () => {
  it.each([24000, 22050, 44100, 16000, 48000])(
    'turns N samples at %i Hz into exactly ceil(N * 48000 / rate) frames',
    (rate) => {
      const input = sine(440, 1.2345, rate);
      const out = resampleAll(input, rate, [333, 1, 4096, 7]);
      expect(out.length / 2).toBe(Math.ceil((input.length * 48000) / rate));
    },
  );

  it('gives the same output whatever the chunking: no discontinuity at chunk joins', () => {
    const input = sine(1234, 0.5, 22050);
    const whole = resampleAll(input, 22050, undefined);
    for (const sizes of [[1], [2, 3], [997, 1, 13], [4096]]) {
      expect(resampleAll(input, 22050, sizes)).toEqual(whole);
    }
  });

  // Cubic interpolation error grows with frequency / input rate. Measured: -82 dB (1 kHz from 24 kHz), -40 dB
  // (3 kHz from 22.05 kHz), -111 dB (440 Hz from 44.1 kHz); linear interpolation gives -44, -24 and -69 dB.
  it.each([
    [24000, 1000, -75],
    [22050, 3000, -37],
    [44100, 440, -100],
  ])('from %i Hz keeps a %i Hz sine clean (error below %i dB)', (rate, frequency, limit) => {
    const out = resampleAll(sine(frequency, 0.5, rate, 1, 0.8), rate, [512, 301]);
    let error = 0;
    let signal = 0;
    let sidesDiffer = 0;
    // Skip the first and last few samples (the resampler starts from and ends into silence).
    for (let i = 16; i < out.length / 2 - 16; i++) {
      const ideal = 0.8 * Math.sin((2 * Math.PI * frequency * i) / 48000);
      const got = out[i * 2]!;
      if (out[i * 2 + 1] !== got) sidesDiffer++; // mono goes to both sides
      error += (got - ideal) ** 2;
      signal += ideal ** 2;
    }
    expect(sidesDiffer).toBe(0);
    expect(10 * Math.log10(error / signal)).toBeLessThan(limit);
  });

  it('keeps left and right apart', () => {
    const left = sine(300, 0.2, 24000);
    const right = new Float32Array(left.length);
    const out = resampleAll(left, 24000, [100], right);
    let leftEnergy = 0;
    let rightEnergy = 0;
    for (let i = 0; i < out.length; i += 2) {
      leftEnergy += out[i]! ** 2;
      rightEnergy += out[i + 1]! ** 2;
    }
    expect(rightEnergy).toBe(0);
    expect(leftEnergy).toBeGreaterThan(0);
  });
});
