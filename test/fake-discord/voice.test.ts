import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { entersState, joinVoiceChannel, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { Client } from 'discord.js';
import { AES_GCM_MODE, FakeDiscord } from '@saybot/local-discord';
import { APP_ID, TOKEN, dominantHz, guildSpec, joinReady as join, loginClient, playOpus, rms, sineOpusPackets, trustCertificate } from './helpers.ts';

const g1 = guildSpec(4);
const g2 = guildSpec(5);

describe('FakeDiscord voice with @discordjs/voice (aead_aes256_gcm_rtpsize)', () => {
  let fake: FakeDiscord;
  let client: Client;
  const connections: VoiceConnection[] = [];

  beforeAll(async () => {
    // The transport layer alone (DAVE off): end-to-end encryption has its own tests in dave*.test.ts.
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [g1, g2], dave: 'off' });
    trustCertificate(fake.caCertificatePem);
    client = await loginClient(fake);
  });

  /** Leaves every voice channel, so that each test starts with the bot in none (tests run shuffled). */
  async function leaveAll(): Promise<void> {
    for (const connection of connections.splice(0)) if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    await vi.waitFor(() => {
      expect(fake.botVoiceChannel(g1.id)).toBeNull();
      expect(fake.botVoiceChannel(g2.id)).toBeNull();
    }, { timeout: 5_000, interval: 10 });
  }
  /** A ready connection in g1's first channel, made by the test that needs it. */
  async function joinedG1(): Promise<VoiceConnection> {
    const connection = await join(client, g1.id, g1.voiceChannels[0]!.id);
    connections.push(connection);
    return connection;
  }

  beforeEach(async () => {
    await leaveAll();
  });

  afterAll(async () => {
    for (const connection of connections) if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    await client?.destroy();
    await fake?.close();
  });

  it('joinVoiceChannel reaches Ready over wss (trusted fixture certificate) and UDP; the fake knows where the bot is', async () => {
    await joinedG1();
    expect(fake.botVoiceChannel(g1.id)).toBe(g1.voiceChannels[0]!.id);
    expect(fake.botVoiceChannel(g2.id)).toBeNull();
    expect(client.guilds.cache.get(g1.id)?.members.me?.voice.channelId).toBe(g1.voiceChannels[0]!.id);
  });

  it('a 1 s 440 Hz sine played with StreamType.Opus is heard: ~1 s of PCM at ~440 Hz', async () => {
    const connection = await joinedG1();
    fake.clearAudio(g1.id);
    await playOpus(connection, sineOpusPackets(440, 1));
    const heard = await fake.waitForAudio(g1.id, { minSeconds: 0.9 });
    expect(heard.encryptionMode).toBe(AES_GCM_MODE);
    expect(heard.decryptFailures).toBe(0);
    expect(heard.decodeFailures).toBe(0);
    expect(heard.seconds).toBeGreaterThan(0.95);
    expect(heard.seconds).toBeLessThan(1.05);
    expect(heard.pcm.length).toBe(Math.round(heard.seconds * 48_000 * 2));
    expect(dominantHz(heard.pcm)).toBeGreaterThan(435);
    expect(dominantHz(heard.pcm)).toBeLessThan(445);
    expect(rms(heard.pcm)).toBeGreaterThan(0.1);
    const audio = heard.packets.filter((p) => !p.silence);
    expect(audio).toHaveLength(50);
    // Kept in arrival order: consecutive RTP sequence numbers and 960-sample timestamp steps, one after another.
    for (let i = 1; i < audio.length; i++) {
      expect((audio[i]!.sequence - audio[i - 1]!.sequence + 65_536) % 65_536).toBe(1);
      expect((audio[i]!.timestamp - audio[i - 1]!.timestamp + 2 ** 32) % 2 ** 32).toBe(960);
    }
    // The player ends with silence frames, kept as packets but not as PCM.
    expect(heard.packets.at(-1)?.silence).toBe(true);
  });

  it('waitForPacket resolves with the first matching packet, later or already heard; heardPackets lists them without PCM', async () => {
    const connection = await joinedG1();
    fake.clearAudio(g1.id);
    // Waiting before anything was sent: it can only resolve with a packet of the clip played below.
    const first = fake.waitForPacket(g1.id, (p) => !p.silence, 5_000);
    await playOpus(connection, sineOpusPackets(440, 0.2));
    const packet = await first;
    await fake.waitForAudio(g1.id, { minSeconds: 0.15 });
    const packets = fake.heardPackets(g1.id);
    expect(packets.find((p) => !p.silence)).toEqual(packet);
    expect(packets.filter((p) => !p.silence)).toHaveLength(10);
    // Already heard: answered at once from what is there.
    await expect(fake.waitForPacket(g1.id, (p) => p.silence, 100)).resolves.toMatchObject({ silence: true });
  });

  it('two guilds at once keep their audio apart (440 Hz in one, 660 Hz in the other)', async () => {
    const first = await joinedG1();
    const second = await join(client, g2.id, g2.voiceChannels[1]!.id);
    connections.push(second);
    fake.clearAudio(g1.id);
    fake.clearAudio(g2.id);
    await Promise.all([playOpus(first, sineOpusPackets(440, 0.6)), playOpus(second, sineOpusPackets(660, 0.6))]);
    const [a, b] = await Promise.all([fake.waitForAudio(g1.id, { minSeconds: 0.55 }), fake.waitForAudio(g2.id, { minSeconds: 0.55 })]);
    expect(a.seconds).toBeCloseTo(0.6, 1);
    expect(b.seconds).toBeCloseTo(0.6, 1);
    expect(Math.abs(dominantHz(a.pcm) - 440)).toBeLessThan(5);
    expect(Math.abs(dominantHz(b.pcm) - 660)).toBeLessThan(5);
    expect(new Set(a.packets.map((p) => p.ssrc)).size).toBe(1);
    expect(a.packets[0]?.ssrc).not.toBe(b.packets[0]?.ssrc);
    expect(fake.botVoiceChannel(g2.id)).toBe(g2.voiceChannels[1]!.id);
  });

  it('moving to another channel (joinVoiceChannel again) renegotiates voice and is heard with a new SSRC', async () => {
    const connection = await joinedG1();
    fake.clearAudio(g1.id);
    await playOpus(connection, sineOpusPackets(440, 0.2));
    const before = (await fake.waitForPacket(g1.id, (p) => !p.silence, 5_000)).ssrc;
    const quiet = g1.voiceChannels[1]!.id;
    const reconnecting = new Promise<void>((resolve) => connection.on('stateChange', (_old, next) => {
      if (next.status === VoiceConnectionStatus.Connecting) resolve();
    }));
    const guild = client.guilds.cache.get(g1.id)!;
    expect(joinVoiceChannel({ guildId: g1.id, channelId: quiet, adapterCreator: guild.voiceAdapterCreator, selfDeaf: true })).toBe(connection);
    await reconnecting;
    await entersState(connection, VoiceConnectionStatus.Ready, 5_000);
    expect(fake.botVoiceChannel(g1.id)).toBe(quiet);
    fake.clearAudio(g1.id);
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await fake.waitForAudio(g1.id, { minSeconds: 0.25 });
    expect(heard.packets[0]?.ssrc).not.toBe(before);
    expect(Math.abs(dominantHz(heard.pcm) - 440)).toBeLessThan(5);
  });

  it('destroying the connection sends op 4 with channel_id null: the fake sees the bot leave', async () => {
    await joinedG1();
    const second = await join(client, g2.id, g2.voiceChannels[1]!.id);
    connections.push(second);
    const left = new Promise<void>((resolve) => client.on('voiceStateUpdate', (_old, state) => {
      if (state.id === APP_ID && state.guild.id === g2.id && state.channelId === null) resolve();
    }));
    second.destroy();
    await left;
    expect(fake.botVoiceChannel(g2.id)).toBeNull();
    expect(fake.botVoiceChannel(g1.id)).toBe(g1.voiceChannels[0]!.id);
  });

  it('a server-side kick (setVoiceState for the bot, null) closes the voice connection with 4014', async () => {
    const connection = await joinedG1();
    const disconnected = entersState(connection, VoiceConnectionStatus.Disconnected, 5_000);
    fake.setVoiceState(g1.id, APP_ID, null);
    await disconnected;
    const state = connection.state;
    expect(state.status === VoiceConnectionStatus.Disconnected && 'closeCode' in state ? state.closeCode : undefined).toBe(4014);
    expect(fake.botVoiceChannel(g1.id)).toBeNull();
    connection.destroy();
    expect(fake.problems).toEqual([]);
  });
});
