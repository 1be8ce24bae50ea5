// The pitch shift auto-read's distinct voices use: a tone shifted by semitones is heard at the new pitch, as long.
import { describe, expect, it } from 'vitest';
import { dominantPitchHz } from '../../../../src/core/audio/analysis/clip.ts';
import { stretchAndShift } from '../../../../src/core/audio/effects/pitch-shift.ts';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';

const RATE = 24_000;
const tone = (hz: number) =>
  Float32Array.from(toneSamples({ pitchHz: hz, seconds: 1, amplitude: 0.5, sampleRate: RATE }), (s) => s / 32768);

describe('stretchAndShift', () => {
  it.each([
    [3, 220 * 2 ** (3 / 12)],
    [-3, 220 * 2 ** (-3 / 12)],
  ])('shifts a 220 Hz tone by %i semitones, keeping its length', (semitones, expected) => {
    const [out] = stretchAndShift([tone(220)], RATE, 1, semitones);
    expect(out?.length).toBeGreaterThan(RATE * 0.97);
    expect(out?.length).toBeLessThan(RATE * 1.03);
    expect(dominantPitchHz(out?.subarray(2000, RATE - 2000) ?? new Float32Array(), RATE)).toBeCloseTo(expected, -0.5);
  });

  it('shifts and changes the pace together, and refuses more than an octave', () => {
    const [out] = stretchAndShift([tone(220)], RATE, 1.25, 3);
    expect(out?.length).toBeGreaterThan((RATE / 1.25) * 0.97);
    expect(out?.length).toBeLessThan((RATE / 1.25) * 1.03);
    expect(() => stretchAndShift([tone(220)], RATE, 1, 13)).toThrow(RangeError);
  });
});
