// The local Discord computes a member's permissions in a channel as Discord documents it ("Permission Overwrites",
// "Implicit Permissions"): the guild's, then @everyone's overwrite, the member's roles' together, the member's own.
import { PermissionFlagsBits as P } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, DEFAULT_PERMISSIONS, type GuildRecord } from '@saybot/local-discord/state.ts';
import { guildState } from './helpers.ts';

const GUILD = '400000000000000001';
const TEXT = '410000000000000001';
const QUIET = '410000000000000002';
const VOICE = '420000000000000001';
const MEMBER = '430000000000000001';
const MOD = '430000000000000002';

function guild(): GuildRecord {
  return guildState({
    id: GUILD,
    name: 'g',
    textChannelId: TEXT,
    voiceChannels: [{ id: VOICE, name: 'v' }],
    textChannels: [{ id: QUIET, name: 'quiet', rateLimitPerUser: 30 }],
    members: [
      { id: MEMBER, username: 'm' },
      { id: MOD, username: 'mod', permissions: P.ManageMessages },
    ],
  });
}

describe('permissions in a channel (the local Discord)', () => {
  it("are the guild's where the channel has no overwrites", () => {
    const g = guild();
    expect(g.permissionsIn(MEMBER, TEXT)).toBe(DEFAULT_PERMISSIONS);
    expect(g.channels.get(QUIET)?.rateLimitPerUser).toBe(30);
  });

  it("apply @everyone, then the roles, then the member's own overwrite, each deny before its allow", () => {
    const g = guild();
    const modRole = g.members.get(MOD)?.roles[0] ?? '';
    const channel = g.channels.get(TEXT);
    if (!channel) throw new Error('no channel');
    channel.overwrites = [
      { id: GUILD, type: 0, allow: 0n, deny: P.SendMessages },
      { id: modRole, type: 0, allow: P.SendMessages, deny: 0n },
      { id: MEMBER, type: 1, allow: P.SendVoiceMessages, deny: 0n },
    ];
    // @everyone's deny holds for the member; their own allow adds Send Voice Messages, which without Send
    // Messages does not count in a text channel (nor does Attach Files).
    const member = g.permissionsIn(MEMBER, TEXT);
    expect(member & P.SendMessages).toBe(0n);
    expect(member & P.AttachFiles).toBe(0n);
    expect(member & P.SendVoiceMessages).toBe(0n);
    expect(member & P.ViewChannel).toBe(P.ViewChannel);
    // The role's allow beats @everyone's deny.
    expect(g.permissionsIn(MOD, TEXT) & P.SendMessages).toBe(P.SendMessages);
    // A member's own deny beats their role's allow.
    channel.overwrites.push({ id: MOD, type: 1, allow: 0n, deny: P.SendMessages });
    expect(g.permissionsIn(MOD, TEXT) & P.SendMessages).toBe(0n);
  });

  it('are none at all without View Channel, and all for the owner and administrators', () => {
    const g = guild();
    const channel = g.channels.get(TEXT);
    if (!channel) throw new Error('no channel');
    channel.overwrites = [{ id: MEMBER, type: 1, allow: 0n, deny: P.ViewChannel }];
    expect(g.permissionsIn(MEMBER, TEXT)).toBe(0n);
    channel.overwrites = [{ id: GUILD, type: 0, allow: 0n, deny: ALL_PERMISSIONS }];
    expect(g.permissionsIn(g.ownerId, TEXT)).toBe(ALL_PERMISSIONS);
  });
});
