import { describe, expect, it } from 'vitest';
import { RightsRevokedError, type Revocation } from '../../../src/core/order/rights.ts';
import { RightsWatch, type WatchedSpeech } from '../../../src/core/order/rights-watch.ts';

/** A request in voice whose check answers what `answer` says now; records the checks and how it was ended. */
function speech(guildId: string, userId: string, answer: () => Revocation | Error | undefined) {
  const record = { checks: 0, ended: [] as RightsRevokedError[] };
  const watched: WatchedSpeech = {
    guildId,
    userId,
    check: async () => {
      record.checks += 1;
      const now = answer();
      if (now instanceof Error) throw now;
      if (now !== undefined) throw new RightsRevokedError(now);
    },
    end: (error) => record.ended.push(error),
  };
  return { watched, record };
}

/** Lets the checks started by a recheck settle. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('RightsWatch', () => {
  it("asks again only the guild's requests (only the member's when named) and ends those no longer allowed", async () => {
    const watch = new RightsWatch();
    let carolMuted = false;
    const carol = speech('g1', 'carol', () => (carolMuted ? { code: 'muted', channelId: 'v' } : undefined));
    const alice = speech('g1', 'alice', () => undefined);
    const elsewhere = speech('g2', 'carol', () => ({ code: 'muted', channelId: 'w' }));
    for (const { watched } of [carol, alice, elsewhere]) watch.watch(watched);

    watch.recheck('g1', 'carol');
    await settled();
    expect([carol.record.checks, alice.record.checks, elsewhere.record.checks]).toEqual([1, 0, 0]);
    expect(carol.record.ended).toEqual([]);

    carolMuted = true;
    watch.recheck('g1');
    await settled();
    expect([carol.record.checks, alice.record.checks, elsewhere.record.checks]).toEqual([2, 1, 0]);
    expect(carol.record.ended.map((error) => error.revocation)).toEqual([{ code: 'muted', channelId: 'v' }]);
    expect(alice.record.ended).toEqual([]);
    expect(elsewhere.record.ended).toEqual([]);
  });

  it('leaves a request alone once unwatched (its outcome came), and one whose check failed for another reason', async () => {
    const watch = new RightsWatch();
    const gone = speech('g1', 'carol', () => ({ code: 'ignored' }));
    const deletedVoice = speech('g1', 'bob', () => new Error('voice deleted'));
    const unwatch = watch.watch(gone.watched);
    watch.watch(deletedVoice.watched);
    unwatch();
    watch.recheck('g1');
    await settled();
    expect(gone.record.checks).toBe(0);
    expect(deletedVoice.record.checks).toBe(1);
    expect(deletedVoice.record.ended).toEqual([]);
  });

  it('does not end a request unwatched while its check ran', async () => {
    const watch = new RightsWatch();
    const served = speech('g1', 'carol', () => ({ code: 'not-served' }));
    const unwatch = watch.watch(served.watched);
    watch.recheck('g1');
    unwatch();
    await settled();
    expect(served.record.checks).toBe(1);
    expect(served.record.ended).toEqual([]);
  });
});
