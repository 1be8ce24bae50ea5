import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { entersState, joinVoiceChannel, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import { AES_GCM_MODE } from '@saybot/local-discord';
import {
  APP_ID,
  dominantHz,
  guildSpec,
  joinReady as join,
  playOpus,
  rms,
  sineOpusPackets,
  useLoggedInClient,
} from './helpers.ts';

const g1 = guildSpec(4);
const g2 = guildSpec(5);

describe('FakeDiscord voice with @discordjs/voice (aead_aes256_gcm_rtpsize)', () => {
  const connections: VoiceConnection[] = [];

  // The transport layer alone (DAVE off): end-to-end encryption has its own tests in dave*.test.ts.
  const rig = useLoggedInClient({ guilds: [g1, g2], dave: 'off' });

  /** Leaves every voice channel, so that each test starts with the bot in none (tests run shuffled). */
  async function leaveAll(): Promise<void> {
    for (const connection of connections.splice(0))
      if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    await vi.waitFor(
      () => {
        expect(rig.fake.botVoiceChannel(g1.id)).toBeNull();
        expect(rig.fake.botVoiceChannel(g2.id)).toBeNull();
      },
      { timeout: 5_000, interval: 10 },
    );
  }
  /** A ready connection in g1's first channel, made by the test that needs it. */
  async function joinedG1(): Promise<VoiceConnection> {
    const connection = await join(rig.client, g1.id, g1.voiceChannels[0]!.id);
    connections.push(connection);
    return connection;
  }

  beforeEach(async () => {
    await leaveAll();
  });

  afterAll(async () => {
    for (const connection of connections)
      if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
  });

  it('joinVoiceChannel reaches Ready over wss (trusted fixture certificate) and UDP; the fake knows where the bot is', async () => {
    await joinedG1();
    expect(rig.fake.botVoiceChannel(g1.id)).toBe(g1.voiceChannels[0]!.id);
    expect(rig.fake.botVoiceChannel(g2.id)).toBeNull();
    expect(rig.client.guilds.cache.get(g1.id)?.members.me?.voice.channelId).toBe(g1.voiceChannels[0]!.id);
  });

  it('a 1 s 440 Hz sine played with StreamType.Opus is heard: ~1 s of PCM at ~440 Hz', async () => {
    const connection = await joinedG1();
    rig.fake.clearAudio(g1.id);
    await playOpus(connection, sineOpusPackets(440, 1));
    const heard = await rig.fake.waitForAudio(g1.id, { minSeconds: 0.9 });
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
    rig.fake.clearAudio(g1.id);
    // Waiting before anything was sent: it can only resolve with a packet of the clip played below.
    const first = rig.fake.waitForPacket(g1.id, (p) => !p.silence, 30_000);
    await playOpus(connection, sineOpusPackets(440, 0.2));
    const packet = await first;
    await rig.fake.waitForAudio(g1.id, { minSeconds: 0.15 });
    const packets = rig.fake.heardPackets(g1.id);
    expect(packets.find((p) => !p.silence)).toEqual(packet);
    expect(packets.filter((p) => !p.silence)).toHaveLength(10);
    // Already heard: answered at once from what is there.
    await expect(rig.fake.waitForPacket(g1.id, (p) => p.silence, 100)).resolves.toMatchObject({ silence: true });
  });

  it('two guilds at once keep their audio apart (440 Hz in one, 660 Hz in the other)', async () => {
    const first = await joinedG1();
    const second = await join(rig.client, g2.id, g2.voiceChannels[1]!.id);
    connections.push(second);
    rig.fake.clearAudio(g1.id);
    rig.fake.clearAudio(g2.id);
    await Promise.all([playOpus(first, sineOpusPackets(440, 0.6)), playOpus(second, sineOpusPackets(660, 0.6))]);
    const [a, b] = await Promise.all([
      rig.fake.waitForAudio(g1.id, { minSeconds: 0.55 }),
      rig.fake.waitForAudio(g2.id, { minSeconds: 0.55 }),
    ]);
    expect(a.seconds).toBeCloseTo(0.6, 1);
    expect(b.seconds).toBeCloseTo(0.6, 1);
    expect(Math.abs(dominantHz(a.pcm) - 440)).toBeLessThan(5);
    expect(Math.abs(dominantHz(b.pcm) - 660)).toBeLessThan(5);
    expect(new Set(a.packets.map((p) => p.ssrc)).size).toBe(1);
    expect(a.packets[0]?.ssrc).not.toBe(b.packets[0]?.ssrc);
    expect(rig.fake.botVoiceChannel(g2.id)).toBe(g2.voiceChannels[1]!.id);
  });

  it('moving to another channel (joinVoiceChannel again) renegotiates voice and is heard with a new SSRC', async () => {
    const connection = await joinedG1();
    rig.fake.clearAudio(g1.id);
    await playOpus(connection, sineOpusPackets(440, 0.2));
    const before = (await rig.fake.waitForPacket(g1.id, (p) => !p.silence, 30_000)).ssrc;
    const quiet = g1.voiceChannels[1]!.id;
    const reconnecting = new Promise<void>((resolve) =>
      connection.on('stateChange', (_old, next) => {
        if (next.status === VoiceConnectionStatus.Connecting) resolve();
      }),
    );
    const guild = rig.client.guilds.cache.get(g1.id)!;
    expect(
      joinVoiceChannel({ guildId: g1.id, channelId: quiet, adapterCreator: guild.voiceAdapterCreator, selfDeaf: true }),
    ).toBe(connection);
    await reconnecting;
    await entersState(connection, VoiceConnectionStatus.Ready, 5_000);
    expect(rig.fake.botVoiceChannel(g1.id)).toBe(quiet);
    rig.fake.clearAudio(g1.id);
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await rig.fake.waitForAudio(g1.id, { minSeconds: 0.25 });
    expect(heard.packets[0]?.ssrc).not.toBe(before);
    expect(Math.abs(dominantHz(heard.pcm) - 440)).toBeLessThan(5);
  });

  it('destroying the connection sends op 4 with channel_id null: the fake sees the bot leave', async () => {
    await joinedG1();
    const second = await join(rig.client, g2.id, g2.voiceChannels[1]!.id);
    connections.push(second);
    const left = new Promise<void>((resolve) =>
      rig.client.on('voiceStateUpdate', (_old, state) => {
        if (state.id === APP_ID && state.guild.id === g2.id && state.channelId === null) resolve();
      }),
    );
    second.destroy();
    await left;
    expect(rig.fake.botVoiceChannel(g2.id)).toBeNull();
    expect(rig.fake.botVoiceChannel(g1.id)).toBe(g1.voiceChannels[0]!.id);
  });

  it('a server-side kick (setVoiceState for the bot, null) closes the voice connection with 4014', async () => {
    const connection = await joinedG1();
    const disconnected = entersState(connection, VoiceConnectionStatus.Disconnected, 5_000);
    rig.fake.setVoiceState(g1.id, APP_ID, null);
    await disconnected;
    const state = connection.state;
    expect(
      state.status === VoiceConnectionStatus.Disconnected && 'closeCode' in state ? state.closeCode : undefined,
    ).toBe(4014);
    expect(rig.fake.botVoiceChannel(g1.id)).toBeNull();
    connection.destroy();
    expect(rig.fake.problems).toEqual([]);
  });

  it('a voice server crash (closeVoiceSession 4015): the RESUME is answered with 4006, the library rejoins with a new IDENTIFY', async () => {
    const connection = await joinedG1();
    const identifies = rig.fake.voiceIdentifies(g1.id);
    const invalid = rig.fake.voiceCloses(g1.id).filter((c) => c.code === 4006).length;
    rig.fake.closeVoiceSession(g1.id, 4015);
    await rig.fake.waitForVoiceClose(g1.id, 4015);
    await vi.waitFor(() => expect(rig.fake.voiceIdentifies(g1.id)).toBe(identifies + 1), {
      timeout: 10_000,
      interval: 10,
    });
    await entersState(connection, VoiceConnectionStatus.Ready, 10_000);
    expect(rig.fake.voiceCloses(g1.id).filter((c) => c.code === 4006).length - invalid).toBe(1);
    expect(rig.fake.botVoiceChannel(g1.id)).toBe(g1.voiceChannels[0]!.id);
    // Discord's answer to a resume it cannot honour, not a client's mistake.
    expect(rig.fake.problems).toEqual([]);
  });
});
