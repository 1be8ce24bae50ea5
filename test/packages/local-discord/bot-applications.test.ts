// Several bot applications in one local Discord, as on Discord: each token its own application and bot user (READY,
// GUILD_CREATE only for its servers, GET /applications/@me), 4004 for an unknown or reset token, voice per (server,
// bot) with its own voice gateway, UDP and DAVE session, audio heard per voice channel, one bot removed while the
// other stays, and the identify budget per token. Each bot is a real discord.js client of its own.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { entersState, joinVoiceChannel, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import { Client, Events, GatewayIntentBits, PermissionFlagsBits, type Guild } from 'discord.js';
import { DEFAULT_PERMISSIONS, FakeDiscord, fakeToken, type FakeBotApplication } from '@saybot/local-discord';
import { APP_ID, TOKEN, dominantHz, guildSpec, playOpus, sineOpusPackets, trustCertificate } from './helpers.ts';

const base = guildSpec(7);
const lounge = base.voiceChannels[0]!.id;
const quiet = base.voiceChannels[1]!.id;
const carol = { id: '220000000000000007', username: 'carol7', voiceChannelId: quiet };
const g = { ...base, members: [...base.members, carol] };
const other = guildSpec(8);

async function loginAs(fake: FakeDiscord, token: string): Promise<Client> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates],
    rest: { api: fake.restUrl },
  });
  const ready = once(client, Events.ClientReady);
  await client.login(token);
  await ready;
  return client;
}

/** Joins as `client`'s bot: @discordjs/voice keys connections by group and guild, so each bot has its own group. */
async function join(client: Client, channelId: string): Promise<VoiceConnection> {
  const guild = client.guilds.cache.get(g.id);
  if (!guild || !client.user) throw new Error('the client does not know the guild');
  const connection = joinVoiceChannel({
    guildId: g.id,
    channelId,
    group: client.user.id,
    adapterCreator: guild.voiceAdapterCreator,
    selfDeaf: true,
  });
  await entersState(connection, VoiceConnectionStatus.Ready, 10_000);
  return connection;
}

/** A raw gateway socket that identifies with `token`: resolves with READY's data, or the close code. */
async function identify(fake: FakeDiscord, token: string): Promise<{ ws: WebSocket; ready?: unknown; code?: number }> {
  const ws = new WebSocket(`${fake.gatewayUrl}?v=10&encoding=json`);
  return new Promise((resolve) => {
    ws.on('message', (data: Buffer) => {
      const packet = JSON.parse(data.toString('utf8')) as { op: number; t?: string; d?: unknown };
      if (packet.op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents: 1, properties: {} } }));
      if (packet.t === 'READY') resolve({ ws, ready: packet.d });
    });
    ws.on('close', (code) => resolve({ ws, code }));
  });
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.on('close', (code) => resolve(code)));
}

