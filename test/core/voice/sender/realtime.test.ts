// The sender thread's request for real-time scheduling: its own thread ID, and a refusal answered with Linux's words
// (the granted case is the sender thread's test, where the host grants it).
import { describe, expect, it } from 'vitest';
import { ownThreadId, raiseToRealtime } from '../../../../src/core/voice/sender/realtime.ts';

describe.runIf(process.platform === 'linux')('realtime', () => {
  it("names the calling thread: the main thread's ID is the process's", () => {
    expect(ownThreadId()).toBe(process.pid);
  });

  it('a thread that is not there: not real-time, with why, never a rejection', async () => {
    // Past the kernel's largest thread ID (pid_max is at most 2^22).
    const answer = await raiseToRealtime(2 ** 22 + 1);
    expect(answer.realtime).toBe(false);
    expect(answer.realtime === false && answer.why).toMatch(/\S/);
  });
});
