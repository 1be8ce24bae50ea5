// Each server's fair share of free work, one class for eSpeak NG's pool and the owner's engines: a job counted until
// its release (an engine's line until its streamed audio ends), and with slots, servers served in turn, long work
// never in the last slot. Asserted by the order of events only.
import { describe, expect, it } from 'vitest';
import { FairShares, type ShareOptions } from '../../../../src/core/audio/workers/fair-shares.ts';

class Busy extends Error {}

const shares = (options: Partial<ShareOptions> = {}) =>
  new FairShares({ perOwner: 2, busy: (words) => new Busy(words), ...options });

/** Takes a slot for each label, in order; `went` lists the labels in the order their slots came. */
function taker(fair: FairShares) {
  const went: string[] = [];
  const releases = new Map<string, () => void>();
  const take = (label: string, owner: string, long = false, signal?: AbortSignal) =>
    fair.take(owner, signal, long).then((release) => {
      went.push(label);
      releases.set(label, release);
    });
  const release = async (label: string) => {
    releases.get(label)!();
    await Promise.resolve();
  };
  return { went, take, release };
}

describe('FairShares', () => {
  it("holds a job against its server's share until its release, however long; another server's still goes", () => {
    const fair = shares();
    const first = fair.hold('a');
    fair.hold('a');
    expect(() => fair.hold('a')).toThrow(new Busy('this server already has 2 lines under way or waiting'));
    const theirs = fair.hold('b');
    first();
    first();
    const again = fair.hold('a');
    expect(() => fair.hold('a')).toThrow(Busy);
    again();
    theirs();
    // No share for work with no owner.
    for (let i = 0; i < 5; i += 1) fair.hold('');
  });

  it("serves servers in turn: with one slot taken and server A flooding, server B's job is the next to go", async () => {
    const fair = shares({ slots: 1, perOwner: 8 });
    const { went, take, release } = taker(fair);
    const flood = ['a1', 'a2', 'a3'].map((label) => take(label, 'a'));
    await Promise.resolve();
    const theirs = take('b1', 'b');
    for (const label of ['a1', 'b1', 'a2', 'a3']) {
      await new Promise((resolve) => setImmediate(resolve));
      await release(label);
    }
    await Promise.all([...flood, theirs]);
    expect(went).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it("never gives long work the last slot: another server's short job goes next", async () => {
    const fair = shares({ slots: 2, perOwner: 8 });
    const { went, take, release } = taker(fair);
    const longs = [take('long1', 'a', true), take('long2', 'a', true)];
    await new Promise((resolve) => setImmediate(resolve));
    const short = take('short', 'b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(went).toEqual(['long1', 'short']);
    await release('long1');
    await Promise.all(longs);
    await short;
    expect(went).toEqual(['long1', 'short', 'long2']);
  });

  it("lets a server's short job go past its own long one that waits for a long slot, a slot being free", async () => {
    const fair = shares({ slots: 2, perOwner: 8 });
    const { went, take, release } = taker(fair);
    const long1 = take('long1', 'a', true);
    const long2 = take('long2', 'a', true);
    const short = take('short', 'a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(went).toEqual(['long1', 'short']);
    await release('long1');
    await Promise.all([long1, long2, short]);
    expect(went).toEqual(['long1', 'short', 'long2']);
  });

  it('refuses past the waiting bound, and lets a waiting job go by its signal, its share freed', async () => {
    const fair = shares({ slots: 1, perOwner: 2, maxWaiting: 1 });
    const { went, take, release } = taker(fair);
    await take('a1', 'a');
    const leaving = new AbortController();
    const waiting = take('a2', 'a', false, leaving.signal);
    await expect(take('b1', 'b')).rejects.toThrow(new Busy('1 lines are already waiting'));
    leaving.abort(new Error('skipped'));
    await expect(waiting).rejects.toThrow('skipped');
    // Its share freed: server A may take two again.
    const next = take('a3', 'a');
    expect(() => fair.hold('a')).toThrow(Busy);
    await release('a1');
    await next;
    expect(went).toEqual(['a1', 'a3']);
  });

  it('refuses every waiting job once cleared', async () => {
    const fair = shares({ slots: 1 });
    const { take } = taker(fair);
    await take('a1', 'a');
    const waiting = take('b1', 'b');
    fair.clear(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
  });
});
