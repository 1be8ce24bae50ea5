// The local Discord models what an owner's choice of servers needs, as Discord documents it: the application's
// Public Bot switch (`bot_public` of GET /applications/@me) and its owner, the bot added to a new server while it runs
// (GUILD_CREATE), and the bot leaving one (DELETE /users/@me/guilds/{guild.id}: 204, then GUILD_DELETE without
// `unavailable`, its member and voice state gone).
import { describe, expect, it, vi } from 'vitest';
import { VoiceConnectionStatus } from '@discordjs/voice';
import { Events, GatewayIntentBits, type Guild, type GuildBan, type GuildMember } from 'discord.js';
import { GatewayIntent } from '@saybot/local-discord';
import { APP_ID, guildSpec, joinReady, useLoggedInClient } from './helpers.ts';

const g1 = guildSpec(1);
const g2 = guildSpec(2);

describe('FakeDiscord: Public Bot, joining and leaving servers', () => {
  const rig = useLoggedInClient({ guilds: [g1], botPublic: true, applicationOwnerId: g1.members[1]!.id, dave: 'off' });

  it('GET /applications/@me says bot_public as the owner last set it, and who the owner is', async () => {
    const application = await rig.client.application?.fetch();
    expect(application?.botPublic).toBe(true);
    expect(application?.owner?.id).toBe(g1.members[1]!.id);
    rig.fake.setBotPublic(false);
    expect((await rig.client.application?.fetch())?.botPublic).toBe(false);
  });

  it('addGuild: GUILD_CREATE reaches a running client, which sees the new server as joined', async () => {
    const joined = new Promise<Guild>((resolve) => rig.client.once(Events.GuildCreate, resolve));
    rig.fake.addGuild(g2);
    const guild = await joined;
    expect(guild.id).toBe(g2.id);
    expect(guild.members.me?.id).toBe(APP_ID);
    expect(guild.channels.cache.has(g2.textChannelId)).toBe(true);
  });

  it('leaving: 204, GUILD_DELETE without unavailable, the bot out of voice and no longer a member', async () => {
    const connection = await joinReady(rig.client, g1.id, g1.voiceChannels[0]!.id);
    expect(rig.fake.botVoiceChannel(g1.id)).toBe(g1.voiceChannels[0]!.id);
    const deleted = new Promise<Guild>((resolve) => rig.client.once(Events.GuildDelete, resolve));
    await rig.client.guilds.cache.get(g1.id)?.leave();
    expect((await deleted).id).toBe(g1.id);
    expect(rig.client.guilds.cache.has(g1.id)).toBe(false);
    expect(
      rig.fake.restLog.some(
        (e) =>
          e.method === 'DELETE' &&
          decodeURIComponent(e.path).endsWith(`/users/@me/guilds/${g1.id}`) &&
          e.status === 204,
      ),
    ).toBe(true);
    // Discord ends its voice session: the library destroys the connection on the guild's deletion.
    await vi.waitFor(() => expect(connection.state.status).toBe(VoiceConnectionStatus.Destroyed), { timeout: 20_000 });
    // Gone from the bot's world: REST knows it no more, and leaving again is an unknown guild.
    await expect(rig.client.rest.get(`/guilds/${g1.id}`)).rejects.toMatchObject({ status: 404, code: 10004 });
    await expect(rig.client.rest.delete(`/users/@me/guilds/${g1.id}`)).rejects.toMatchObject({
      status: 404,
      code: 10004,
    });

    // Its members still have the server, as their clients show it: in voice, moving, writing (to nobody).
    const [alice, bob] = g1.members as [(typeof g1.members)[number], (typeof g1.members)[number]];
    const quiet = g1.voiceChannels[1]!.id;
    expect(rig.fake.botIsIn(g1.id)).toBe(false);
    expect(rig.fake.isMember(g1.id, bob.id)).toBe(true);
    expect(rig.fake.voiceChannelOf(g1.id, alice.id)).toBe(g1.voiceChannels[0]!.id);
    rig.fake.setVoiceState(g1.id, bob.id, quiet);
    expect(rig.fake.voiceChannelOf(g1.id, bob.id)).toBe(quiet);
    const posted = await rig.fake.postMessage({
      id: '190000000000000001',
      channelId: g1.textChannelId,
      guildId: g1.id,
      author: { id: bob.id, username: 'bob1' },
      content: 'is anyone there?',
    });
    expect(posted).toBe(false);

    // Added back, it is a member again with a role of its own, out of voice, and sees who is where now.
    const back = new Promise<Guild>((resolve) => rig.client.once(Events.GuildCreate, resolve));
    rig.fake.addBotBack(g1.id);
    const guild = await back;
    expect(rig.fake.botIsIn(g1.id)).toBe(true);
    expect(guild.members.me?.roles.cache.some((r) => r.managed)).toBe(true);
    expect(rig.fake.botVoiceChannel(g1.id)).toBeNull();
    expect(guild.voiceStates.cache.get(bob.id)?.channelId).toBe(quiet);
    rig.fake.setVoiceState(g1.id, bob.id, null);
  });
});

