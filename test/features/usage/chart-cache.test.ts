import { describe, expect, it } from 'vitest';
import { ChartCache, chartKey } from '../../../src/features/usage/chart-cache.ts';

const png = (label: string) => Buffer.from(label);
const key = (over: Partial<Parameters<typeof chartKey>[0]> = {}) =>
  chartKey({
    guildId: '200000000000000001',
    locale: 'en-US',
    at: new Date('2025-03-17T12:10:00Z'),
    budget: 5000,
    members: ['alice', 'bob'],
    ...over,
  });

describe('the /usage chart cache', () => {
  it('draws a key once: a second ask, and one made while the first is drawn, get the same picture', async () => {
    const cache = new ChartCache(4);
    let draws = 0;
    let finish: (value: Buffer) => void = () => undefined;
    const draw = () => {
      draws += 1;
      return new Promise<Buffer>((resolve) => (finish = resolve));
    };
    const first = cache.get(key(), draw);
    const meanwhile = cache.get(key(), draw);
    finish(png('one'));
    expect((await first).toString()).toBe('one');
    expect((await meanwhile).toString()).toBe('one');
    expect((await cache.get(key(), draw)).toString()).toBe('one');
    expect(draws).toBe(1);
  });

  it('keys per server, language, UTC hour, budget and the members named', () => {
    const base = key();
    expect(key({ at: new Date('2025-03-17T12:59:59Z') })).toBe(base);
    for (const other of [
      key({ guildId: '200000000000000002' }),
      key({ locale: 'ko' }),
      key({ at: new Date('2025-03-17T13:00:00Z') }),
      key({ budget: 6000 }),
      // A member who deleted their data is named otherwise: never a picture with their old name.
      key({ members: ['A former member', 'bob'] }),
    ])
      expect(other).not.toBe(base);
  });

  it('keeps at most its bound, dropping the longest unused first', async () => {
    const cache = new ChartCache(2);
    let draws = 0;
    const draw = (label: string) => () => {
      draws += 1;
      return Promise.resolve(png(label));
    };
    await cache.get('a', draw('a'));
    await cache.get('b', draw('b'));
    await cache.get('a', draw('a')); // a used again: b is now the longest unused
    await cache.get('c', draw('c'));
    expect(cache.size).toBe(2);
    expect(draws).toBe(3);
    await cache.get('a', draw('a'));
    expect(draws).toBe(3);
    await cache.get('b', draw('b'));
    expect(draws).toBe(4);
  });

  it('keeps no failure: a draw that throws or rejects is tried again next time', async () => {
    const cache = new ChartCache(4);
    await expect(
      cache.get('k', () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(cache.get('k', () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(cache.size).toBe(0);
    expect((await cache.get('k', () => Promise.resolve(png('drawn')))).toString()).toBe('drawn');
  });
});
