import { describe, expect, it } from 'vitest';
import { SAME_PRESS_MS, stopSignalPolicy } from '../../src/app/stop-signals.ts';

describe('stop signals', () => {
  it('shuts down at the first signal and forces exit at a second one asked for later', () => {
    const policy = stopSignalPolicy({ isShard: false });
    expect(policy.next(10_000)).toBe('shut-down');
    expect(policy.next(10_000 + SAME_PRESS_MS)).toBe('force-exit');
  });

  it("takes a repeat within milliseconds (the terminal's Ctrl-C and npm's forwarded copy) as the same press", () => {
    const policy = stopSignalPolicy({ isShard: false });
    expect(policy.next(10_000)).toBe('shut-down');
    expect(policy.next(10_005)).toBe('ignore');
    expect(policy.next(10_000 + SAME_PRESS_MS + 1)).toBe('force-exit');
  });

  it('never forces exit in a shard process: its manager stops it, and forces for it', () => {
    const policy = stopSignalPolicy({ isShard: true });
    expect(policy.next(10_000)).toBe('shut-down');
    expect(policy.next(10_000 + 60_000)).toBe('ignore');
  });
});
