import { describe, expect, it } from 'vitest';
import { speechServerSpeed, voicevoxScales } from '../../../src/core/engines/engine-controls.ts';

describe("SayBot's controls on the engines' own", () => {
  it("sets VOICEVOX's speedScale, volumeScale (dB as a factor) and pitchScale (semitones on a log-F0)", () => {
    expect(voicevoxScales({ speed: 1.5, volumeDb: -20, pitch: 12 })).toEqual({
      speedScale: 1.5,
      volumeScale: 0.1,
      pitchScale: expect.closeTo(0.171, 3) as number,
    });
    expect(voicevoxScales({ volumeDb: 6 }).volumeScale).toBeCloseTo(1.9953, 3);
    expect(voicevoxScales({ pitch: -12 }).pitchScale).toBeCloseTo(-0.194, 3);
    // A shift of n semitones at a 245 Hz voice (log 5.5): 2^pitchScale times its log-F0 is log(245·2^(n/12)).
    const scale = voicevoxScales({ pitch: 5 }).pitchScale!;
    expect(Math.exp(5.5 * 2 ** scale) / Math.exp(5.5)).toBeCloseTo(2 ** (5 / 12), 2);
  });

  it("leaves a setting at its neutral value out (the query's own stays)", () => {
    expect(voicevoxScales({})).toEqual({});
    expect(voicevoxScales({ speed: 1, pitch: 0, volumeDb: 0 })).toEqual({});
  });

  it("sends the speech server SayBot's speed as it is, 1 when unset", () => {
    expect(speechServerSpeed({ speed: 0.5 })).toBe(0.5);
    expect(speechServerSpeed({})).toBe(1);
  });
});
