// Speed and volume in the steps a listener hears: near values fold to one (one render, one cache entry).
import { describe, expect, it } from 'vitest';
import {
  changesAudio,
  quantiseEffects,
  quantiseSpeed,
  quantiseVolumeDb,
} from '../../../../src/core/audio/effects/audible-steps.ts';

describe('audible steps', () => {
  it('folds speed to 0.05 and volume to 0.5 dB, as short decimals, within their ranges', () => {
    expect([1.234, 1.1, 0.5, 2, 1.024, 1.026].map(quantiseSpeed)).toEqual([1.25, 1.1, 0.5, 2, 1, 1.05]);
    expect([-1.001, -1.03, -1.26, 5.9, -19.99].map(quantiseVolumeDb)).toEqual([-1, -1, -1.5, 6, -20]);
    expect(Object.is(quantiseVolumeDb(-0.2), 0)).toBe(true);
    expect(quantiseEffects({ speed: 0.999, volumeDb: 0.1 })).toEqual({ speed: 1, volumeDb: 0 });
  });

  it('keeps a pitch shift in whole semitones within an octave, and none at all when it rounds to 0', () => {
    expect(quantiseEffects({ speed: 1, volumeDb: 0, pitch: 2.6 })).toEqual({ speed: 1, volumeDb: 0, pitch: 3 });
    expect(quantiseEffects({ speed: 1, volumeDb: 0, pitch: -20 })).toEqual({ speed: 1, volumeDb: 0, pitch: -12 });
    expect(quantiseEffects({ speed: 1, volumeDb: 0, pitch: 0.3 })).toEqual({ speed: 1, volumeDb: 0 });
  });

  it('counts only effects off the zero step of speed, volume or pitch as changing the audio', () => {
    expect(changesAudio(undefined)).toBe(false);
    expect(changesAudio({ speed: 1, volumeDb: 0 })).toBe(false);
    expect(changesAudio({ speed: 1, volumeDb: 0, pitch: 0 })).toBe(false);
    expect(changesAudio({ speed: 1.05, volumeDb: 0 })).toBe(true);
    expect(changesAudio({ speed: 1, volumeDb: -0.5 })).toBe(true);
    expect(changesAudio({ speed: 1, volumeDb: 0, pitch: -1 })).toBe(true);
  });
});
