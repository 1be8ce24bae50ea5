import { PermissionFlagsBits as P, PermissionsBitField, type GuildTextBasedChannel } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  SlowmodeBook,
  claimMemberVoiceMessage,
  type VoiceMessageAsker,
} from '../../../src/features/speaking/voice-message-rights.ts';
import { gatePort } from '../../../src/features/speaking/gate.ts';

/** The rights as the core asks them, answered by the gate (as the app wires them). */
const RIGHTS = gatePort;

const ALLOWED = P.ViewChannel | P.SendMessages | P.AttachFiles | P.SendVoiceMessages;

function asker(permissions: bigint | null, slowmodeSeconds = 0, thread = false): VoiceMessageAsker {
  const channel = { rateLimitPerUser: slowmodeSeconds, isThread: () => thread } as unknown as GuildTextBasedChannel;
  return {
    user: { id: 'u1' },
    channelId: 'c1',
    channel,
    memberPermissions: permissions === null ? null : new PermissionsBitField(permissions),
  };
}

describe('claimMemberVoiceMessage', () => {
  it('lets a member with the four rights post, and bars one missing any of them', () => {
    const book = new SlowmodeBook();
    expect(claimMemberVoiceMessage(asker(ALLOWED), RIGHTS, book)).toBeUndefined();
    for (const missing of [P.ViewChannel, P.SendMessages, P.AttachFiles, P.SendVoiceMessages]) {
      expect(claimMemberVoiceMessage(asker(ALLOWED & ~missing), RIGHTS, book), String(missing)).toBe(
        'member-no-permission',
      );
    }
    expect(claimMemberVoiceMessage(asker(null), RIGHTS, book)).toBe('member-no-permission');
  });

  it('asks Send Messages in Threads, not Send Messages, in a thread', () => {
    const book = new SlowmodeBook();
    const inThread = (ALLOWED & ~P.SendMessages) | P.SendMessagesInThreads;
    expect(claimMemberVoiceMessage(asker(inThread, 0, true), RIGHTS, book)).toBeUndefined();
    expect(claimMemberVoiceMessage(asker(ALLOWED, 0, true), RIGHTS, book)).toBe('member-no-permission');
  });

  it('holds a member to slowmode on the given clock, unless they may manage messages or the channel', () => {
    let now = 0;
    const book = new SlowmodeBook({ now: () => now });
    expect(claimMemberVoiceMessage(asker(ALLOWED, 10), RIGHTS, book)).toBeUndefined();
    now = 9_999;
    expect(claimMemberVoiceMessage(asker(ALLOWED, 10), RIGHTS, book)).toBe('slowmode');
    now = 10_000;
    expect(claimMemberVoiceMessage(asker(ALLOWED, 10), RIGHTS, book)).toBeUndefined();
    expect(claimMemberVoiceMessage(asker(ALLOWED | P.ManageMessages, 10), RIGHTS, book)).toBeUndefined();
    expect(claimMemberVoiceMessage(asker(ALLOWED | P.ManageChannels, 10), RIGHTS, book)).toBeUndefined();
  });
});

describe('SlowmodeBook', () => {
  it('stays within its bound, dropping lapsed entries first, then the oldest', () => {
    let now = 0;
    const book = new SlowmodeBook({ now: () => now, maxEntries: 3 });
    expect(book.claim('a', 1_000)).toBe(true);
    expect(book.claim('b', 60_000)).toBe(true);
    expect(book.claim('c', 60_000)).toBe(true);
    now = 2_000; // 'a' has lapsed
    expect(book.claim('d', 60_000)).toBe(true);
    expect(book.size).toBe(3);
    expect(book.claim('b', 60_000)).toBe(false);
    expect(book.claim('e', 60_000)).toBe(true); // 'b', the oldest, goes
    expect(book.size).toBe(3);
    expect(book.claim('b', 60_000)).toBe(true);
  });
});
