// One order through its phases (src/core/order/order-record.ts `Order`) as the pipeline's speak takes it, settled by the money
// (src/core/quota/money.ts): each step by the record's own methods in turn, what its parts' fetches learnt recorded
// while it is sourced and said in its outcome with what was paid, and a refusal its outcome.
import { describe, expect, it } from 'vitest';
import type { Charge } from '../../../src/core/quota/paid-call.ts';
import { Money, PaidPartWayError } from '../../../src/core/quota/money.ts';
import type { Admission } from '../../../src/core/quota/capacity.ts';
import type { AcceptedTerms, SpeechOrder, SpeechOutcome } from '../../../src/core/order/order.ts';
import { MEMBER_REQUEST } from '../../../src/core/order/pipeline.ts';
import { Order } from '../../../src/core/order/order-record.ts';
import { ServerError } from '../../../src/core/api/errors.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';
import { estimatePlanSeconds } from '../../../src/core/characters.ts';

const request: SpeechRequest = { kind: 'tts', text: 'Hello there.', voice: 'voice-b-en-f-01', format: 'wav' };
const asked: SpeechOrder = {
  requester: { guildId: 'G', userId: 'U', command: 'say', id: 'r1', policy: MEMBER_REQUEST },
  target: { kind: 'file' },
  request,
};
const lines = [{ request, texts: ['Hello there.'], pauseBefore: 0 }];
const money = new Money({ accounting: {} as never });

/** A charge that has paid `paid` characters, and an admission, each saying whether it was closed. */
function terms(paid = 0): { terms: AcceptedTerms; closed: { charge: boolean; admission: boolean } } {
  const closed = { charge: false, admission: false };
  const charge = {
    paid,
    written: paid,
    context: { guildId: 'G', userId: 'U', command: 'say' },
    close: () => (closed.charge = true),
  } as unknown as Charge;
  const admission = { leave: () => (closed.admission = true) } as unknown as Admission;
  return { terms: { lines, charge, admission }, closed };
}

/** The order through the pipeline's steps, its delivery `deliver`: its phase noted at each. */
async function run(order: Order, accepted: AcceptedTerms, deliver: (order: Order) => SpeechOutcome): Promise<string[]> {
  const phases = [order.phase];
  order.split(lines);
  order.accept(accepted);
  phases.push(order.phase);
  order.source();
  order.tellAccepted();
  phases.push(order.phase);
  order.settled(money.settle(order, deliver(order)));
  phases.push(order.phase);
  return phases;
}