describe('FakeDiscord: several bot applications in one server', () => {
  let fake: FakeDiscord;
  let main: Client;
  let helper: FakeBotApplication;
  let helperClient: Client;
  const connections: VoiceConnection[] = [];

  beforeAll(async () => {
    fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [g, other],
      log: () => undefined,
      identifyLimit: 3,
    });
    trustCertificate(fake.caCertificatePem);
    helper = fake.addBotApplication({ username: 'SayBot 2' });
    fake.inviteBot(g.id, helper.userId);
    main = await loginAs(fake, TOKEN);
    helperClient = await loginAs(fake, helper.token);
  });

  afterAll(async () => {
    for (const connection of connections)
      if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    await helperClient?.destroy();
    await main?.destroy();
    await fake?.close();
  });

  it('each token is its own application: READY and GET /applications/@me say whose, GUILD_CREATE only its servers', async () => {
    expect(helper.token).not.toBe(TOKEN);
    expect(helperClient.user?.id).toBe(helper.userId);
    expect(helperClient.user?.username).toBe('SayBot 2');
    expect(helperClient.application?.id).toBe(helper.applicationId);
    expect([...helperClient.guilds.cache.keys()]).toEqual([g.id]);
    expect([...main.guilds.cache.keys()].sort()).toEqual([g.id, other.id].sort());
    const app = await helperClient.application?.fetch();
    expect(app?.id).toBe(helper.applicationId);
    expect(app?.botPublic).toBe(false);
    expect(app?.name).toBe('SayBot 2');
    expect((await main.application?.fetch())?.id).toBe(APP_ID);
    // Each bot sees the other as a member of the server, and REST answers each as itself.
    expect((await main.guilds.cache.get(g.id)?.members.fetch(helper.userId))?.user.bot).toBe(true);
    expect(await helperClient.rest.get('/users/@me')).toMatchObject({ id: helper.userId });
    await expect(helperClient.rest.get(`/guilds/${other.id}`)).rejects.toMatchObject({ status: 404, code: 10004 });
    // Commands are the application's own: the helper has none, and may not write the main application's.
    await expect(
      helperClient.rest.put(`/applications/${APP_ID}/commands`, { body: [{ name: 'say', description: 'x' }] }),
    ).rejects.toMatchObject({ status: 404, code: 10002 });
    expect(await helperClient.rest.get(`/applications/${helper.applicationId}/commands`)).toEqual([]);
  });

  it('two bots in two voice channels of one server at once: each heard only in its own channel', async () => {
    const [mainVoice, helperVoice] = await Promise.all([join(main, lounge), join(helperClient, quiet)]);
    connections.push(mainVoice, helperVoice);
    expect(fake.botVoiceChannel(g.id)).toBe(lounge);
    expect(fake.botVoiceChannel(g.id, helper.userId)).toBe(quiet);
    // Each bot's voice state reaches the other bot too, keyed by (server, user).
    await vi.waitFor(
      () => expect(main.guilds.cache.get(g.id)?.voiceStates.cache.get(helper.userId)?.channelId).toBe(quiet),
      { timeout: 5_000, interval: 10 },
    );
    // Each bot a member of its own channel's DAVE group, with the people there.
    const [mainDave, helperDave] = await Promise.all([
      fake.daveReady(g.id),
      fake.daveReady(g.id, undefined, helper.userId),
    ]);
    expect(mainDave.channelId).toBe(lounge);
    expect(mainDave.members).toContain(APP_ID);
    expect(helperDave.channelId).toBe(quiet);
    expect(helperDave.members).toEqual(expect.arrayContaining([helper.userId, carol.id]));
    expect(helperDave.members).not.toContain(APP_ID);
    fake.clearAudio(g.id);
    await Promise.all([
      playOpus(mainVoice, sineOpusPackets(440, 0.6)),
      playOpus(helperVoice, sineOpusPackets(660, 0.6)),
    ]);
    const [inLounge, inQuiet] = await Promise.all([
      fake.waitForAudio({ guildId: g.id, channelId: lounge }, { minSeconds: 0.55 }),
      fake.waitForAudio({ guildId: g.id, channelId: quiet }, { minSeconds: 0.55 }),
    ]);
    expect(inLounge.seconds).toBeLessThan(0.65);
    expect(inQuiet.seconds).toBeLessThan(0.65);
    expect(Math.abs(dominantHz(inLounge.pcm) - 440)).toBeLessThan(5);
    expect(Math.abs(dominantHz(inQuiet.pcm) - 660)).toBeLessThan(5);
    expect(new Set(inLounge.packets.map((p) => p.ssrc)).size).toBe(1);
    expect(inQuiet.packets.some((p) => inLounge.packets.some((q) => q.ssrc === p.ssrc))).toBe(false);
    // The server as a whole heard both.
    expect(fake.heard(g.id).seconds).toBeGreaterThan(1.1);
  });

  it('a bot removed from the server: its voice closed 4014, GUILD_DELETE to it; the other bot stays connected', async () => {
    if (fake.botVoiceChannel(g.id) === null) connections.push(await join(main, lounge));
    if (fake.botVoiceChannel(g.id, helper.userId) === null) connections.push(await join(helperClient, quiet));
    const deleted = once(helperClient, Events.GuildDelete) as Promise<[Guild]>;
    fake.removeBot(g.id, helper.userId);
    expect((await deleted)[0].id).toBe(g.id);
    await fake.waitForVoiceClose(g.id, 4014, undefined, helper.userId);
    expect(fake.botIsIn(g.id, helper.userId)).toBe(false);
    expect(fake.botVoiceChannel(g.id, helper.userId)).toBeNull();
    // Its voice state cleared for everyone: the main bot is told.
    await vi.waitFor(
      () => expect(main.guilds.cache.get(g.id)?.voiceStates.cache.get(helper.userId)?.channelId ?? null).toBeNull(),
      { timeout: 5_000, interval: 10 },
    );
    // The main bot is untouched: in the server, in its channel, its voice session not closed, and still heard.
    expect(fake.botIsIn(g.id)).toBe(true);
    expect(fake.botVoiceChannel(g.id)).toBe(lounge);
    expect(fake.voiceCloses(g.id).filter((c) => c.code === 4014)).toEqual([]);
    expect(fake.gatewayConnected(g.id)).toBe(true);
    const mainVoice = connections.find(
      (c) => c.joinConfig.group === APP_ID && c.state.status === VoiceConnectionStatus.Ready,
    );
    expect(mainVoice).toBeDefined();
    fake.clearAudio(g.id);
    await playOpus(mainVoice!, sineOpusPackets(440, 0.3));
    expect(
      (await fake.waitForAudio({ guildId: g.id, channelId: lounge }, { minSeconds: 0.25 })).seconds,
    ).toBeGreaterThan(0.25);
    // Invited again, it is a member again: GUILD_CREATE to its session.
    const created = once(helperClient, Events.GuildCreate) as Promise<[Guild]>;
    fake.inviteBot(g.id, helper.userId);
    expect((await created)[0].id).toBe(g.id);
  });

  it("one bot's gateway dropped: it resumes; the other bot's session is untouched", async () => {
    const resumed = once(helperClient, Events.ShardResume);
    const mainResumed = vi.fn();
    main.once(Events.ShardResume, mainResumed);
    fake.dropGateway(g.id, 4000, helper.userId);
    expect(fake.gatewayConnected(g.id)).toBe(true);
    await vi.waitFor(() => expect(fake.gatewayConnected(g.id, helper.userId)).toBe(true), {
      timeout: 10_000,
      interval: 10,
    });
    await resumed;
    main.off(Events.ShardResume, mainResumed);
    expect(mainResumed).not.toHaveBeenCalled();
  });

  it('an unknown token: gateway close 4004 and REST 401', async () => {
    const { code } = await identify(fake, fakeToken());
    expect(code).toBe(4004);
    const response = await fetch(`${fake.restUrl}/v10/users/@me`, { headers: { authorization: `Bot ${fakeToken()}` } });
    expect(response.status).toBe(401);
  });
});

