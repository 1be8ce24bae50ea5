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

  it("busy but reading the sender thread's messages as they come, it is not taken as held up", async () => {
    const look = new MainThreadLook();
    await nextTurn();
    look.heard();
    // Busy for longer than a packet's period between messages, as a loaded host's main thread is, yet each message is
    // read as soon as it is posted: nothing waited unread.
    let before = 0;
    for (let message = 0; message < 3; message++) {
      await nextTurn();
      busy(30);
      before = performance.now();
      look.heard(before, performance.timeOrigin + before);
    }
    expect(look.lookedAt()).toBeGreaterThanOrEqual(before);
  });

  it('a hold-up seen in the turn after another keeps the earlier start: what it hears of then is dated before both', async () => {
    const look = new MainThreadLook();
    await nextTurn();
    look.heard();
    await nextTurn();
    const before = performance.now();
    busy(60);
    look.heard();
    // The next turn is slow too (a loaded host): a message read there waited, and a session's end sent during the first
    // hold-up may be read only now, after it.
    await nextTurn();
    busy(30);
    const read = performance.now();
    look.heard(read, performance.timeOrigin + read - 25);
    expect(look.lookedAt()).toBeLessThanOrEqual(before);
  });

  it('once a message posted after a hold-up was read, the loop went round: that hold-up dates nothing after', async () => {
    const look = new MainThreadLook();
    await nextTurn();
    look.heard();
    await nextTurn();
    busy(60);
    look.heard();
    // Two turns on: a session's end sent during the hold-up was read by the turn after it.
    await nextTurn();
    await nextTurn();
    const posted = performance.now();
    look.heard(posted, performance.timeOrigin + posted);
    expect(look.lookedAt()).toBeGreaterThanOrEqual(posted);
  });

  it('keeping up (idle between events), it dates what it hears of after the last message', async () => {
    // Idle between the events is this case's premise: on a host that starves this thread (one core's worth, every
    // worker busy) its loop counts as busy while it waits for the CPU, and such a try is the held-up case, not this.
    for (let tries = 0; tries < 20; tries++) {
      const look = new MainThreadLook();
      await nextTurn();
      look.heard();
      const heardAt = performance.now();
      const loop = performance.eventLoopUtilization();
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (performance.eventLoopUtilization(loop).active > 20) continue;
      expect(look.lookedAt()).toBeGreaterThan(heardAt);
      return;
    }
    expect.fail('the loop was never idle for 50 ms in 20 tries');
  });
});
