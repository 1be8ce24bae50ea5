import { describe, expect, it } from 'vitest';
import { SingleFlight } from '../../../src/core/sourcing/flights.ts';

describe('SingleFlight', () => {
  it('runs identical work once while it is under way, and afresh after', async () => {
    const flights = new SingleFlight<Promise<number>>();
    let started = 0;
    let finish: (n: number) => void = () => undefined;
    const start = () => {
      started++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const joined = Array.from({ length: 10 }, () => flights.join('k', start, (p) => p));
    expect(started).toBe(1);
    expect(joined.filter((j) => j.leader)).toHaveLength(1);
    finish(7);
    expect(await Promise.all(joined.map((j) => j.value))).toEqual(Array(10).fill(7));
    await new Promise((r) => setImmediate(r));
    expect(flights.get('k')).toBeUndefined();
    flights.join('k', start, (p) => p);
    expect(started).toBe(2);
  });
});