describe('FakeDiscord: a token reset, and the identify budget, per token', () => {
  let fake: FakeDiscord;

  beforeAll(async () => {
    fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [g],
      log: () => undefined,
      identifyLimit: 2,
    });
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('resetBotToken: the live session closes 4004, the old token is refused (REST 401, IDENTIFY 4004), the new one works', async () => {
    const bot = fake.addBotApplication();
    fake.inviteBot(g.id, bot.userId);
    const live = await identify(fake, bot.token);
    expect(live.ready).toMatchObject({ user: { id: bot.userId }, application: { id: bot.applicationId } });
    const liveClosed = closed(live.ws);
    const fresh = fake.resetBotToken(bot.userId);
    expect(await liveClosed).toBe(4004);
    expect((await identify(fake, bot.token)).code).toBe(4004);
    const refused = await fetch(`${fake.restUrl}/v10/users/@me`, { headers: { authorization: `Bot ${bot.token}` } });
    expect(refused.status).toBe(401);
    const again = await identify(fake, fresh);
    expect(again.ready).toMatchObject({ user: { id: bot.userId } });
    again.ws.close();
  });

  it("one token spending its day's identifies: its token is reset (4004); another token's budget is its own", async () => {
    const spender = fake.addBotApplication();
    for (let i = 0; i < 2; i++) {
      const session = await identify(fake, spender.token);
      expect(session.ready).toBeDefined();
      session.ws.close();
    }
    expect(fake.sessionStartLimit(spender.userId).remaining).toBe(0);
    expect((await identify(fake, spender.token)).code).toBe(4004);
    expect(fake.botToken(spender.userId)).not.toBe(spender.token);
    // GET /gateway/bot answers per token: the main bot's budget is untouched.
    const gateway = (await (
      await fetch(`${fake.restUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${TOKEN}` } })
    ).json()) as { session_start_limit: { total: number; remaining: number } };
    expect(gateway.session_start_limit).toMatchObject({ total: 2, remaining: 2 });
    const main = await identify(fake, TOKEN);
    expect(main.ready).toMatchObject({ user: { id: APP_ID } });
    expect(fake.sessionStartLimit().remaining).toBe(1);
    main.ws.close();
  });
});

