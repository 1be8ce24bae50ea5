import { describe, expect, it } from 'vitest';
import { moveTake } from '../../bench/move-take.ts';
import { en } from '../../src/features/speaking/strings/en.ts';

/** The /say's reply as SayBot words it in English. */
const spoke = (seconds: string) =>
  en['say.spoke'].replace('{seconds}', seconds).replace('{channel}', '<#1>').replace('{voice}', 'Ann');

describe('moveTake', () => {
  it('counts the frames heard beyond the line as said twice, and those short of it as lost', () => {
    // 4.74 s is 236.99999999999997 frames in floating point: the line's own length is 0 frames beyond it.
    expect(moveTake(237, 4.74, spoke('4.7')).extraFrames).toBe(0);
    expect(moveTake(249, 4.74, spoke('5.0')).extraFrames).toBe(12);
    expect(moveTake(234, 4.74, spoke('4.7')).extraFrames).toBe(-3);
  });

  it("reads the seconds SayBot's English reply tells, against those heard", () => {
    expect(moveTake(237, 4.74, spoke('4.7')).toldOverHeard).toBeCloseTo(-0.04, 9);
    expect(moveTake(250, 4.74, spoke('5.2')).toldOverHeard).toBeCloseTo(0.2, 9);
    expect(moveTake(100, 4.74, en['say.spokePartWay']).toldOverHeard).toBeNaN();
  });
});