// A member kicked, banned or given other roles: Discord tells a bot only with the privileged Guild Members intent
// (and bans with Guild Moderation); without it, only asking (GET /guilds/{id}/members/{user}) finds out.
describe('FakeDiscord: members removed and roles changed, without the Guild Members intent', () => {
  const rig = useLoggedInClient({ guilds: [guildSpec(3)], dave: 'off' });
  const g3 = guildSpec(3);
  const [alice, bob] = [g3.members[0]!, g3.members[1]!];

  it('a kick: the cache keeps the member, REST answers Unknown Member, the person can still be looked up', async () => {
    const guild = rig.client.guilds.cache.get(g3.id)!;
    await guild.members.fetch(alice.id);
    rig.fake.removeMember(g3.id, alice.id);
    await expect(rig.client.rest.get(`/guilds/${g3.id}/members/${alice.id}`)).rejects.toMatchObject({
      status: 404,
      code: 10007,
    });
    expect(guild.members.cache.has(alice.id)).toBe(true);
    expect(rig.fake.voiceChannelOf(g3.id, alice.id)).toBeNull();
    expect(((await rig.client.rest.get(`/users/${alice.id}`)) as { id: string }).id).toBe(alice.id);
  });

  it('roles taken: the cache keeps the old roles, REST gives the new ones', async () => {
    const guild = rig.client.guilds.cache.get(g3.id)!;
    const before = await guild.members.fetch(bob.id);
    expect(before.roles.cache.size).toBeGreaterThan(1);
    rig.fake.setMemberRoles(g3.id, bob.id, []);
    expect(rig.fake.memberRoles(g3.id, bob.id)).toEqual([]);
    expect(guild.members.cache.get(bob.id)?.roles.cache.size).toBe(before.roles.cache.size);
    const fresh = (await rig.client.rest.get(`/guilds/${g3.id}/members/${bob.id}`)) as { roles: string[] };
    expect(fresh.roles).toEqual([]);
  });
});

describe('FakeDiscord: members removed and roles changed, with the Guild Members and Moderation intents', () => {
  const g4 = guildSpec(4);
  const [alice, bob] = [g4.members[0]!, g4.members[1]!];
  const rig = useLoggedInClient(
    { guilds: [g4], dave: 'off', allowedPrivilegedIntents: GatewayIntent.GuildMembers },
    {
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildVoiceStates,
        GatewayIntentBits.GuildMembers,
        GatewayIntentBits.GuildModeration,
      ],
    },
  );

  it('GUILD_MEMBER_UPDATE, GUILD_BAN_ADD and GUILD_MEMBER_REMOVE reach the bot', async () => {
    const guild = rig.client.guilds.cache.get(g4.id)!;
    await guild.members.fetch(bob.id);
    await guild.members.fetch(alice.id);
    const updated = new Promise<GuildMember>((resolve) =>
      rig.client.once(Events.GuildMemberUpdate, (_, member) => resolve(member)),
    );
    rig.fake.setMemberRoles(g4.id, bob.id, []);
    expect((await updated).roles.cache.size).toBe(1); // @everyone's alone
    const banned = new Promise<GuildBan>((resolve) => rig.client.once(Events.GuildBanAdd, resolve));
    const removed = new Promise<string>((resolve) =>
      rig.client.once(Events.GuildMemberRemove, (member) => resolve(member.id)),
    );
    rig.fake.removeMember(g4.id, alice.id, 'ban');
    expect((await banned).user.id).toBe(alice.id);
    expect(await removed).toBe(alice.id);
    expect(guild.members.cache.has(alice.id)).toBe(false);
  });
});
