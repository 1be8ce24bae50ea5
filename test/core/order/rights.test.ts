import { describe, expect, it } from 'vitest';
import {
  RightsAsker,
  RightsRevokedError,
  RightsWatch,
  type OrderEffects,
  type OrderRights,
  type Revocation,
  type RightsVerdict,
  type WatchedSpeech,
} from '../../../src/core/order/rights.ts';
import { MEMBER_REQUEST, type SpeechOrder, type StillAllowed } from '../../../src/core/order/order.ts';
import { SpeechPipeline } from '../../../src/core/order/pipeline.ts';
import { silentLogger } from '../../../src/core/log.ts';

/** A port whose answers the test sets, recording each question asked of it. */
function port() {
  const state = {
    verdict: { kind: 'allowed', privately: false } as RightsVerdict,
    revoked: undefined as Revocation | undefined,
    posts: 'publicly' as 'publicly' | 'privately',
    asked: [] as string[],
  };
  const rights: OrderRights = {
    mayAccept: () => {
      state.asked.push('accept');
      return state.verdict;
    },
    mayPlay: () => {
      state.asked.push('play');
      return state.revoked;
    },
    mayPost: () => {
      state.asked.push('post');
      return state.posts;
    },
  };
  return { state, rights };
}

const EFFECTS: OrderEffects = { does: ['speak-in-voice', 'member-words'], at: null };

function order(effects?: OrderEffects, stillAllowed?: StillAllowed): SpeechOrder {
  return {
    requester: { guildId: 'g', userId: 'u', command: 'say', id: '1', policy: MEMBER_REQUEST },
    target: { kind: 'file' },
    request: { kind: 'tts', text: 'hello', voice: 'v', format: 'wav' },
    ...(effects === undefined ? {} : { effects }),
    ...(stillAllowed === undefined ? {} : { stillAllowed }),
  };
}

describe('RightsAsker', () => {
  it('never takes an order the port refuses: its events are the refusal, its answer private', async () => {
    const { state, rights } = port();
    const refusal = new Error('may not speak there');
    state.verdict = { kind: 'refused', error: refusal };
    expect(new RightsAsker(rights).admit(order(EFFECTS))).toEqual({ kind: 'refused', error: refusal });
    // The pipeline never takes it: nothing of it is split, held or paid (none of its parts is given).
    const pipeline = new SpeechPipeline({
      rights,
      source: {} as never,
      accounting: {} as never,
      players: {} as never,
      logger: silentLogger,
      maxCharsPerRequest: 100,
    });
    const job = pipeline.speak(order(EFFECTS));
    await expect(job.accepted).rejects.toBe(refusal);
    expect(await job.outcome).toEqual({ kind: 'failed', error: refusal, secondsHeard: 0 });
    expect(job.privately).toBe(true);
    expect(state.asked).toEqual(['accept', 'accept']);
  });

  it("asks the port before each part ahead of the order's own check, and again right before its post", async () => {
    const { state, rights } = port();
    state.verdict = { kind: 'allowed', privately: true };
    const job = new RightsAsker(rights).admit(order(EFFECTS, () => ({ code: 'ignored' })));
    if (job.kind !== 'allowed') throw new Error('refused');
    expect(job.privately).toBe(true);
    const given = job.order;
    expect(await given?.stillAllowed?.()).toEqual({ code: 'ignored' });
    state.revoked = { code: 'muted', channelId: 'v' };
    expect(await given?.stillAllowed?.()).toEqual({ code: 'muted', channelId: 'v' });
    expect(job.postsPrivately()).toBe(false);
    state.posts = 'privately';
    expect(job.postsPrivately()).toBe(true);
    expect(state.asked).toEqual(['accept', 'play', 'play', 'post', 'post']);
  });

  it('holds an order that declares no effects, or a pipeline without a port, to nothing of its own', async () => {
    const { state, rights } = port();
    const plain = order();
    const job = new RightsAsker(rights).admit(plain);
    if (job.kind !== 'allowed') throw new Error('refused');
    expect(job.order).toBe(plain);
    expect([job.privately, job.postsPrivately()]).toEqual([false, false]);
    expect(state.asked).toEqual([]);
    const none = new RightsAsker(undefined);
    expect(none.admits(EFFECTS)).toEqual({ kind: 'allowed', privately: false });
    expect(none.stillAllows(EFFECTS)).toBeUndefined();
    const held = none.admit(order(EFFECTS));
    expect(held.kind === 'allowed' && (await held.order.stillAllowed?.())).toBeUndefined();
  });

  it('answers a front-end before its order exists: the verdict, or the refusal thrown', () => {
    const { state, rights } = port();
    const asker = new RightsAsker(rights);
    expect(asker.requireAdmitted(EFFECTS)).toEqual({ kind: 'allowed', privately: false });
    const refusal = new Error('no Connect');
    state.verdict = { kind: 'refused', error: refusal };
    expect(() => asker.requireAdmitted(EFFECTS)).toThrow(refusal);
    expect(asker.admits(EFFECTS)).toEqual(state.verdict);
  });
});

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
