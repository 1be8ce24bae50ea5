// The gate's table and its reading of a text channel's rights, with Discord's own permission bitfields: the member's
// missing right to post makes the answer private, SayBot's Attach Files outside a server refuses, and every effect
// needs a right of someone's. Voice rights are heard end to end (test/e2e/speaking-rules.test.ts, rule `denied`).
import { PermissionFlagsBits as P, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { EFFECT_RIGHTS, gatePort, rightsFor } from '../../../src/features/speaking/gate.ts';

/** The gate's acceptance answer, as the core's asker reaches it (the port). */
const judge = gatePort.mayAccept;
import type { Effect, Place } from '../../../src/features/speaking/gate-types.ts';

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
        'view-voice-channel',
        'speak',
      ],
      bot: ['attach-files'],
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