/** A raw gateway session for `token` with `intents`: the dispatches it receives, in order. */
async function session(fake: FakeDiscord, token: string, intents: number) {
  const ws = new WebSocket(`${fake.gatewayUrl}?v=10&encoding=json`);
  const events: Array<{ t: string; d: Record<string, unknown> }> = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const packet = JSON.parse(data.toString('utf8')) as { op: number; t?: string; d?: Record<string, unknown> };
      if (packet.op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents, properties: {} } }));
      if (packet.op === 0 && packet.t) events.push({ t: packet.t, d: packet.d ?? {} });
      if (packet.t === 'READY') resolve();
    });
    ws.on('close', (code) => reject(new Error(`gateway closed ${code}`)));
  });
  return { ws, events };
}

function rest(fake: FakeDiscord, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${fake.restUrl}/v10${path}`, {
    method,
    headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('FakeDiscord: each application its own commands, interactions, messages, voice status and Stage', () => {
  const stage = '140000000000000009';
  const spec = { ...guildSpec(9), stageChannels: [{ id: stage, name: 'Stage' }] };
  const textChannel = spec.textChannelId;
  const quiet9 = spec.voiceChannels[1]!.id;
  const GUILDS = 1;
  const GUILD_MESSAGES = 1 << 9;
  let fake: FakeDiscord;
  let helper: FakeBotApplication;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [spec], log: () => undefined });
    helper = fake.addBotApplication();
    fake.inviteBot(
      spec.id,
      helper.userId,
      DEFAULT_PERMISSIONS | PermissionFlagsBits.SetVoiceChannelStatus | PermissionFlagsBits.MuteMembers,
    );
  });

  afterAll(async () => {
    for (const ws of sockets) ws.close();
    await fake?.close();
  });

  it("a member's message reaches both bots with Guild Messages, its content only where it may be read", async () => {
    const main = await session(fake, TOKEN, GUILDS | GUILD_MESSAGES);
    const second = await session(fake, helper.token, GUILDS | GUILD_MESSAGES);
    sockets.push(main.ws, second.ws);
    const alice = spec.members[0]!;
    expect(
      await fake.postMessage({
        id: '900000000000000001',
        channelId: textChannel,
        guildId: spec.id,
        author: { id: alice.id, username: alice.username },
        content: `hello <@${helper.userId}>`,
        mentions: [{ id: helper.userId, username: helper.username }],
      }),
    ).toBe(true);
    const created = (events: typeof main.events) => events.find((e) => e.t === 'MESSAGE_CREATE')?.d;
    await vi.waitFor(
      () => {
        expect(created(main.events)).toBeDefined();
        expect(created(second.events)).toBeDefined();
      },
      { timeout: 5_000, interval: 10 },
    );
    // Neither has Message Content: the mentioned helper reads it, the main bot does not.
    expect(created(second.events)?.content).toBe(`hello <@${helper.userId}>`);
    expect(created(main.events)?.content).toBe('');
  });

  it("commands are registered per application, and a button on a helper's message goes to the helper alone", async () => {
    const put = await rest(fake, helper.token, 'PUT', `/applications/${helper.applicationId}/commands`, [
      { name: 'ping', description: 'p' },
    ]);
    expect(put.status).toBe(200);
    expect(fake.registeredCommands(undefined, helper.userId)).toEqual([expect.objectContaining({ name: 'ping' })]);
    expect(fake.registeredCommands()).toEqual([]);
    const posted = await rest(fake, helper.token, 'POST', `/channels/${textChannel}/messages`, {
      content: 'pick',
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] }],
    });
    expect(posted.status).toBe(200);
    const message = (await posted.json()) as { id: string; author: { id: string } };
    expect(message.author.id).toBe(helper.userId);
    const main = await session(fake, TOKEN, GUILDS);
    const second = await session(fake, helper.token, GUILDS);
    sockets.push(main.ws, second.ws);
    const press = await fake.pressButton({
      guildId: spec.id,
      userId: spec.members[0]!.id,
      messageId: message.id,
      customId: 'go',
    });
    expect(press.applicationId).toBe(helper.applicationId);
    await vi.waitFor(() => expect(second.events.some((e) => e.t === 'INTERACTION_CREATE')).toBe(true), {
      timeout: 5_000,
      interval: 10,
    });
    const sent = second.events.find((e) => e.t === 'INTERACTION_CREATE')?.d;
    expect(sent?.application_id).toBe(helper.applicationId);
    expect(main.events.some((e) => e.t === 'INTERACTION_CREATE')).toBe(false);
    const answered = await fetch(`${fake.restUrl}/v10/interactions/${press.id}/${press.token}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 4, data: { content: 'went' } }),
    });
    expect(answered.status).toBe(204);
    const response = await press.waitForFinal();
    expect(response.message?.author).toMatchObject({ id: helper.userId });
    // A server's command permissions of the main application are told to its bot alone.
    fake.setCommandPermissions(spec.id, APP_ID, [{ id: spec.id, type: 1, permission: false }]);
    await vi.waitFor(
      () => expect(main.events.some((e) => e.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE')).toBe(true),
      { timeout: 5_000, interval: 10 },
    );
    expect(second.events.some((e) => e.t === 'APPLICATION_COMMAND_PERMISSIONS_UPDATE')).toBe(false);
    // Its answers are recorded with the helper's application, apart from the main one's.
    expect(fake.interactions(helper.userId).map((i) => i.id)).toEqual([press.id]);
    expect(fake.interactions().map((i) => i.id)).not.toContain(press.id);
  });

  it("a voice channel's status and a Stage's voice-states/@me are done by the bot whose token calls them", async () => {
    fake.setVoiceState(spec.id, helper.userId, quiet9);
    expect(
      (await rest(fake, helper.token, 'PUT', `/channels/${quiet9}/voice-status`, { status: 'Reading' })).status,
    ).toBe(204);
    expect(fake.voiceChannelStatus(spec.id, quiet9)).toBe('Reading');
    // The main bot is not connected there (and has no Manage Channels): refused.
    expect((await rest(fake, TOKEN, 'PUT', `/channels/${quiet9}/voice-status`, { status: 'x' })).status).toBe(403);
    fake.setVoiceState(spec.id, helper.userId, stage);
    const speak = await rest(fake, helper.token, 'PATCH', `/guilds/${spec.id}/voice-states/@me`, {
      channel_id: stage,
      suppress: false,
    });
    expect(speak.status).toBe(204);
    const state = (await (
      await rest(fake, TOKEN, 'GET', `/guilds/${spec.id}/voice-states/${helper.userId}`)
    ).json()) as {
      channel_id: string;
      suppress: boolean;
    };
    expect(state).toMatchObject({ channel_id: stage, suppress: false });
    // The main bot is in no Stage: the same request with its token is its own, and refused.
    expect(
      (await rest(fake, TOKEN, 'PATCH', `/guilds/${spec.id}/voice-states/@me`, { channel_id: stage, suppress: false }))
        .status,
    ).toBe(400);
  });
});

