// The local Discord's timeouts as Discord documents them: Modify Guild Member's `communication_disabled_until` (Moderate
// Members; never the owner or an administrator; at most 28 days ahead; null lifts it), GUILD_MEMBER_UPDATE, the
// member object carrying the time, and "Permissions for Timed Out Members": all but View Channel and Read Message
// History gone until it ends, so the member posts nothing and joins no voice channel.
import { Events, GatewayIntentBits, PermissionFlagsBits as P, type GuildMember, type Interaction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DiscordRefusal } from '@saybot/local-discord';
import { GatewayIntent, MAX_TIMEOUT_MS, TIMED_OUT_PERMISSIONS, memberPayload } from '@saybot/local-discord/state.ts';
import { guildState, useLoggedInClient } from './helpers.ts';

const GUILD = '400000000000000031';
const TEXT = '410000000000000031';
const VOICE = '420000000000000031';
const OTHER_VOICE = '420000000000000032';
const MEMBER = '430000000000000031';
const MOD = '430000000000000032';
const ADMIN = '430000000000000033';
const PLAIN = '430000000000000034';

const spec = {
  id: GUILD,
  name: 'g',
  textChannelId: TEXT,
  // An overwrite allowing the member Speak and Send Messages: a timeout takes these too.
  voiceChannels: [
    { id: VOICE, name: 'v', overwrites: [{ id: MEMBER, type: 1 as const, allow: P.Speak | P.SendMessages }] },
    { id: OTHER_VOICE, name: 'w' },
  ],
  members: [
    { id: MEMBER, username: 'member', voiceChannelId: VOICE },
    { id: MOD, username: 'mod', permissions: P.ModerateMembers },
    { id: ADMIN, username: 'admin', permissions: P.Administrator },
    { id: PLAIN, username: 'plain' },
  ],
  botPermissions: P.ModerateMembers | P.ViewChannel | P.SendMessages,
};

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('timeouts (the local Discord, state)', () => {
  it('leave a timed-out member View Channel and Read Message History only, everywhere, until the time passes', () => {
    const g = guildState(spec);
    const until = inMinutes(10);
    expect(g.setTimedOutUntil(MOD, MEMBER, until)).toBeUndefined();
    expect(g.isTimedOut(MEMBER)).toBe(true);
    expect(g.permissionsIn(MEMBER, TEXT)).toBe(TIMED_OUT_PERMISSIONS);
    // The channel's own allow (Speak, Send Messages) counts for nothing while it lasts.
    expect(g.permissionsIn(MEMBER, VOICE)).toBe(P.ViewChannel | P.ReadMessageHistory);
    expect(g.permissionsOf(MEMBER)).toBe(TIMED_OUT_PERMISSIONS);
    expect(memberPayload(g, g.members.get(MEMBER)!, { channelId: TEXT })).toMatchObject({
      communication_disabled_until: until,
      permissions: String(TIMED_OUT_PERMISSIONS),
    });
    // Ended: the value stays (Discord leaves it), the member's rights are back.
    expect(g.isTimedOut(MEMBER, Date.parse(until) + 1)).toBe(false);
    expect(g.setTimedOutUntil(MOD, MEMBER, null)).toBeUndefined();
    expect(g.permissionsIn(MEMBER, VOICE) & P.Speak).toBe(P.Speak);
    expect(memberPayload(g, g.members.get(MEMBER)!)).toMatchObject({ communication_disabled_until: null });
  });

  it('is refused without Moderate Members, for the owner and an administrator, past 28 days, and for a bad time', () => {
    const g = guildState(spec);
    const missing = { status: 403, code: 50013 };
    expect(g.setTimedOutUntil(PLAIN, MEMBER, inMinutes(10))).toMatchObject(missing);
    expect(g.setTimedOutUntil(MOD, ADMIN, inMinutes(10))).toMatchObject(missing);
    expect(g.setTimedOutUntil(MOD, g.ownerId, inMinutes(10))).toMatchObject(missing);
    expect(g.setTimedOutUntil(MOD, MEMBER, inMinutes(MAX_TIMEOUT_MS / 60_000 + 5))).toMatchObject({
      status: 400,
      code: 50035,
    });
    expect(g.setTimedOutUntil(MOD, MEMBER, 'tomorrow')).toMatchObject({ status: 400, code: 50035 });
    expect(g.setTimedOutUntil(MOD, '430000000000000099', inMinutes(10))).toMatchObject({ status: 404, code: 10007 });
    expect(g.isTimedOut(MEMBER)).toBe(false);
  });
});

