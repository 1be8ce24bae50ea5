// A part an order counted free shares the fate of THE flight it was counted free by, never of a later flight of the
// same line; and what an order's charge reserves is a part (its voice and text), not a text: the same words in
// another voice are another part. PartSource with the real client against the sandbox and real accounting.
import { describe, expect, it, vi } from 'vitest';
import { useSpeechRig } from '../../support/speech-rig.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';
import type { QuoteAllowance } from '../../../src/core/quota/ledger.ts';
import { AbortedError, ConnectionError } from '../../../src/core/api/errors.ts';

const who = { guildId: 'G', userId: 'U', command: 'say' };
const X = 'The very same line asked by two members at once.';
const request = (voice = 'voice-b-en-f-01'): SpeechRequest => ({ kind: 'tts', text: X, voice, format: 'wav' });
/** A wait for an event: a bound for a slow, busy host, never a figure. */
const EVENT = { timeout: 20_000, interval: 20 };
/** A quote with nothing left: a part paid late is refused. */
const spentQuote: QuoteAllowance = {
  take: () => {
    throw new Error('paid late, past the quote');
  },
};

describe('a part counted free as in flight, the cache off', () => {
  const rig = useSpeechRig();
  const tts = () => rig.sandbox.requests.filter((r) => r.endpoint === 'tts');

  it("gets the audio of the flight it was counted free by, not a later flight's failure", async () => {
    rig.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const signal = new AbortController().signal;
    const a = await rig.accounting.authorize(who, await rig.source.needs(request(), [X]));
    const first = rig.source.fetchPart(request(), X, signal, { charge: a });
    await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('waiting'), EVENT);
    // B's order counts X free by the first flight, and waits for it until it ends.
    const bEnds = new AbortController();
    const bNeeds = await rig.source.needs(request(), [X], bEnds.signal);
    expect(bNeeds.map((n) => n.free)).toEqual([true]);
    const b = await rig.accounting.authorize({ ...who, userId: 'B' }, bNeeds);
    rig.sandbox.resumePaused();
    const heard = await first;
    if (!('audio' in heard)) throw heard.failure;
    await heard.audio.body.toArray();
    await vi.waitFor(async () => expect((await rig.source.needs(request(), [X]))[0]?.free).toBe(false), EVENT);
    // The first flight is over (nothing cached); D's identical order pays a second flight, charged then cut.
    rig.sandbox.injectFault({ kind: 'pause-after', bytes: 0, then: 'reset', endpoint: 'tts' });
    const d = await rig.accounting.authorize({ ...who, userId: 'D' }, await rig.source.needs(request(), [X]));
    const second = rig.source.fetchPart(request(), X, signal, { charge: d });
    await vi.waitFor(() => expect(tts()[1]?.outcome).toBe('paused'), EVENT);
    // C's order counts X free by the second flight: kept for C, never in place of B's.
    const cEnds = new AbortController();
    const c = await rig.accounting.authorize(
      { ...who, userId: 'C' },
      await rig.source.needs(request(), [X], cEnds.signal),
    );
    const mine = rig.source.fetchPart(request(), X, signal, { charge: b, waits: bEnds.signal });
    rig.sandbox.resumePaused();
    const part = await mine;
    expect('failure' in part ? part.failure : undefined).toBeUndefined();
    if ('audio' in part) expect(Buffer.concat(await part.audio.body.toArray()).length).toBeGreaterThan(0);
    const cut = await second;
    const cutBody =
      'audio' in cut
        ? cut.audio.body.toArray().then(
            () => undefined,
            (e: unknown) => e,
          )
        : cut.failure;
    // C shares the second flight's fate: its failure, never sent again.
    const theirs = await rig.source.fetchPart(request(), X, signal, { charge: c, waits: cEnds.signal });
    const theirBody =
      'audio' in theirs
        ? theirs.audio.body.toArray().then(
            () => undefined,
            (e: unknown) => e,
          )
        : theirs.failure;
    expect(await cutBody).toBeDefined();
    expect(await theirBody).toBeDefined();
    bEnds.abort();
    cEnds.abort();
    c.close();
    a.close();
    b.close();
    d.close();
    expect(tts()).toHaveLength(2);
  });

  it('the order that led it stopped, the call then failing after its charge: the leader ends stopped, the other shares the failure', async () => {
    rig.sandbox.injectFault({ kind: 'hold-after-charge', then: 'reset', endpoint: 'tts' });
    const aStops = new AbortController();
    const a = await rig.accounting.authorize(who, await rig.source.needs(request(), [X]));
    const first = rig.source.fetchPart(request(), X, aStops.signal, { charge: a, ended: aStops.signal });
    await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('held'), EVENT);
    const bEnds = new AbortController();
    const b = await rig.accounting.authorize(
      { ...who, userId: 'B' },
      await rig.source.needs(request(), [X], bEnds.signal),
    );
    const theirs = rig.source.fetchPart(request(), X, new AbortController().signal, { charge: b, waits: bEnds.signal });
    aStops.abort();
    rig.sandbox.resumePaused();
    const stopped = await first;
    const failed = await theirs;
    // Told as what ended it (the pipeline words the stop), never as the call's failure, which is the other order's.
    expect('failure' in stopped ? stopped.failure : undefined).toBeInstanceOf(AbortedError);
    expect('failure' in failed ? failed.failure : undefined).toBeInstanceOf(ConnectionError);
    bEnds.abort();
    a.close();
    b.close();
    await rig.source.close();
    expect(tts()).toHaveLength(1);
    expect(rig.sandbox.charactersBilled()).toBe(X.length);
    // Kept as spent: the service may have charged it (it did).
    const month = new Date().toISOString().slice(0, 7);
    expect((await rig.store.spends.monthTotals(month, 'G')).spent).toBe(X.length);
  });
});

describe('the same words in two voices are two parts', () => {
  const rig = useSpeechRig({ cacheDirPrefix: 'saybot-kept-flight-' });

  it('one cached in one voice, the other paid at acceptance: each is served as counted, nothing paid late', async () => {
    const signal = new AbortController().signal;
    const a = await rig.accounting.authorize(who, await rig.source.needs(request(), [X]));
    const made = await rig.source.fetchPart(request(), X, signal, { charge: a });
    if (!('audio' in made)) throw made.failure;
    await made.audio.body.toArray();
    a.close();
    await vi.waitFor(async () => expect((await rig.source.needs(request(), [X]))[0]?.free).toBe(true), EVENT);
    // A scene: Ann says X in the first voice (cached: free), Ben says X in another (paid at acceptance).
    const other = request('voice-b-en-m-01');
    const needs = [...(await rig.source.needs(request(), [X])), ...(await rig.source.needs(other, [X]))];
    expect(needs.map((n) => n.free)).toEqual([true, false]);
    const charge = await rig.accounting.authorize({ ...who, userId: 'B' }, needs);
    const order = { charge, late: spentQuote };
    const ann = await rig.source.fetchPart(request(), X, signal, order);
    if (!('audio' in ann)) throw ann.failure;
    await ann.audio.body.toArray();
    const ben = await rig.source.fetchPart(other, X, signal, order);
    expect('failure' in ben ? ben.failure : undefined).toBeUndefined();
    if ('audio' in ben) await ben.audio.body.toArray();
    charge.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts').map((r) => r.voice)).toEqual([
      'voice-b-en-f-01',
      'voice-b-en-m-01',
    ]);
  });
});
