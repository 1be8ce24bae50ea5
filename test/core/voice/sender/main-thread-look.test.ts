// Since when the main thread may have missed a voice session's end it hears of now: a stretch it was busy (a close
// that came meanwhile waited unread) is never counted as looked at. No timed assertion: only which instant comes first.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MainThreadLook } from '../../../../src/core/voice/sender/main-thread-look.ts';

/** Keeps the main thread busy for `ms`, as a long task would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('MainThreadLook', () => {
  it('what it hears of at the end of a busy stretch is dated before that stretch', async () => {
    const look = new MainThreadLook();
    await nextTurn();
    look.heard();
    await nextTurn();
    const before = performance.now();
    busy(60);
    expect(look.lookedAt()).toBeLessThanOrEqual(before);
  });

  it("after the sender thread's messages were read in a burst that followed a hold-up, still before the hold-up", async () => {
    const look = new MainThreadLook();
    await nextTurn();
    look.heard();
    await nextTurn();
    const before = performance.now();
    busy(60);
    // The messages that waited are read first, then the session's end.
    look.heard();
    look.heard();
    expect(look.lookedAt()).toBeLessThanOrEqual(before);
  });

  it('keeping up (idle between events), it dates what it hears of after the last message', async () => {
    const look = new MainThreadLook();
    await nextTurn();
    look.heard();
    const heardAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(look.lookedAt()).toBeGreaterThan(heardAt);
  });
});
