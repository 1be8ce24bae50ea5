import { describe, expect, it } from 'vitest';
import { sameLengthLongest } from '../../bench/stats.ts';

describe('sameLengthLongest', () => {
  it("is the idle row's longest over runs of as many ticks, not the whole row's", () => {
    // 400 ticks of 20 ms with one 60 ms wait: a 100-tick row is held against 20 ms, the idle host's usual longest.
    const idle = Array.from({ length: 400 }, (_, i) => (i === 250 ? 60 : 20));
    expect(sameLengthLongest(idle, 100)).toBe(20);
    // Runs of 300 ticks (starting every 150) all hold the wait: then it is the longest.
    expect(sameLengthLongest(idle, 300)).toBe(60);
  });

  it("is the whole row's longest when the row has no more ticks than asked", () => {
    expect(sameLengthLongest([20, 35, 21], 3)).toBe(35);
    expect(sameLengthLongest([20, 35, 21], 10)).toBe(35);
  });
});
