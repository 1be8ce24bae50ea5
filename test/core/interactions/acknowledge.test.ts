// Discord's 3 s and 15 minutes are timed from when SayBot received the interaction, on the monotonic clock: a host
// wall clock that jumps (or that was 20 minutes off all along) changes neither.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteReceived, TOKEN_LIFETIME_MS, tokenGone } from '../../../src/core/interactions/acknowledge.ts';
import { acknowledgeByDeadline } from '../../../src/core/interactions/router.ts';
import type { BotCommandInteraction } from '../../../src/core/interactions/command.ts';
import { silentLogger } from '../../../src/core/log.ts';

/** Only what the deadline and the token check read of an interaction; its ID's time is the wall clock's now. */
function interaction(): BotCommandInteraction & { deferReply: ReturnType<typeof vi.fn> } {
  const stub = {
    id: '1',
    commandName: 'usage',
    createdTimestamp: Date.now(),
    deferred: false,
    replied: false,
    deferReply: vi.fn(async () => {
      stub.deferred = true;
    }),
  };
  return stub as unknown as BotCommandInteraction & { deferReply: ReturnType<typeof vi.fn> };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the acknowledgement deadline', () => {
  it('counts from receipt: a command that starts 1 s after the interaction arrived is deferred 0.5 s later', async () => {
    const i = interaction();
    noteReceived(i);
    await vi.advanceTimersByTimeAsync(1_000);
    const cancel = acknowledgeByDeadline(i, true, silentLogger);
    await vi.advanceTimersByTimeAsync(499);
    expect(i.deferReply).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2);
    expect(i.deferReply).toHaveBeenCalledTimes(1);
    cancel();
  });

  it('holds when the wall clock jumps 20 minutes ahead meanwhile', async () => {
    const i = interaction();
    noteReceived(i);
    const cancel = acknowledgeByDeadline(i, true, silentLogger);
    vi.setSystemTime(Date.now() + 20 * 60_000);
    await vi.advanceTimersByTimeAsync(1_499);
    expect(i.deferReply).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2);
    expect(i.deferReply).toHaveBeenCalledTimes(1);
    cancel();
  });
});

describe('whether a token is gone', () => {
  it('is judged from receipt on the monotonic clock, not from the ID against a wall clock 20 minutes ahead', async () => {
    const i = interaction();
    noteReceived(i);
    vi.setSystemTime(Date.now() + 20 * 60_000);
    expect(tokenGone(i)).toBe(false);
    await vi.advanceTimersByTimeAsync(TOKEN_LIFETIME_MS - 1);
    expect(tokenGone(i)).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(tokenGone(i)).toBe(true);
  });

  it("keeps a safety margin before Discord's 15 minutes", () => {
    expect(TOKEN_LIFETIME_MS).toBeLessThan(15 * 60_000);
    expect(TOKEN_LIFETIME_MS).toBeGreaterThanOrEqual(14 * 60_000);
  });
});
