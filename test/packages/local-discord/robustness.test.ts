import { createSocket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordAPIError, Events, type Client } from 'discord.js';
import WebSocket from 'ws';
import { FakeDiscord } from '@saybot/local-discord';
import {
  APP_ID,
  TOKEN,
  dominantHz,
  guildSpec,
  joinReady,
  loginClient,
  playOpus,
  sineOpusPackets,
  trustCertificate,
  useLoggedInClient,
} from './helpers.ts';

const g = guildSpec(7);

interface Received {
  messages: Array<{ op: number; d: unknown; t?: string | null }>;
  closed: Promise<number>;
}

function open(url: string, options?: WebSocket.ClientOptions): Promise<{ ws: WebSocket } & Received> {
  const ws = new WebSocket(url, options);
  const messages: Received['messages'] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Received['messages'][number]));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, closed }));
    ws.once('error', reject);
  });
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('FakeDiscord robustness: bad clients get Discord close codes and errors, the fake keeps serving', () => {
  let fake: FakeDiscord;
  const gateway = (): string => `${fake.gatewayUrl}?v=10&encoding=json`;
  const voiceUrl = (): string => `wss://${fake.voiceEndpoint}/?v=8`;

  beforeAll(async () => {
    // DAVE off: these check the fake's own robustness; DAVE has its own tests in dave*.test.ts.
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [g], log: () => {}, dave: 'off' });
    trustCertificate(fake.caCertificatePem);
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('gateway: junk -> 4002, wrong token -> 4004, privileged intents -> 4014, op 4 before IDENTIFY -> 4003', async () => {
    const junk = await open(gateway());
    junk.ws.send('{not json');
    expect(await junk.closed).toBe(4002);
    expect(junk.messages[0]?.op).toBe(10);

    const wrong = await open(gateway());
    wrong.ws.send(JSON.stringify({ op: 2, d: { token: 'nope', intents: 1, properties: {} } }));
    expect(await wrong.closed).toBe(4004);

    const greedy = await open(gateway());
    greedy.ws.send(JSON.stringify({ op: 2, d: { token: TOKEN, intents: 1 | (1 << 1), properties: {} } }));
    expect(await greedy.closed).toBe(4014);

    const early = await open(gateway());
    early.ws.send(JSON.stringify({ op: 4, d: { guild_id: g.id, channel_id: g.voiceChannels[0]!.id } }));
    expect(await early.closed).toBe(4003);

    const binary = await open(gateway());
    binary.ws.send(randomBytes(64));
    expect(await binary.closed).toBe(4002);
  });

  it('gateway: counts the messages clients sent in a recent window (drivers keep under the 120-a-minute limit)', async () => {
    const client = await open(gateway());
    // The whole minute, before and after: a window measured from this test's own clock would shift with any pause
    // between reading it and the count (a busy machine dropped a message off its front).
    const before = fake.gatewayMessagesWithin(60_000);
    for (let i = 0; i < 3; i++) client.ws.send(JSON.stringify({ op: 1, d: null }));
    await until(() => client.messages.filter((m) => m.op === 11).length === 3);
    expect(fake.gatewayMessagesWithin(60_000) - before).toBe(3);
    expect(fake.gatewayMessagesWithin(0)).toBe(0);
    client.ws.close(1000);
    await client.closed;
  });

  it('voice gateway: junk -> 4002, SELECT_PROTOCOL before IDENTIFY -> 4003, IDENTIFY without a VOICE_SERVER_UPDATE -> 4004', async () => {
    const junk = await open(voiceUrl(), { ca: fake.caCertificatePem });
    junk.ws.send('\u0000garbage');
    expect(await junk.closed).toBe(4002);
    expect(junk.messages[0]?.op).toBe(8);

    const early = await open(voiceUrl());
    early.ws.send(
      JSON.stringify({ op: 1, d: { protocol: 'udp', data: { address: '127.0.0.1', port: 1, mode: 'x' } } }),
    );
    expect(await early.closed).toBe(4003);

    const stranger = await open(voiceUrl());
    stranger.ws.send(JSON.stringify({ op: 0, d: { server_id: g.id, user_id: APP_ID, session_id: 's', token: 't' } }));
    expect(await stranger.closed).toBe(4004);

    const heartbeat = await open(voiceUrl());
    heartbeat.ws.send(JSON.stringify({ op: 3, d: { t: 1234, seq_ack: -1 } }));
    await until(() => heartbeat.messages.some((m) => m.op === 6));
    expect(heartbeat.messages.find((m) => m.op === 6)?.d).toEqual({ t: 1234 });
    heartbeat.ws.close();
  });

  it('REST: invalid JSON -> 400 50109, no token -> 401, unknown interaction -> 404 10062', async () => {
    const base = `${fake.restUrl}/v10`;
    const invalid = await fetch(`${base}/applications/${APP_ID}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' },
      body: '[{',
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 50109 });
    const anonymous = await fetch(`${base}/users/@me`);
    expect(anonymous.status).toBe(401);
    const unknown = await fetch(`${base}/interactions/1/nope/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":5}',
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 10062 });
    expect(fake.restLog.at(-1)?.status).toBe(404);
  });

  it('UDP junk (short, random, unknown SSRC, forged) is dropped; a real client still connects and is heard', async () => {
    const socket = createSocket('udp4');
    const send = (packet: Buffer): Promise<void> =>
      new Promise((resolve) => socket.send(packet, fake.voiceUdpPort, '127.0.0.1', () => resolve()));
    const discovery = Buffer.alloc(74);
    discovery.writeUInt16BE(1, 0);
    discovery.writeUInt16BE(70, 2);
    discovery.writeUInt32BE(42, 4);
    for (const packet of [
      Buffer.alloc(0),
      Buffer.from([0x80]),
      randomBytes(7),
      randomBytes(8),
      randomBytes(300),
      discovery,
      Buffer.concat([Buffer.from([0x80, 0x78]), randomBytes(60)]),
    ]) {
      await send(packet);
    }
    socket.close();

    const client: Client = await loginClient(fake);
    const connection = await joinReady(client, g.id, g.voiceChannels[0]!.id);
    try {
      await playOpus(connection, sineOpusPackets(550, 0.3));
      const heard = await fake.waitForAudio(g.id, { minSeconds: 0.25 });
      expect(Math.abs(dominantHz(heard.pcm) - 550)).toBeLessThan(5);
      expect(heard.decryptFailures).toBe(0);
      // A forged datagram with the session's SSRC fails authentication: counted, not decoded.
      const forged = Buffer.concat([Buffer.from([0x80, 0x78, 0, 1, 0, 0, 0, 0]), Buffer.alloc(4), randomBytes(40)]);
      forged.writeUInt32BE(heard.packets[0]!.ssrc, 8);
      const udp = createSocket('udp4');
      await new Promise<void>((resolve) => udp.send(forged, fake.voiceUdpPort, '127.0.0.1', () => resolve()));
      udp.close();
      await until(() => fake.heard(g.id).decryptFailures === 1);
      expect(fake.heard(g.id).seconds).toBe(heard.seconds);
    } finally {
      connection.destroy();
      await client.destroy();
    }
  });

  it('close() settles pending waits and returns while a discord.js client and a voice socket are still connected', async () => {
    const other = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [guildSpec(8)],
      log: () => {},
    });
    const client = await loginClient(other);
    client.on(Events.Error, () => {});
    const voice = await open(`wss://${other.voiceEndpoint}/?v=8`);
    const waiting = expect(other.waitForAudio(guildSpec(8).id, { timeoutMs: 60_000 })).rejects.toThrow(
      'FakeDiscord closed',
    );
    await other.close();
    await waiting;
    expect(await voice.closed).toBeGreaterThan(0);
    await client.destroy();
  });
});

describe('FakeDiscord interaction deadline', () => {
  const rig = useLoggedInClient({ guilds: [guildSpec(9)], interactionTimeoutMs: 150 });

  it('a first callback after the deadline is refused with 10062 Unknown interaction, as Discord does after 3 s', async () => {
    let error: unknown;
    const done = new Promise<void>((resolve) =>
      rig.client.once(Events.InteractionCreate, (i) => {
        if (!i.isChatInputCommand()) return;
        setTimeout(() => {
          i.deferReply()
            .catch((e: unknown) => {
              error = e;
            })
            .finally(resolve);
        }, 300);
      }),
    );
    const handle = await rig.fake.command({
      guildId: guildSpec(9).id,
      userId: guildSpec(9).members[0]!.id,
      name: 'slow',
    });
    await done;
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).code).toBe(10062);
    expect(handle.responses).toHaveLength(0);
    expect(handle.problems[0]).toMatch(/callback \d+ ms after the interaction \(limit 150 ms\)/);
    await expect(handle.waitForFinal(50)).rejects.toThrow(/refused: callback/);
  });
});