describe('FakeDiscord: rate limits per token, the invalid request limit per host', () => {
  let fake: FakeDiscord;

  beforeAll(async () => {
    fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [g],
      log: () => undefined,
      invalidRequestLimit: 3,
    });
  });

  afterAll(async () => {
    await fake?.close();
  });

  it("a 429 in one bot's bucket leaves the other's; 401s of any token count together against the host", async () => {
    const helper = fake.addBotApplication();
    fake.inviteBot(g.id, helper.userId);
    fake.rateLimit({ route: 'channel-message', botUserId: helper.userId, retryAfterMs: 60_000 });
    const post = (token: string) =>
      rest(fake, token, 'POST', `/channels/${g.textChannelId}/messages`, { content: 'hi' });
    expect((await post(TOKEN)).status).toBe(200);
    const limited = await post(helper.token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-bucket')).toContain(helper.applicationId);
    expect((await post(helper.token)).status).toBe(200);
    expect(fake.invalidRequests()).toBe(1);
    // Two more refusals (unknown tokens) reach the host's limit: then even a good token is kept out.
    expect((await rest(fake, fakeToken(), 'GET', '/users/@me')).status).toBe(401);
    expect((await rest(fake, fakeToken(), 'GET', '/users/@me')).status).toBe(401);
    expect((await rest(fake, TOKEN, 'GET', '/users/@me')).status).toBe(429);
  });
});

describe("FakeDiscord: an interaction's webhook is its application's bucket", () => {
  let fake: FakeDiscord;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [g], log: () => undefined });
  });

  afterAll(async () => {
    await fake?.close();
  });

  it("a 429 armed for a helper's bucket meets the helper's token-less webhook, not the main application's", async () => {
    const helper = fake.addBotApplication();
    fake.rateLimit({ route: 'webhook-follow-up', botUserId: helper.userId, retryAfterMs: 60_000 });
    const followUp = (applicationId: string) =>
      fetch(`${fake.restUrl}/v10/webhooks/${applicationId}/no-such-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      });
    expect((await followUp(APP_ID)).status).not.toBe(429);
    const limited = await followUp(helper.applicationId);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-bucket')).toContain(helper.applicationId);
  });
});