describe('Order', () => {
  it('goes asked, accepted, sourcing, settled: its charge closed and its place given back before it is told', async () => {
    const accepted = terms();
    const order = new Order(asked);
    const phases = await run(order, accepted.terms, () => ({ kind: 'files', files: [], seconds: 1 }));
    expect(await order.accepted).toEqual({ parts: 1, ahead: 0 });
    expect(await order.outcome).toEqual({ kind: 'files', files: [], seconds: 1 });
    expect(phases).toEqual(['asked', 'accepted', 'sourcing', 'settled']);
    expect(accepted.closed).toEqual({ charge: true, admission: true });
  });

  it('goes no step out of turn: settled before it is sourced is a bug, thrown', () => {
    const order = new Order(asked);
    order.split(lines);
    expect(() => order.settled({ kind: 'files', files: [], seconds: 1 })).toThrow(/does not go from asked/);
    order.accept(terms().terms);
    expect(() => order.split(lines)).toThrow(/not split/);
  });

  it('records what its parts learnt while sourced, and says it in its outcome with what was paid', async () => {
    const accepted = terms(12);
    const failure = new Refusal({ code: 'quota-used-up', markedAt: new Date(0), resetAt: new Date(0) });
    const order = new Order(asked);
    await run(order, accepted.terms, (sourced) => {
      sourced.learnt(
        { audio: {} as never, standIn: { voice: 'free-en', cause: 'service-failed' }, cutAt: 120 },
        request,
      );
      sourced.partWay(failure);
      return { kind: 'files', files: [], seconds: 1 };
    });
    const outcome = await order.outcome;
    expect(outcome.standIn).toEqual({ voice: 'free-en', cause: 'service-failed', paidBefore: 12 });
    expect(outcome.lineCutAt).toBe(120);
    expect(outcome.partWay).toBeInstanceOf(PaidPartWayError);
    expect((outcome.partWay as PaidPartWayError).paid).toBe(12);
    // Settled: a part let go of that answers now changes nothing.
    order.learnt({ failure: new Error('late'), standIn: { voice: 'free-ja', cause: 'month-used-up' } }, request);
    expect(order.standIn).toEqual({ voice: 'free-en', cause: 'service-failed' });
  });

  it("counts a scene's free lines for /usage in one count per cause and speaker, not one store write a line", async () => {
    // Each count is a write on the main thread (SQLite, synchronously): one a line held a 60-line scene's answer up.
    const counted: unknown[][] = [];
    const counting = new Money({
      accounting: {} as never,
      countFreeLines: (...args: unknown[]) => void counted.push(args),
    });
    const voices = ['free-en-f', 'free-en-m', 'voicevox:3'];
    const scene = Array.from({ length: 60 }, (_, i) => ({
      request: { ...request, voice: voices[i % 3] as string },
      texts: [`Line ${i}.`],
      pauseBefore: 0,
    }));
    const order = new Order(asked);
    order.split(scene);
    order.accept({ ...terms().terms, lines: scene });
    order.source();
    order.settled(counting.settle(order, { kind: 'files', files: [], seconds: 300 }));
    await order.outcome;
    expect(counted).toEqual([
      ['G', 'chosen', 'espeak', 40],
      ['G', 'chosen', 'voicevox', 20],
    ]);
  });

  it('counts each line the free voice stood in for, and an engine line eSpeak NG backed up as chosen (bb7)', async () => {
    const counted: unknown[][] = [];
    const counting = new Money({
      accounting: {} as never,
      countFreeLines: (...args: unknown[]) => void counted.push(args),
    });
    const scene = ['voice-b-en-m-01', 'voicevox:0', 'voice-b-en-m-01'].map((voice, i) => ({
      request: { ...request, voice },
      texts: [`Line ${i}.`, `More of line ${i}.`],
      pauseBefore: 0,
    }));
    const order = new Order(asked);
    order.split(scene);
    order.accept({ ...terms().terms, lines: scene });
    order.source();
    const [first, engine, last] = scene.map((line) => line.request);
    for (const line of [first, first, last, last])
      order.learnt({ audio: {} as never, standIn: { voice: 'free-en-m', cause: 'service-failed' } }, line!);
    order.learnt({ audio: {} as never, standIn: { voice: 'free-ja', cause: 'engine-failed' } }, engine!);
    order.settled(counting.settle(order, { kind: 'files', files: [], seconds: 30 }));
    await order.outcome;
    expect(counted).toEqual([
      ['G', 'fallback', 'espeak', 2],
      ['G', 'chosen', 'espeak', 1],
    ]);
  });

  it('waits for the flights its parts were counted free by until it ends, or its paid voice is refused for money', async () => {
    const waits: AbortSignal[] = [];
    let refuse = true;
    const refusal = new Refusal({ code: 'budget-guild-month', limit: 1, used: 1, needed: 12, resetAt: new Date(0) });
    const waiting = new Money({
      accounting: {
        authorize: async () => {
          if (!refuse) return terms().terms.charge;
          refuse = false;
          throw refusal;
        },
        unchecked: () => terms().terms.charge,
      } as never,
    });
    /** As the pipeline prices an order: each part counted free as in flight, under `waits`; its free voice's version. */
    const priced = (order: Order) => {
      waits.push(order.waits);
      const needs = order.lines.flatMap((line) =>
        line.texts.map((text) => ({ text, key: text, endpoint: 'tts' as const, characters: text.length, free: true })),
      );
      const admission = waiting.admit(order, undefined);
      const standIn = [{ ...lines[0]!, request: { ...request, voice: 'free-en-f' } }];
      return waiting
        .accept(order, admission, Promise.resolve(needs))
        .catch((refusal: unknown) => waiting.acceptInstead(order, admission, refusal, () => standIn));
    };
    // Refused for money and spoken in the free voice: the paid voice's flights no longer wait for it.
    const spokenFree = new Order(asked);
    spokenFree.split(lines);
    const fellBack = await priced(spokenFree);
    expect(fellBack.fallback).toBe(refusal);
    spokenFree.accept(fellBack);
    expect(spokenFree.lines[0]?.request).toMatchObject({ voice: 'free-en-f' });
    expect(waits).toHaveLength(1);
    expect(waits[0]?.aborted).toBe(true);
    // Accepted: they wait for it until it is settled.
    const order = new Order(asked);
    order.split(lines);
    order.accept(await priced(order));
    order.source();
    expect(waits).toHaveLength(2);
    expect(waits[1]?.aborted).toBe(false);
    order.settled(waiting.settle(order, { kind: 'files', files: [], seconds: 1 }));
    expect(waits[1]?.aborted).toBe(true);
  });

  it('speaks a free voice in place of an order refused for money without asking the books again', async () => {
    const refusal = new Refusal({ code: 'budget-member-day', limit: 1, used: 1, needed: 12, resetAt: new Date(0) });
    const asks: string[] = [];
    const money = new Money({
      accounting: {
        authorize: () => Promise.reject(refusal).finally(() => asks.push('authorize')),
        unchecked: () => (asks.push('unchecked'), terms().terms.charge),
      } as never,
    });
    const order = new Order(asked);
    order.split(lines);
    const admission = money.admit(order, undefined);
    const standIn = [{ ...lines[0]!, request: { ...request, voice: 'free-en-f' } }];
    const paid = await money
      .accept(order, admission, Promise.resolve([]))
      .catch((refused: unknown) => money.acceptInstead(order, admission, refused, () => standIn));
    expect(paid).toMatchObject({ fallback: refusal, lines: standIn });
    expect(asks).toEqual(['authorize', 'unchecked']);
  });

  it('queues a stand-in at its own seconds, the paid voice’s place given back; refused for the queue or the free-request rate, it holds none', async () => {
    const forMoney = new Refusal({ code: 'budget-guild-month', limit: 1, used: 1, needed: 10, resetAt: new Date(0) });
    const book = new Money({
      accounting: { unchecked: () => terms().terms.charge } as never,
      queue: { guildSeconds: 10, guildClips: 0, memberRequests: 0 },
      freePerMinute: 1,
    });
    const order = new Order(asked);
    order.split(lines);
    // Ten digits: under a second at the paid estimate, about 6.5 s in eSpeak NG.
    const standIn = [{ ...lines[0]!, request: { ...request, text: '1234567890', voice: 'free-en-f' } }];
    const own = Math.ceil(estimatePlanSeconds(standIn));
    const paidPlace = () => book.admit(order, { seat: 0, clips: 1, seconds: 10 / 15 });
    const instead = () => book.acceptInstead(order, paidPlace(), forMoney, () => standIn).catch((e: unknown) => e);
    /** The seconds waiting in seat 0, as a refusal names them (0 when empty: a lone request always fits). */
    const waiting = () => {
      try {
        book.admit(order, { seat: 0, clips: 1, seconds: 100 }).leave();
        return 0;
      } catch (refused) {
        return ((refused as Refusal).reason as { queued: number }).queued;
      }
    };
    const first = (await instead()) as Awaited<ReturnType<typeof book.acceptInstead>>;
    expect(first.fallback).toBe(forMoney);
    expect(own).toBeGreaterThan(5);
    expect(waiting()).toBe(own);
    expect(((await instead()) as Refusal).reason).toEqual({
      code: 'queue-guild-full',
      bound: 'seconds',
      limit: 10,
      queued: own,
    });
    expect(waiting()).toBe(own);
    first.admission.leave();
    expect(waiting()).toBe(0);
    // The minute's one free request was the first stand-in's: the refusal for money stands, nothing held.
    expect(await instead()).toBe(forMoney);
    expect(waiting()).toBe(0);
  });

  it('lets a free voice answer only a refusal for money (the month, a budget), never the member’s cooldown or the free-request rate', async () => {
    const money = new Money({ accounting: { unchecked: () => terms().terms.charge } as never });
    const order = new Order(asked);
    order.split(lines);
    const standIn = [{ ...lines[0]!, request: { ...request, voice: 'free-en-f' } }];
    const instead = (refusal: unknown) =>
      money
        .acceptInstead(order, money.admit(order, undefined), refusal, () => standIn)
        .catch((error: unknown) => error);
    const forMoney = new Refusal({ code: 'budget-guild-month', limit: 1, used: 1, needed: 12, resetAt: new Date(0) });
    expect(await instead(forMoney)).toMatchObject({ fallback: forMoney, lines: standIn });
    const month = new Refusal({ code: 'quota-used-up', markedAt: new Date(0), resetAt: new Date(0) });
    expect(await instead(month)).toMatchObject({ fallback: month });
    const cooldown = new Refusal({ code: 'budget-cooldown', waitSeconds: 3, limit: 1 });
    expect(await instead(cooldown)).toBe(cooldown);
    const rate = new Refusal({ code: 'free-rate', limit: 1, waitSeconds: 3 });
    expect(await instead(rate)).toBe(rate);
    const failed = new ServerError('the service failed', { status: 503, charge: 'not-charged' });
    expect(await instead(failed)).toBe(failed);
    // Where no free voice may speak (FREE_VOICE, a scene), the refusal for money stands.
    const none = await money
      .acceptInstead(order, money.admit(order, undefined), forMoney, () => undefined)
      .catch((error: unknown) => error);
    expect(none).toBe(forMoney);
  });

  it('is refused at acceptance: its outcome the refusal, nothing to settle', async () => {
    const refusal = new Refusal({ code: 'budget-member-day', limit: 1, used: 1, needed: 1, resetAt: new Date(0) });
    const order = new Order(asked);
    order.split(lines);
    order.refuse(refusal);
    await expect(order.accepted).rejects.toBe(refusal);
    expect(await order.outcome).toEqual({ kind: 'failed', error: refusal, secondsHeard: 0 });
    expect(order.phase).toBe('refused');
    expect(() => order.charge).toThrow(/no charge/);
    expect(() => order.source()).toThrow(/does not go from refused/);
  });
});
