// PartSource with the real client against the sandbox, and real accounting on an in-memory store.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { LEGACY_SETTINGS } from '../../../fixtures/legacy-encoding.ts';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { Accounting } from '../../../src/core/quota/accounting.ts';
import { MONEY_RULES } from '../../../src/core/quota/money.ts';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { PartSource, orderedPart } from '../../../src/core/sourcing/part-source.ts';
import { partCacheKey, serviceBody } from '../../../src/core/sourcing/part-request.ts';
import type { SpeechRequest } from '../../../src/core/order/pipeline.ts';
import { useSpeechRig } from '../../support/speech-rig.ts';
import { HOLD_DEADLINE, heldWriteAhead } from '../../support/held-write-ahead.ts';
import { Engines } from '../../../src/core/engines/engines.ts';
import { FakeEngine, voicevoxHandler } from '../engines/fake-engine.ts';
import type { ServiceRequest } from '../../../src/core/settings/speech-request.ts';

const who = { guildId: 'G', userId: 'U', command: 'say' };
const request = (text: string): SpeechRequest => ({ kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' });
const month = () => new Date().toISOString().slice(0, 7);

const rig = useSpeechRig();

describe('PartSource', () => {
  it('sends identical parts wanted at once once: the first records the spend, the others a saving', async () => {
    rig.sandbox.setPacing({ startDelayMs: 200 });
    const text = 'Once for all of us.';
    const charges = await Promise.all(
      [1, 2, 3].map(async () => rig.accounting.authorize(who, await rig.source.needs(request(text), [text]))),
    );
    const signal = new AbortController().signal;
    const parts = await Promise.all(
      charges.map((charge) => orderedPart(rig.source, request(text), text, signal, { charge })),
    );
    const bodies = await Promise.all(parts.map(async (p) => Buffer.concat(await p.body.toArray())));
    for (const body of bodies)
      expect((await analyseClip(body)).durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    await rig.source.close();
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 2 * text.length });
    for (const charge of charges) charge.close();
  });

  it('counts a part already in flight as free', async () => {
    rig.sandbox.setPacing({ startDelayMs: 300 });
    const text = 'In flight already.';
    expect((await rig.source.needs(request(text), [text]))[0]?.free).toBe(false);
    const pending = orderedPart(rig.source, request(text), text, new AbortController().signal);
    expect((await rig.source.needs(request(text), [text]))[0]?.free).toBe(true);
    (await pending).body.destroy();
  });

  it('a part counted free at acceptance (in flight) that must be fetched again passes the budget first', async () => {
    const text = 'Counted free, then paid.';
    const budgeted = new Accounting({
      store: rig.store,
      rules: MONEY_RULES,
      budgets: { guildMonthlyChars: text.length + 5, memberDailyChars: 0, memberCooldownSeconds: 0 },
      planCharacterLimit: 300_000,
      logger: silentLogger,
    });
    const parts = new PartSource({ client: rig.client, logger: silentLogger, accounting: budgeted });
    rig.sandbox.setPacing({ startDelayMs: 200 });
    const first = await budgeted.authorize(who, await parts.needs(request(text), [text]));
    const fetching = orderedPart(parts, request(text), text, new AbortController().signal, { charge: first });
    // Accepted while the first is in flight: free, so nothing is held for it.
    const second = await budgeted.authorize({ ...who, userId: 'V' }, await parts.needs(request(text), [text]));
    expect(second.reserved).toBe(0);
    await (await fetching).body.toArray();
    first.close();
    await parts.close(); // the flight is over (no cache): the second must fetch the part itself
    const again = new PartSource({ client: rig.client, logger: silentLogger, accounting: budgeted });
    const error = await orderedPart(again, request(text), text, new AbortController().signal, { charge: second }).then(
      () => undefined,
      (e: unknown) => e,
    );
    second.close();
    await again.close();
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).reason.code).toBe('budget-guild-month');
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect((await rig.store.spends.monthTotals(month(), 'G')).spent).toBe(text.length);
  });

  it('a part another order joined whose body breaks: paid once by the first, saved by nobody (nothing was delivered)', async () => {
    rig.sandbox.injectFault({ kind: 'pause-after', bytes: 2000, then: 'reset', endpoint: 'tts' });
    const text = 'Shared by two orders, and its body breaks.';
    const signal = new AbortController().signal;
    const first = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
    const leading = await orderedPart(rig.source, request(text), text, signal, { charge: first });
    const second = await rig.accounting.authorize(
      { ...who, userId: 'V' },
      await rig.source.needs(request(text), [text]),
    );
    const joining = await orderedPart(rig.source, request(text), text, signal, { charge: second });
    rig.sandbox.resumePaused();
    await expect(leading.body.toArray()).rejects.toThrow();
    await expect(joining.body.toArray()).rejects.toThrow();
    first.close();
    second.close();
    await rig.source.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
    expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 0 });
  });

  describe('a part let go of before its request left', () => {
    /** A part source whose books hold each paid request's write-ahead (its request not sent) until let go. */
    function heldBooks() {
      const reached = Promise.withResolvers<void>();
      const gate = Promise.withResolvers<void>();
      let tookBack = false;
      const spends = new Proxy(rig.store.spends, {
        get(target, key) {
          if (key === 'record')
            return async (spend: Parameters<typeof target.record>[0]) => {
              reached.resolve();
              await gate.promise;
              return target.record(spend);
            };
          if (key === 'erase')
            return async (...args: Parameters<typeof target.erase>) => {
              const taken = await target.erase(...args);
              tookBack ||= taken;
              return taken;
            };
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const store = new Proxy(rig.store, {
        get: (target, key) => (key === 'spends' ? spends : (Reflect.get(target, key, target) as unknown)),
      });
      const accounting = new Accounting({
        store,
        rules: MONEY_RULES,
        budgets: { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 },
        planCharacterLimit: 300_000,
        logger: silentLogger,
      });
      const source = new PartSource({ client: rig.client, logger: silentLogger, accounting });
      return {
        accounting,
        source,
        reached: reached.promise,
        letGo: () => gate.resolve(),
        tookBack: () => tookBack,
      };
    }

    it('by everyone who asked for it is never sent nor paid: what was written down is taken back', async () => {
      const books = heldBooks();
      const text = 'Let go of while it was written down.';
      const charge = await books.accounting.authorize(who, await books.source.needs(request(text), [text]));
      const caller = new AbortController();
      const fetching = orderedPart(books.source, request(text), text, caller.signal, { charge });
      await books.reached;
      caller.abort();
      books.letGo();
      await expect(fetching).rejects.toThrow(/cancelled/);
      // Either the books take back what they wrote down, or the request reaches the service.
      await vi.waitFor(() => expect(books.tookBack() || rig.sandbox.requests.length > 0).toBe(true), {
        timeout: 20_000,
      });
      charge.close();
      await books.source.close();
      expect(rig.sandbox.requests).toHaveLength(0);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: 0, saved: 0 });
    });

    it('by the order that asked first, while another still waits for it: sent once, paid once, heard by the other', async () => {
      const books = heldBooks();
      const text = 'Another order still waits for this.';
      const first = await books.accounting.authorize(who, await books.source.needs(request(text), [text]));
      const firstCaller = new AbortController();
      const firstFetch = orderedPart(books.source, request(text), text, firstCaller.signal, { charge: first });
      await books.reached;
      // In flight: free to the second order, which joins the same request.
      const second = await books.accounting.authorize(
        { ...who, userId: 'V' },
        await books.source.needs(request(text), [text]),
      );
      expect(second.reserved).toBe(0);
      const secondFetch = orderedPart(books.source, request(text), text, new AbortController().signal, {
        charge: second,
      });
      firstCaller.abort();
      books.letGo();
      await expect(firstFetch).rejects.toThrow(/cancelled/);
      const heard = Buffer.concat(await (await secondFetch).body.toArray());
      expect((await analyseClip(heard)).durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
      first.close();
      second.close();
      await books.source.close();
      expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
      // Paid once, by the order still waiting: the first let go of it before it left, so it pays nothing for it.
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 0 });
    });
  });

  describe('a part let go of once its request has left', () => {
    const tts = () => rig.sandbox.requests.filter((r) => r.endpoint === 'tts');
    /** Long enough for a loaded host: each wait ends at an event (the sandbox's record changing), not a time. */
    const EVENT = { timeout: 20_000, interval: 20 };

    /** A paid part whose request waits at the service, neither accepted nor billed (hold-before-charge). */
    async function heldAtService(source: PartSource, text: string, callers = 1) {
      rig.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
      const orders = await Promise.all(
        Array.from({ length: callers }, async (_, i) => {
          const charge = await rig.accounting.authorize(
            { ...who, userId: `U${i}` },
            await source.needs(request(text), [text]),
          );
          const caller = new AbortController();
          const fetching = orderedPart(source, request(text), text, caller.signal, { charge });
          return { charge, caller, fetching };
        }),
      );
      await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('waiting'), EVENT);
      return orders;
    }

    it('by everyone while it waits at the service uncharged: closed, billed nothing, kept on the books as it may have been charged, never sent again', async () => {
      const text = 'Held at the service when the stop came.';
      const [order] = await heldAtService(rig.source, text);
      if (!order) throw new Error('one order');
      order.caller.abort();
      await expect(order.fetching).rejects.toThrow(/cancelled/);
      // The connection is closed while the request waits, before the service charged anything.
      await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('client-aborted'), EVENT);
      rig.sandbox.resumePaused();
      order.charge.close();
      await rig.source.close();
      expect(rig.sandbox.charactersBilled()).toBe(0);
      expect(tts()).toHaveLength(1);
      // Closed before any answer: the service could have charged it an instant before, so what was written ahead
      // stays spent (the books over by at most this request, never under).
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 0 });
    });

    it('by one order while another that joined it still waits: not closed, billed once, heard by the other', async () => {
      const text = 'Two orders wait for this one.';
      const [first, second] = await heldAtService(rig.source, text, 2);
      if (!first || !second) throw new Error('two orders');
      first.caller.abort();
      await expect(first.fetching).rejects.toThrow(/cancelled/);
      rig.sandbox.resumePaused();
      const heard = Buffer.concat(await (await second.fetching).body.toArray());
      expect((await analyseClip(heard)).durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
      first.charge.close();
      second.charge.close();
      await rig.source.close();
      expect(tts()).toHaveLength(1);
      expect(rig.sandbox.charactersBilled()).toBe(text.length);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: text.length });
    });

    it('by the order that asked, while an order that counted it free (in flight) is not over: not closed, billed once, heard by that order', async () => {
      const text = 'Counted free by an order still queued.';
      const [first] = await heldAtService(rig.source, text);
      if (!first) throw new Error('one order');
      const queued = new AbortController();
      expect((await rig.source.needs(request(text), [text], queued.signal))[0]?.free).toBe(true);
      const second = await rig.accounting.authorize({ ...who, userId: 'V' }, []);
      first.caller.abort();
      await expect(first.fetching).rejects.toThrow(/cancelled/);
      // Its turn comes: the queued order asks for the part it was counted free by, still the same call.
      const fetching = orderedPart(rig.source, request(text), text, new AbortController().signal, { charge: second });
      rig.sandbox.resumePaused();
      const heard = Buffer.concat(await (await fetching).body.toArray());
      expect((await analyseClip(heard)).durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
      queued.abort();
      first.charge.close();
      second.close();
      await rig.source.close();
      expect(tts()).toHaveLength(1);
      expect(rig.sandbox.charactersBilled()).toBe(text.length);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: text.length });
    });

    it('by the order that asked, and the order that counted it free ended too: closed at the last, billed nothing', async () => {
      const text = 'Counted free by an order that ended.';
      const [first] = await heldAtService(rig.source, text);
      if (!first) throw new Error('one order');
      const queued = new AbortController();
      expect((await rig.source.needs(request(text), [text], queued.signal))[0]?.free).toBe(true);
      first.caller.abort();
      queued.abort();
      await expect(first.fetching).rejects.toThrow(/cancelled/);
      await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('client-aborted'), EVENT);
      rig.sandbox.resumePaused();
      first.charge.close();
      await rig.source.close();
      expect(tts()).toHaveLength(1);
      expect(rig.sandbox.charactersBilled()).toBe(0);
    });

    it('by both orders that wait for it, one after the other: closed at the last, billed nothing', async () => {
      const text = 'Both orders let go of this one.';
      const [first, second] = await heldAtService(rig.source, text, 2);
      if (!first || !second) throw new Error('two orders');
      first.caller.abort();
      second.caller.abort();
      await expect(first.fetching).rejects.toThrow(/cancelled/);
      await expect(second.fetching).rejects.toThrow(/cancelled/);
      await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('client-aborted'), EVENT);
      rig.sandbox.resumePaused();
      first.charge.close();
      second.charge.close();
      await rig.source.close();
      expect(tts()).toHaveLength(1);
      expect(rig.sandbox.charactersBilled()).toBe(0);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 0 });
    });

    it('charged at the service, its answer held back: closed, and the books keep exactly what was billed', async () => {
      rig.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
      const text = 'Charged an instant before the stop came.';
      const charge = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
      const caller = new AbortController();
      const fetching = orderedPart(rig.source, request(text), text, caller.signal, { charge });
      await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('held'), EVENT);
      caller.abort();
      await expect(fetching).rejects.toThrow(/cancelled/);
      await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('client-aborted'), EVENT);
      charge.close();
      await rig.source.close();
      expect(rig.sandbox.charactersBilled()).toBe(text.length);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 0 });
    });

    it('once its answer began (the service charged it): read whole, on the books as billed, and cached', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'saybot-let-go-answered-'));
      try {
        const cache = await AudioCache.open({ dir, maxBytes: 50_000_000, logger: silentLogger });
        const parts = new PartSource({ client: rig.client, logger: silentLogger, accounting: rig.accounting, cache });
        // Its 2xx status and headers sent, and nothing of its body yet: the part is still on its way to its caller.
        rig.sandbox.injectFault({ kind: 'pause-after', bytes: 0, endpoint: 'tts' });
        const text = 'Its answer had begun when the stop came.';
        const charge = await rig.accounting.authorize(who, await parts.needs(request(text), [text]));
        const caller = new AbortController();
        const fetching = orderedPart(parts, request(text), text, caller.signal, { charge });
        await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('paused'), EVENT);
        // The client has read its 2xx: the service's acceptance is what it last saw for this request.
        await vi.waitFor(() => expect(rig.client.keyState.lastOk?.requestId).toBe(tts()[0]?.id), EVENT);
        caller.abort();
        await expect(fetching).rejects.toThrow(/cancelled/);
        rig.sandbox.resumePaused();
        await vi.waitFor(() => expect(tts()[0]?.outcome).toBe('complete'), EVENT);
        charge.close();
        const again = await rig.accounting.authorize(who, await parts.needs(request(text), [text]));
        const replay = await orderedPart(parts, request(text), text, new AbortController().signal, { charge: again });
        const heard = Buffer.concat(await replay.body.toArray());
        expect((await analyseClip(heard)).durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
        again.close();
        await parts.close();
        expect(tts()).toHaveLength(1);
        expect(rig.sandbox.charactersBilled()).toBe(text.length);
        expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: text.length });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("a part counted free as in flight, its order's turn after that flight is over: it shares that flight's fate", () => {
    const tts = () => rig.sandbox.requests.filter((r) => r.endpoint === 'tts');
    const EVENT = { timeout: 20_000, interval: 20 };
    const over = (text: string) =>
      vi.waitFor(async () => expect((await rig.source.needs(request(text), [text]))[0]?.free).toBe(false), EVENT);

    /** The first order's paid part asked, and `queued` orders counting it free while it is in flight. */
    async function countedFree(text: string, queued = 1) {
      const first = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
      const fetching = orderedPart(rig.source, request(text), text, new AbortController().signal, { charge: first });
      const orders = await Promise.all(
        Array.from({ length: queued }, async (_, i) => {
          const end = new AbortController();
          const needs = await rig.source.needs(request(text), [text], end.signal);
          expect(needs[0]?.free).toBe(true);
          const charge = await rig.accounting.authorize({ ...who, userId: `V${i}` }, needs);
          return { end, charge, account: { charge, ended: end.signal, waits: end.signal } };
        }),
      );
      return { first, fetching, orders };
    }

    it('its audio with the cache off: heard, sent once, paid once, saved once', async () => {
      const text = 'Counted free, its turn after the flight.';
      const { first, fetching, orders } = await countedFree(text);
      const [queued] = orders;
      if (!queued) throw new Error('one order');
      await (await fetching).body.toArray();
      await over(text);
      const part = await orderedPart(rig.source, request(text), text, new AbortController().signal, queued.account);
      const heard = Buffer.concat(await part.body.toArray());
      expect((await analyseClip(heard)).durationSeconds).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
      queued.end.abort();
      first.close();
      queued.charge.close();
      await rig.source.close();
      expect(tts()).toHaveLength(1);
      expect(rig.sandbox.charactersBilled()).toBe(text.length);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: text.length });
    });

    it('its failure when the flight failed after its charge: the same failure, never sent again nor paid twice', async () => {
      rig.sandbox.injectFault({ kind: 'reset-after-charge', endpoint: 'tts', times: 1 });
      const text = 'Counted free, and its flight failed.';
      const { first, fetching, orders } = await countedFree(text);
      const [queued] = orders;
      if (!queued) throw new Error('one order');
      const failure = await fetching.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).toBeDefined();
      await over(text);
      const shared = orderedPart(rig.source, request(text), text, new AbortController().signal, queued.account);
      const error = await shared.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBe(failure);
      queued.end.abort();
      first.close();
      queued.charge.close();
      await rig.source.close();
      expect(tts()).toHaveLength(1);
      expect(rig.sandbox.charactersBilled()).toBe(text.length);
      expect(await rig.store.spends.monthTotals(month(), 'G')).toEqual({ spent: text.length, saved: 0 });
    });

    it('kept only while an order that counted it waits: let go of the instant the last one ends', async () => {
      const text = 'Counted free by two orders that end first.';
      const { first, fetching, orders } = await countedFree(text, 2);
      const [one, two] = orders;
      if (!one || !two) throw new Error('two orders');
      await (await fetching).body.toArray();
      await over(text);
      const heard = async () => {
        const part = await orderedPart(rig.source, request(text), text, new AbortController().signal, two.account);
        return (await analyseClip(Buffer.concat(await part.body.toArray()))).durationSeconds;
      };
      one.end.abort();
      // Another order still waits for it: that call's audio is kept for it, nothing asked again.
      expect(await heard()).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
      expect(tts()).toHaveLength(1);
      two.end.abort();
      // Nobody that counted it waits: nothing holds that call any more, and the part (the cache off) is a new call.
      expect(await heard()).toBeCloseTo(rig.sandbox.expectedDurationSeconds(text), 2);
      expect(tts()).toHaveLength(2);
      for (const charge of [first, one.charge, two.charge]) charge.close();
      await rig.source.close();
      expect(rig.sandbox.charactersBilled()).toBe(2 * text.length);
      expect((await rig.store.spends.monthTotals(month(), 'G')).spent).toBe(2 * text.length);
    });
  });

  it('marks the month used up on a 429 with nothing left, before the caller hears of it', async () => {
    rig.sandbox.setKeyUsed(rig.sandbox.testKey, PLAN_LIMITS.creator);
    const text = 'Over the top.';
    const charge = await rig.accounting.authorize(who, await rig.source.needs(request(text), [text]));
    await expect(
      orderedPart(rig.source, request(text), text, new AbortController().signal, { charge }),
    ).rejects.toThrow(/quota is used up/);
    expect((await rig.store.quota.get()).exhausted).toBeDefined();
    charge.close();
  });

  it('says how many characters are left when only this request is too long for them, and marks nothing', async () => {
    rig.sandbox.setKeyUsed(rig.sandbox.testKey, PLAN_LIMITS.creator - 4);
    const text = 'Longer than four.';
    const error = await orderedPart(rig.source, request(text), text, new AbortController().signal).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).reason).toMatchObject({ code: 'quota-too-few-left', left: 4, needed: text.length });
    expect(describeFailure(error, { planFigures: true }).message).toMatchObject({
      key: 'quota.tooFewLeft',
      params: { left: 4, needed: text.length },
    });
    expect(describeFailure(error).message).toEqual({
      key: 'quota.tooFewLeftForMember',
      params: { reset: expect.stringMatching(/^\d{4}-\d{2}-01$/) },
    });
    expect((await rig.store.quota.get()).exhausted).toBeUndefined();
  });

  it('encodes its parts to Opus with the encoding the app was started with (the VoicePlaneOptions of start-saybot.ts)', async () => {
    // The sandbox speaks mono: production's settings keep it mono, the benchmark baseline's make every packet stereo.
    const isStereo = (packet: Buffer): boolean => ((packet[0] ?? 0) & 0x04) !== 0;
    const packetsOf = async (from: PartSource, text: string): Promise<Buffer[]> => {
      const part = await orderedPart(from, request(text), text, new AbortController().signal);
      return (await part.packets!().toArray()) as Buffer[];
    };
    const baseline = new PartSource({
      client: rig.client,
      logger: silentLogger,
      accounting: rig.accounting,
      encoding: LEGACY_SETTINGS,
    });
    try {
      const [speech, legacy] = await Promise.all([
        packetsOf(rig.source, 'Mono as spoken.'),
        packetsOf(baseline, 'Stereo as before.'),
      ]);
      expect(speech.length).toBeGreaterThan(10);
      expect(speech.every((p) => !isStereo(p))).toBe(true);
      expect(legacy.length).toBeGreaterThan(10);
      expect(legacy.every(isStereo)).toBe(true);
    } finally {
      await baseline.close();
    }
  });

  it("an engine voice its engine's list, first read as its part is spoken, lacks: the rule's refusal, no stand-in", async () => {
    const voicevox = await FakeEngine.start();
    voicevox.handler = voicevoxHandler();
    const engines = new Engines({ voicevoxUrl: voicevox.url, freeVoices: {} });
    const freeVoice = { espeak: true, chosen: true, standsIn: true };
    const parts = new PartSource({
      client: rig.client,
      logger: silentLogger,
      accounting: rig.accounting,
      engines,
      freeVoice,
    });
    try {
      const asked: SpeechRequest = { kind: 'tts', text: 'Not in its list.', voice: 'voicevox:99', format: 'wav' };
      // Its engine not answered yet: the voice is held as not known now.
      expect(engines.lists(asked.voice)).toBeUndefined();
      const charge = await rig.accounting.authorize(who, await parts.needs(asked, [asked.text]));
      const fetched = await parts.fetchPart(asked, asked.text, new AbortController().signal, { charge });
      charge.close();
      expect(fetched).toMatchObject({ failure: { problem: { code: 'engine-voice-unknown', voice: asked.voice } } });
      expect(fetched.standIn).toBeUndefined();
      expect(voicevox.seen.map((seen) => seen.url.pathname)).not.toContain('/audio_query');
    } finally {
      await parts.close();
      await engines.close();
      await voicevox.close();
    }
  });

  it('a voice deleted while its paid part is written ahead: never sent, the spend taken back', async () => {
    const text = 'Deleted while written.';
    const held = heldWriteAhead(text.length);
    const store = held.wrap(rig.store);
    const accounting = new Accounting({
      store,
      rules: MONEY_RULES,
      budgets: { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 },
      planCharacterLimit: 300_000,
      logger: silentLogger,
      storeDeadlineMs: Number(HOLD_DEADLINE.STORE_DEADLINE_MS),
    });
    const parts = new PartSource({ client: rig.client, logger: silentLogger, accounting });
    const asked: SpeechRequest = { kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' };
    const charge = await accounting.authorize(who, await parts.needs(asked, [text]));
    const part = orderedPart(parts, asked, text, new AbortController().signal, { charge });
    await held.reached;
    await parts.purgeVoice(asked.voice);
    held.release();
    await expect(part).rejects.toMatchObject({ problem: { code: 'voice-deleted', voice: asked.voice } });
    await expect.poll(() => held.tookBack()).toBe(true);
    charge.close();
    await parts.close();
    expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(0);
  });

  it.each([
    ['as sent', undefined],
    ['at another speed', { speed: 1.5, volumeDb: 0 }],
  ])(
    "a voice deleted while a file's part is fetched (%s): that part is not handed out nor cached, the next never requested",
    async (_, effects) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'saybot-deleted-voice-'));
      try {
        const cache = await AudioCache.open({ dir, maxBytes: 50_000_000, logger: silentLogger });
        const parts = new PartSource({ client: rig.client, logger: silentLogger, accounting: rig.accounting, cache });
        const texts = ['The first part.', 'The second part.'];
        const asked: SpeechRequest = {
          kind: 'tts',
          text: texts.join(' '),
          voice: 'voice-b-en-f-01',
          format: 'wav',
          ...(effects ? { effects } : {}),
        };
        const charge = await rig.accounting.authorize(who, await parts.needs(asked, texts));
        rig.sandbox.setPacing({ startDelayMs: 300 });
        const first = orderedPart(parts, asked, texts[0] ?? '', new AbortController().signal, { charge });
        // Deleted once the service has the request (paid: its audio is on its way).
        await vi.waitFor(() => expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1), {
          timeout: 20_000,
        });
        // Awaited from before the deletion: the deletion now closes the call at once, so it fails during purgeVoice.
        const refused = expect(first).rejects.toMatchObject({ problem: { code: 'voice-deleted', voice: asked.voice } });
        await parts.purgeVoice(asked.voice);
        await refused;
        await expect(
          orderedPart(parts, asked, texts[1] ?? '', new AbortController().signal, { charge }),
        ).rejects.toMatchObject({
          problem: { code: 'voice-deleted' },
        });
        await parts.close();
        charge.close();
        expect(rig.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(1);
        expect(readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.sbc'))).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

// What a speech request becomes at the Voice API: the body, and the cache key of its audio. The keys are pinned as
// released (computed before the settings were declared once): a cache filled by an earlier SayBot keeps being found.
const PINNED: Array<[string, ServiceRequest, string, string]> = [
  [
    'tts, nothing but the voice',
    { kind: 'tts', text: 'x', voice: 'voice-b-en-f-01', format: 'wav' },
    'Hello there',
    '530b64f8dac90dded1460cf7679175b62b2809ff56ae10d78baedf0b8e0ba350',
  ],
  [
    'tts with language, format and tone',
    { kind: 'tts', text: 'x', voice: 'voice-b-ko-m-01', format: 'mp3', language: 'ko', tone: 'whispering' },
    '안녕하세요',
    'ac975edfab15754783e1e0bd6fa17cbd2f7d72f1ac930ebac36a65f7ea385d2f',
  ],
  [
    'tts with speed and volume (effects never change the original key)',
    { kind: 'tts', text: 'x', voice: 'voice-b-en-f-01', format: 'wav', effects: { speed: 1.5, volumeDb: -6 } },
    'Hello there',
    '530b64f8dac90dded1460cf7679175b62b2809ff56ae10d78baedf0b8e0ba350',
  ],
  [
    'emotion',
    { kind: 'emotion', text: 'x', voice: 'voice-b-ko-f-01', exaggeration: 0.8 },
    'Wow!',
    'e970d902b05220e9df3e7dcc505aea44b6a34ae74a2cdde6aaf4c584978f67e0',
  ],
  [
    'a cloned voice',
    { kind: 'tts', text: 'x', voice: 'clone_abc123', format: 'wav', language: 'en' },
    'Hi',
    '67b50285828410ad74eeda1702fd7d0bd0fe41812704587f2b9fe5bb6c6b043a',
  ],
];

describe('a request at the Voice API', () => {
  it.each(PINNED)('%s: its cache key is the one released', (_, request, text, key) => {
    expect(partCacheKey(request, text)).toBe(key);
  });

  it('tts: sends the text, the voice, the format, the language and the tone under their wire names', () => {
    expect(
      serviceBody({ kind: 'tts', text: 'x', voice: 'v', format: 'mp3', language: 'ja', tone: 'calm' }, 'part'),
    ).toEqual({
      endpoint: 'tts',
      body: { text: 'part', voice_id: 'v', output_format: 'mp3', language: 'ja', tone_instruction: 'calm' },
    });
  });

  it('emotion: sends the text, the voice and the exaggeration; never a format or a tone', () => {
    expect(serviceBody({ kind: 'emotion', text: 'x', voice: 'v', exaggeration: 0.3 }, 'part')).toEqual({
      endpoint: 'emotion-tts',
      body: { text: 'part', voice: 'v', exaggeration: 0.3 },
    });
  });

  it('keys differ by every field sent, and whitespace in the text does not', () => {
    const base: ServiceRequest = { kind: 'tts', text: 'x', voice: 'v', format: 'wav' };
    const keys = new Set([
      partCacheKey(base, 'a b'),
      partCacheKey({ ...base, format: 'mp3' }, 'a b'),
      partCacheKey({ ...base, language: 'en' }, 'a b'),
      partCacheKey({ ...base, tone: 't' }, 'a b'),
      partCacheKey({ ...base, voice: 'w' }, 'a b'),
      partCacheKey({ kind: 'emotion', text: 'x', voice: 'v', exaggeration: 0.5 }, 'a b'),
    ]);
    expect(keys.size).toBe(6);
    expect(partCacheKey(base, ' a \n b ')).toBe(partCacheKey(base, 'a b'));
  });
});

describe('cache keys', () => {
  const key = (text: string, voice = 'voice-b-en-f-01') =>
    partCacheKey({ kind: 'tts', text, voice, format: 'wav' }, text);

  it('match across NFC forms and whitespace, and differ in any setting', () => {
    expect(key('한국어  텍스트\n'.normalize('NFD'))).toBe(key('한국어 텍스트'));
    expect(key('Hello there.')).not.toBe(key('Hello there!'));
    expect(key('Hello', 'voice-b-en-m-01')).not.toBe(key('Hello'));
    expect(partCacheKey({ kind: 'tts', text: 'a', voice: 'v', format: 'wav', tone: 'calm' }, 'a')).not.toBe(
      partCacheKey({ kind: 'tts', text: 'a', voice: 'v', format: 'wav' }, 'a'),
    );
    expect(partCacheKey({ kind: 'emotion', text: 'a', voice: 'v', exaggeration: 0.5 }, 'a')).not.toBe(
      partCacheKey({ kind: 'emotion', text: 'a', voice: 'v', exaggeration: 0.6 }, 'a'),
    );
  });
});
