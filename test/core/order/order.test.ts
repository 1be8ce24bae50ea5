// One order through its phases (src/core/order/order.ts): each step taken by its own methods in turn, what its parts'
// fetches learnt recorded while it is sourced and said in its outcome, and a refusal its outcome.
import { describe, expect, it } from 'vitest';
import type { Charge } from '../../../src/core/quota/charge.ts';
import type { Admission } from '../../../src/core/quota/seconds-bounds.ts';
import { MEMBER_REQUEST, type SpeechOrder, type SpeechOutcome } from '../../../src/core/order/speech-order.ts';
import { Order, type OrderPhase, type OrderRun } from '../../../src/core/order/order.ts';
import type { AcceptedTerms } from '../../../src/core/order/order-types.ts';
import { PaidPartWayError } from '../../../src/core/quota/paid-part-way.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import type { SpeechRequest } from '../../../src/core/settings/speech-request.ts';

const request: SpeechRequest = { kind: 'tts', text: 'Hello there.', voice: 'voice-b-en-f-01', format: 'wav' };
const asked: SpeechOrder = {
  requester: { guildId: 'G', userId: 'U', command: 'say', id: 'r1', policy: MEMBER_REQUEST },
  target: { kind: 'file' },
  request,
};

/** A charge that has paid `paid` characters, and an admission, each saying whether it was closed. */
function terms(paid = 0): { terms: AcceptedTerms; closed: { charge: boolean; admission: boolean } } {
  const closed = { charge: false, admission: false };
  const charge = {
    paid,
    written: paid,
    context: { guildId: 'G', userId: 'U', command: 'say' },
    close: () => (closed.charge = true),
  } as unknown as Charge;
  const admission = { release: () => (closed.admission = true) } as unknown as Admission;
  return { terms: { lines: [{ request, texts: ['Hello there.'], pauseBefore: 0 }], charge, admission }, closed };
}

/** A run whose delivery is `deliver`, noting the order's phase at each step. */
function run(
  accepted: AcceptedTerms | Error,
  deliver: (order: Order) => SpeechOutcome | Promise<SpeechOutcome>,
): { run: OrderRun; phases: OrderPhase[] } {
  const phases: OrderPhase[] = [];
  return {
    phases,
    run: {
      lines: () => [{ request, texts: ['Hello there.'], pauseBefore: 0 }],
      accept: (order) => {
        phases.push(order.phase);
        return accepted instanceof Error ? Promise.reject(accepted) : Promise.resolve(accepted);
      },
      deliver: async (order) => {
        phases.push(order.phase);
        return deliver(order);
      },
      done: (order) => void phases.push(order.phase),
    },
  };
}

describe('Order', () => {
  it('goes asked, accepted, sourcing, delivered, settled: its charge closed and its place given back before it is told', async () => {
    const accepted = terms();
    const { run: steps, phases } = run(accepted.terms, () => ({ kind: 'files', files: [], seconds: 1 }));
    const order = new Order(asked, steps);
    expect(order.phase).toBe('asked');
    expect(await order.accepted).toEqual({ parts: 1, ahead: 0 });
    const outcome = await order.outcome;
    expect(outcome).toEqual({ kind: 'files', files: [], seconds: 1 });
    expect(phases).toEqual(['asked', 'sourcing', 'settled']);
    expect(order.phase).toBe('settled');
    expect(accepted.closed).toEqual({ charge: true, admission: true });
  });

  it('closes its charge and gives its place back even when its delivery throws', async () => {
    const accepted = terms(12);
    const broken = new Error('the delivery itself broke');
    const { run: steps } = run(accepted.terms, () => Promise.reject(broken));
    const order = new Order(asked, steps);
    await order.accepted;
    await expect(order.outcome).rejects.toBe(broken);
    expect(accepted.closed).toEqual({ charge: true, admission: true });
  });

  it('records what its parts learnt while sourced, and says it in its outcome with what was paid', async () => {
    const accepted = terms(12);
    const failure = new Refusal({ code: 'quota-used-up', markedAt: new Date(0), resetAt: new Date(0) });
    const { run: steps } = run(accepted.terms, (order) => {
      order.learnt({ audio: {} as never, freeVoice: { voice: 'free-en', cause: 'service-failed' }, cutAt: 120 });
      order.partWay(failure);
      return { kind: 'files', files: [], seconds: 1 };
    });
    const order = new Order(asked, steps);
    const outcome = await order.outcome;
    expect(outcome.freeVoice).toEqual({ voice: 'free-en', cause: 'service-failed', paidBefore: 12 });
    expect(outcome.lineCutAt).toBe(120);
    expect(outcome.partWay).toBeInstanceOf(PaidPartWayError);
    expect((outcome.partWay as PaidPartWayError).paid).toBe(12);
    // Settled: a part let go of that answers now changes nothing.
    order.learnt({ failure: new Error('late'), freeVoice: { voice: 'free-ja', cause: 'month-used-up' } });
    expect(order.freeVoice).toEqual({ voice: 'free-en', cause: 'service-failed' });
  });

  it('is refused at acceptance: its outcome the refusal, nothing to settle', async () => {
    const refusal = new Refusal({ code: 'budget-member-day', limit: 1, used: 1, needed: 1, resetAt: new Date(0) });
    const { run: steps, phases } = run(refusal, () => ({ kind: 'files', files: [], seconds: 1 }));
    const order = new Order(asked, steps);
    await expect(order.accepted).rejects.toBe(refusal);
    expect(await order.outcome).toEqual({ kind: 'failed', error: refusal, secondsHeard: 0 });
    expect(phases).toEqual(['asked']);
    expect(order.phase).toBe('refused');
    expect(() => order.charge).toThrow(/no charge/);
  });
});
