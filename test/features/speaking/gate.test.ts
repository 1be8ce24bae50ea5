// The gate's table and its reading of a text channel's rights, with Discord's own permission bitfields: the member's
// missing right to post makes the answer private, SayBot's Attach Files outside a server refuses, and every effect
// needs a right of someone's. Voice rights are heard end to end (test/e2e/speaking-rules.test.ts, rule `denied`).
import { PermissionFlagsBits as P, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  EFFECT_RIGHTS,
  gatePort,
  rightsFor,
  rightsPort,
  type RightsQuestions,
} from '../../../src/features/speaking/gate.ts';
import type { Revocation, RightsVerdict } from '../../../src/core/order/rights.ts';
import type { SpeechOrder, StillAllowed } from '../../../src/core/order/order.ts';
import { MEMBER_REQUEST, SpeechPipeline } from '../../../src/core/order/pipeline.ts';
import { silentLogger } from '../../../src/core/log.ts';

/** The gate's acceptance answer, as the core reaches it (the port). */
const judge = gatePort.allows;
import type { Effect, Effects, Place } from '../../../src/features/speaking/gate-types.ts';

const rights = (...bits: bigint[]) => new PermissionsBitField(bits);
const POSTER = rights(P.ViewChannel, P.SendMessages, P.AttachFiles, P.SendVoiceMessages);
const at = (member: PermissionsBitField | null, bot: PermissionsBitField | null, more: Partial<Place> = {}): Place => ({
  guild: null,
  memberId: '300000000000000011',
  text: { thread: false, member, bot },
  ...more,
});

describe('the gate', () => {
  it('maps every effect to a right of the member or of SayBot, each once and in the table order', () => {
    for (const effect of Object.keys(EFFECT_RIGHTS) as Effect[])
      expect(EFFECT_RIGHTS[effect].member.length + EFFECT_RIGHTS[effect].bot.length).toBeGreaterThan(0);
    expect(rightsFor(['attach-file', 'member-words'])).toEqual({
      member: [
        'not-timed-out',
        'view-channel',
        'send-messages',
        'attach-files',
        'not-server-muted',
        'not-stage-listener',
        'view-voice-channel',
        'speak',
      ],
      bot: ['attach-files', 'not-server-muted', 'stage-speaker'],
    });
  });

  it('answers a file privately where the member may not post it, publicly where they may', () => {
    const does: Effect[] = ['attach-file', 'member-words'];
    expect(judge({ does, at: at(POSTER, POSTER) })).toEqual({ kind: 'allowed', privately: false });
    for (const denied of [P.ViewChannel, P.SendMessages, P.AttachFiles]) {
      const member = rights(P.ViewChannel, P.SendMessages, P.AttachFiles).remove(denied);
      expect(judge({ does, at: at(member, POSTER) })).toEqual({ kind: 'allowed', privately: true });
    }
    // A voice message needs Send Voice Messages besides.
    const noVoiceMessages = rights(P.ViewChannel, P.SendMessages, P.AttachFiles);
    expect(judge({ does: ['post-voice-message'], at: at(noVoiceMessages, POSTER) })).toEqual({
      kind: 'allowed',
      privately: true,
    });
  });

  it("holds a member's words to the voice rights of a Stage: a listener's are not spoken there, a speaker's are", () => {
    const onStage = (suppress: boolean) => ({
      guild: null,
      memberId: '300000000000000012',
      voiceChannelId: '220000000000000012',
      member: {
        isCommunicationDisabled: () => false,
        voice: { channelId: '220000000000000012', serverMute: false, suppress },
      } as never,
    });
    expect(gatePort.stillAllows({ does: ['member-words'], at: onStage(true) })).toEqual({
      code: 'suppressed',
      channelId: '220000000000000012',
    });
    expect(gatePort.stillAllows({ does: ['member-words'], at: onStage(false) })).toBeUndefined();
  });

  it("refuses a file outside a server without SayBot's Attach Files; a DM asks no member right", () => {
    const outside = (bot: PermissionsBitField) =>
      judge({
        does: ['attach-file'],
        at: { guild: null, outsideServer: true, memberId: '1', text: { thread: false, bot } },
      });
    expect(outside(rights(P.AttachFiles))).toEqual({ kind: 'allowed', privately: false });
    const refused = outside(rights());
    expect(refused.kind).toBe('refused');
  });

  it('asks nothing of an order that does nothing in Discord (a sample heard in the browser)', () => {
    expect(judge({ does: [], at: null })).toEqual({ kind: 'allowed', privately: false });
  });
});

/** Questions whose answers the test sets, recording each one asked. */
function port() {
  const state = {
    verdict: { kind: 'allowed', privately: false } as RightsVerdict,
    revoked: undefined as Revocation | undefined,
    posts: 'publicly' as 'publicly' | 'privately',
    asked: [] as string[],
  };
  const rights: RightsQuestions = {
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

const EFFECTS: Effects = { does: ['speak-in-voice', 'member-words'], at: null };

function order(effects?: Effects, stillAllowed?: StillAllowed): SpeechOrder {
  return {
    requester: { guildId: 'g', userId: 'u', command: 'say', id: '1', policy: MEMBER_REQUEST },
    target: { kind: 'file' },
    request: { kind: 'tts', text: 'hello', voice: 'v', format: 'wav' },
    ...(effects === undefined ? {} : { effects }),
    ...(stillAllowed === undefined ? {} : { stillAllowed }),
  };
}

describe('the rights port, asking the questions (rightsPort)', () => {
  it('never takes an order the questions refuse: its events are the refusal, its answer private', async () => {
    const { state, rights } = port();
    const refusal = new Error('may not speak there');
    state.verdict = { kind: 'refused', error: refusal };
    expect(rightsPort(rights).allow(order(EFFECTS))).toEqual({ kind: 'refused', error: refusal });
    // The pipeline never takes it: nothing of it is split, held or paid (none of its parts is given).
    const pipeline = new SpeechPipeline({
      rights: rightsPort(rights),
      source: {} as never,
      accounting: {} as never,
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
    const job = rightsPort(rights).allow(order(EFFECTS, () => ({ code: 'ignored' })));
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

  it('holds an order that declares no effects to nothing of its own', () => {
    const { state, rights } = port();
    const plain = order();
    const job = rightsPort(rights).allow(plain);
    if (job.kind !== 'allowed') throw new Error('refused');
    expect(job.order).toBe(plain);
    expect([job.privately, job.postsPrivately()]).toEqual([false, false]);
    expect(state.asked).toEqual([]);
  });

  it('answers a front-end before its order exists: the verdict, or the refusal thrown', () => {
    const { state, rights } = port();
    const asker = rightsPort(rights);
    expect(asker.requireAllowed(EFFECTS)).toEqual({ kind: 'allowed', privately: false });
    const refusal = new Error('no Connect');
    state.verdict = { kind: 'refused', error: refusal };
    expect(() => asker.requireAllowed(EFFECTS)).toThrow(refusal);
    expect(asker.allows(EFFECTS)).toEqual(state.verdict);
  });
});
