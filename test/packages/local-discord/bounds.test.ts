// The local Discord keeps bounded lists when told to (FakeDiscordOptions.retain, as the playground runs it until
// stopped), and never lets a client that does not read its gateway socket grow the process: each list is filled past
// its bound here, and the slow client is dropped. A raw gateway client (ws) stands for the bot: nothing else runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeDiscord } from '@saybot/local-discord';
import { APP_ID, guildSpec, TOKEN } from './helpers.ts';

const g1 = guildSpec(1);
const alice = g1.members[0]!;
const RETAIN = 5;
const INTENTS = (1 << 0) | (1 << 7); // Guilds, GuildVoiceStates

interface RawClient {
  ws: WebSocket;
  /** Every dispatch's type, in order. */
  events: string[];
}

/** A gateway client that identifies and waits for READY, reading nothing it is not asked to. */
async function rawClient(fake: FakeDiscord): Promise<RawClient> {
  const ws = new WebSocket(`${fake.gatewayUrl}?v=10&encoding=json`);
  const events: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data: Buffer) => {
      const packet = JSON.parse(data.toString('utf8')) as { op: number; t: string | null };
      if (packet.op === 10) ws.send(JSON.stringify({ op: 2, d: { token: TOKEN, intents: INTENTS, properties: {} } }));
      if (packet.op === 0 && packet.t !== null) events.push(packet.t);
      if (packet.t === 'GUILD_CREATE') resolve();
    });
  });
  await ready;
  return { ws, events };
}

async function rest(fake: FakeDiscord, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${fake.restUrl}/v10${path}`, {
    method: 'POST',
    headers: { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

describe('the local Discord with retain: every list stays at its bound, the newest kept', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [g1],
      retain: { entries: RETAIN, heardSeconds: 1 },
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('direct messages SayBot sends: the newest `entries`', async () => {
    const channel = await rest(fake, '/users/@me/channels', { recipient_id: alice.id });
    for (let i = 0; i < RETAIN + 3; i++)
      await rest(fake, `/channels/${String(channel.id)}/messages`, { content: `dm ${i}` });
    const kept = fake.directMessages(alice.id).map((m) => m.message.content);
    expect(kept).toEqual([3, 4, 5, 6, 7].map((i) => `dm ${i}`));
  });

  it('CDN requests logged (server icons and avatars as much as attachments): the newest `entries`', async () => {
    for (let i = 0; i < RETAIN + 3; i++) {
      const answer = await fetch(`${fake.cdnUrl}/embed/avatars/${i % 6}.png?size=${16 + i}`);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    expect(fake.cdnLog.map((e) => e.path)).toEqual(
      [3, 4, 5, 6, 7].map((i) => `/embed/avatars/${i % 6}.png?size=${16 + i}`),
    );
  });

  it('voice joins asked for: the newest `entries`', async () => {
    const client = await rawClient(fake);
    try {
      const [lounge, quiet] = g1.voiceChannels;
      for (let i = 0; i < RETAIN + 4; i++) {
        const channelId = (i % 2 === 0 ? lounge : quiet)!.id;
        client.ws.send(JSON.stringify({ op: 4, d: { guild_id: g1.id, channel_id: channelId } }));
      }
      const servers = () => client.events.filter((t) => t === 'VOICE_SERVER_UPDATE').length;
      await expect.poll(servers).toBe(RETAIN + 4);
      expect(fake.voiceJoinRequests(g1.id)).toBe(RETAIN);
    } finally {
      client.ws.terminate();
    }
  });

  it('a gateway client that stops reading is dropped once its socket holds 4 MiB (before, it grew without end)', async () => {
    const client = await rawClient(fake);
    try {
      expect(fake.gatewayConnected(g1.id)).toBe(true);
      // The client stops reading: what the gateway sends piles up in its socket, then in the server's buffer.
      (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      // Each move of alice is a VOICE_STATE_UPDATE of some 700 bytes: 40,000 are 28 MB, far past the bound.
      let moves = 0;
      for (; moves < 40_000 && fake.gatewayConnected(g1.id); moves++) {
        fake.setVoiceState(g1.id, alice.id, g1.voiceChannels[moves % 2]!.id);
        if (moves % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(fake.gatewayConnected(g1.id)).toBe(false);
      expect(moves).toBeLessThan(40_000);
    } finally {
      client.ws.terminate();
    }
  });
});
