// PlayerRegistry holds a server's player while it is in voice or has clips, and lets it go once it is idle and out of
// voice, so the map is bounded by the servers in voice now, not by every server ever spoken in. Against the local
// Discord with the real @discordjs/voice (DAVE required).
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'discord.js';
import { FakeDiscord } from '@saybot/local-discord';
import { createLogger } from '../../../src/core/log.ts';
import type { GuildPlayer, PlaybackResult } from '../../../src/core/voice/guild-player.ts';
import { PlayerRegistry } from '../../../src/core/voice/seats.ts';
import {
  APP_ID,
  TOKEN,
  guildSpec,
  loginClient,
  sineOpusPackets,
  trustCertificate,
} from '../../packages/local-discord/helpers.ts';

const guilds = Array.from({ length: 4 }, (_, i) => guildSpec(i + 1));
let fake: FakeDiscord;
let client: Client;
let registry: PlayerRegistry;

beforeAll(async () => {
  fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds, dave: 'required' });
  trustCertificate(fake.caCertificatePem);
  client = await loginClient(fake);
  registry = new PlayerRegistry({
    logger: createLogger({ level: 'silent' }),
    idleTimeoutMs: 60_000,
    group: 'player-registry-test',
    readyTimeoutMs: 10_000,
  });
});
afterAll(async () => {
  registry?.destroyAll();
  await client?.destroy();
  await fake?.close();
});

/** A one-clip order of a sine, played in its turn as the pipeline plays one. */
async function playSine(player: GuildPlayer, seconds: number): Promise<PlaybackResult> {
  const turn = player.place({ owner: { label: 'sine' }, clips: 1, channelId: player.channelId ?? 'none' });
  await turn.take();
  try {
    return await turn.play(Readable.from(sineOpusPackets(440, seconds))).result;
  } finally {
    turn.done();
  }
}

function guildAt(n: number) {
  const spec = guilds[n];
  const guild = spec && client.guilds.cache.get(spec.id);
  if (!spec || !guild) throw new Error(`no guild ${n}`);
  return { id: spec.id, adapter: guild.voiceAdapterCreator, lounge: spec.voiceChannels[0]!.id };
}

describe('PlayerRegistry', () => {
  it("drops a server's player once it left voice with nothing queued; the next use joins and is heard", async () => {
    const [a, b] = [guildAt(0), guildAt(1)];
    const playerA = registry.get(a.id, a.adapter);
    const playerB = registry.get(b.id, b.adapter);
    await Promise.all([playerA.connect(a.lounge), playerB.connect(b.lounge)]);
    expect(registry.size).toBe(2);
    expect((await playSine(playerA, 0.2)).status).toBe('played');
    playerA.leave('asked');
    // A is idle and out of voice: no longer held. B, still in voice, is.
    expect(registry.size).toBe(1);
    expect(registry.find(b.id)).toBe(playerB);
    expect(registry.connectedCount).toBe(1);
    // A's server used again: a player that joins and is heard.
    fake.clearAudio(a.id);
    const again = registry.get(a.id, a.adapter);
    await again.connect(a.lounge);
    expect(registry.size).toBe(2);
    expect((await playSine(again, 0.3)).status).toBe('played');
    expect((await fake.waitForAudio(a.id, { minSeconds: 0.25 })).seconds).toBeGreaterThan(0.25);
    again.leave('asked');
    playerB.leave('asked');
    expect(registry.size).toBe(0);
  });

  it('never makes a second player for a server while the one it let go is still in use', async () => {
    const c = guildAt(2);
    const held = registry.get(c.id, c.adapter);
    await held.connect(c.lounge);
    held.leave('asked');
    expect(registry.size).toBe(0);
    // Someone still holds it (a request accepted before the leave): asking for the server's player gives that one,
    // so two players never share the server's one voice connection.
    expect(registry.find(c.id)).toBe(held);
    expect(registry.get(c.id, c.adapter)).toBe(held);
    await held.connect(c.lounge);
    expect(registry.size).toBe(1);
    expect(registry.connectedCount).toBe(1);
    held.leave('asked');
  });

  it('lets go of a player asked for but never used when the next one is made', () => {
    const fresh = new PlayerRegistry({
      logger: createLogger({ level: 'silent' }),
      idleTimeoutMs: 60_000,
      group: 'player-registry-test-fresh',
    });
    const [a, b] = [guildAt(0), guildAt(1)];
    try {
      fresh.get(a.id, a.adapter);
      expect(fresh.size).toBe(1);
      fresh.get(b.id, b.adapter);
      expect(fresh.size).toBe(1);
    } finally {
      fresh.destroyAll();
    }
  });

  it('lets a player go after a failed join too', async () => {
    const d = guildAt(3);
    const quick = new PlayerRegistry({
      logger: createLogger({ level: 'silent' }),
      idleTimeoutMs: 60_000,
      group: 'player-registry-test-quick',
      readyTimeoutMs: 1,
    });
    try {
      await expect(quick.get(d.id, d.adapter).connect(d.lounge)).rejects.toMatchObject({ name: 'VoiceJoinError' });
      expect(quick.size).toBe(0);
    } finally {
      quick.destroyAll();
    }
  });
});