describe('timeouts (the local Discord, seen by discord.js)', () => {
  const rig = useLoggedInClient({ guilds: [spec], dave: 'off' });

  it('PATCH /guilds/{guild}/members/{user} times out and lifts: the member object and a lookup carry the time', async () => {
    const until = inMinutes(10);
    const patched = (await rig.client.rest.patch(`/guilds/${GUILD}/members/${MEMBER}`, {
      body: { communication_disabled_until: until },
    })) as { communication_disabled_until: string | null };
    expect(patched.communication_disabled_until).toBe(until);
    const guild = rig.client.guilds.cache.get(GUILD)!;
    const fetched = await guild.members.fetch({ user: MEMBER, force: true });
    expect(fetched.isCommunicationDisabled()).toBe(true);
    expect(fetched.communicationDisabledUntil?.toISOString()).toBe(until);
    // Not the owner's, nor past 28 days.
    await expect(
      rig.client.rest.patch(`/guilds/${GUILD}/members/${guild.ownerId}`, {
        body: { communication_disabled_until: until },
      }),
    ).rejects.toMatchObject({ status: 403, code: 50013 });
    await rig.client.rest.patch(`/guilds/${GUILD}/members/${MEMBER}`, { body: { communication_disabled_until: null } });
    expect((await guild.members.fetch({ user: MEMBER, force: true })).isCommunicationDisabled()).toBe(false);
  });

  it("an interaction of a timed-out member carries the time, and the member's permissions cut to View and Read History", async () => {
    rig.fake.setMemberTimeout(GUILD, MEMBER, new Date(Date.now() + 10 * 60_000));
    try {
      const seen = new Promise<Interaction>((resolve) => rig.client.once(Events.InteractionCreate, resolve));
      await rig.fake.command({ guildId: GUILD, userId: MEMBER, name: 'say' });
      const interaction = await seen;
      const member = interaction.member as GuildMember;
      expect(member.isCommunicationDisabled()).toBe(true);
      expect(interaction.memberPermissions?.bitfield).toBe(P.ViewChannel | P.ReadMessageHistory);
    } finally {
      rig.fake.setMemberTimeout(GUILD, MEMBER, null);
    }
  });

  it('a timed-out member can post no message and join no voice channel; lifted, both again', async () => {
    rig.fake.setMemberTimeout(GUILD, MEMBER, new Date(Date.now() + 10 * 60_000), MOD);
    const message = { id: '440000000000000031', guildId: GUILD, channelId: TEXT, content: 'hi' };
    const author = { id: MEMBER, username: 'member' };
    try {
      await expect(rig.fake.postMessage({ ...message, author })).rejects.toBeInstanceOf(DiscordRefusal);
      expect(() => rig.fake.setVoiceState(GUILD, MEMBER, OTHER_VOICE)).toThrow(/timed out/);
      // Not without Moderate Members.
      expect(() => rig.fake.setMemberTimeout(GUILD, MEMBER, null, PLAIN)).toThrow(/403 50013/);
    } finally {
      rig.fake.setMemberTimeout(GUILD, MEMBER, null, MOD);
    }
    rig.fake.setVoiceState(GUILD, MEMBER, OTHER_VOICE);
    rig.fake.setVoiceState(GUILD, MEMBER, VOICE);
  });
});

describe('timeouts (the local Discord, with the Guild Members intent)', () => {
  const rig = useLoggedInClient(
    { guilds: [spec], dave: 'off', allowedPrivilegedIntents: GatewayIntent.GuildMembers },
    { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates, GatewayIntentBits.GuildMembers] },
  );

  it('GUILD_MEMBER_UPDATE carries the timeout and its lifting', async () => {
    const guild = rig.client.guilds.cache.get(GUILD)!;
    await guild.members.fetch(MEMBER);
    const next = () =>
      new Promise<GuildMember>((resolve) => rig.client.once(Events.GuildMemberUpdate, (_, member) => resolve(member)));
    const timedOut = next();
    rig.fake.setMemberTimeout(GUILD, MEMBER, new Date(Date.now() + 5 * 60_000));
    expect((await timedOut).isCommunicationDisabled()).toBe(true);
    const lifted = next();
    rig.fake.setMemberTimeout(GUILD, MEMBER, null);
    expect((await lifted).isCommunicationDisabled()).toBe(false);
  });
});
