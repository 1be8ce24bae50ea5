// SayBot's start waits for its helpers within a bound: a helper whose login hangs never holds the main bot (or a
// shard's ready, which the manager waits for) back; it goes on logging in by itself.
import { describe, expect, it } from 'vitest';
import { HelperBots, type HelperBot } from '../../src/app/helper-bots.ts';

describe('HelperBots.start', () => {
  it('logs the helpers in one after another, and waits no longer than its bound for one that hangs', async () => {
    const began: number[] = [];
    let letGo: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (letGo = resolve));
    const bot = (index: number, login: () => Promise<void>) => ({ index, login }) as unknown as HelperBot;
    const bots = new HelperBots([
      bot(1, async () => void began.push(1)),
      bot(2, async () => {
        began.push(2);
        await hanging;
      }),
      bot(3, async () => void began.push(3)),
    ]);
    await bots.start(50);
    // The start is over while helper 2 still logs in; helper 3 waits its turn behind it (never two at once).
    expect(began).toEqual([1, 2]);
    letGo();
    await expect.poll(() => began).toEqual([1, 2, 3]);
  });
});
