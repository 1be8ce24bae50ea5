// The local Discord models what an owner's choice of servers needs, as Discord documents it: the application's
// Public Bot switch (`bot_public` of GET /applications/@me) and its owner, the bot added to a new server while it runs
// (GUILD_CREATE), and the bot leaving one (DELETE /users/@me/guilds/{guild.id}: 204, then GUILD_DELETE without
// `unavailable`, its member and voice state gone).
import { describe, expect, it, vi } from 'vitest';
import { VoiceConnectionStatus } from '@discordjs/voice';
import { Events, type Guild } from 'discord.js';
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
    await vi.waitFor(() => expect(connection.state.status).toBe(VoiceConnectionStatus.Destroyed));
    // Gone from the bot's world: REST knows it no more, and leaving again is an unknown guild.
    await expect(rig.client.rest.get(`/guilds/${g1.id}`)).rejects.toMatchObject({ status: 404, code: 10004 });
    await expect(rig.client.rest.delete(`/users/@me/guilds/${g1.id}`)).rejects.toMatchObject({
      status: 404,
      code: 10004,
    });

    // Added back, it is a member again with a role of its own, out of voice.
    const back = new Promise<Guild>((resolve) => rig.client.once(Events.GuildCreate, resolve));
    rig.fake.addBotBack(g1.id);
    const guild = await back;
    expect(guild.members.me?.roles.cache.some((r) => r.managed)).toBe(true);
    expect(rig.fake.botVoiceChannel(g1.id)).toBeNull();
  });
});
