import { afterEach, describe, expect, it } from 'vitest';
import { entersState, joinVoiceChannel, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { Client } from 'discord.js';
import { FakeDiscord, XCHACHA_MODE, type FakeDiscordOptions } from '@saybot/local-discord';
import {
  APP_ID,
  TOKEN,
  dominantHz,
  guildSpec,
  loginClient,
  playOpus,
  sineOpusPackets,
  trustCertificate,
} from './helpers.ts';

async function joinTransitioned(
  client: Client,
  guildId: string,
  channelId: string,
  daveEncryption = true,
): Promise<VoiceConnection> {
  const guild = client.guilds.cache.get(guildId)!;
  const connection = joinVoiceChannel({
    guildId,
    channelId,
    adapterCreator: guild.voiceAdapterCreator,
    selfDeaf: true,
    daveEncryption,
  });
  const transitioned = new Promise<number>((resolve) => connection.once('transitioned', resolve));
  try {
    await entersState(connection, VoiceConnectionStatus.Ready, 5_000);
    if (daveEncryption) await transitioned;
  } catch (error) {
    connection.destroy();
    throw error;
  }
  return connection;
}

describe('FakeDiscord DAVE variants', () => {
  let fake: FakeDiscord | undefined;
  let client: Client | undefined;
  let connection: VoiceConnection | undefined;

  async function start(
    options: Partial<FakeDiscordOptions>,
    guild = guildSpec(1),
  ): Promise<{ fake: FakeDiscord; client: Client }> {
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [guild], ...options });
    trustCertificate(fake.caCertificatePem);
    client = await loginClient(fake);
    return { fake, client };
  }

  afterEach(async () => {
    if (connection && connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    connection = undefined;
    await client?.destroy();
    await fake?.close();
    expect(fake?.problems ?? []).toEqual([]);
    client = undefined;
    fake = undefined;
  });

  it('XChaCha transport + DAVE: the listener decrypts both layers and hears 330 Hz', async () => {
    const g = guildSpec(2);
    const { fake, client } = await start({ dave: 'required', encryptionModes: [XCHACHA_MODE] }, g);
    connection = await joinTransitioned(client, g.id, g.voiceChannels[0]!.id);
    await fake.daveReady(g.id);
    fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(330, 0.5));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.45 });
    expect(heard.encryptionMode).toBe(XCHACHA_MODE);
    expect(heard.decryptFailures).toBe(0);
    expect(heard.dave).toMatchObject({ e2eeFrames: 25, plaintextFrames: 0, decryptFailures: 0 });
    expect(Math.abs(dominantHz(heard.pcm) - 330)).toBeLessThan(5);
  });

  it('the bot is welcomed into a group its listeners already have (daveCommitter: listener)', async () => {
    const g = guildSpec(3);
    const lounge = g.voiceChannels[0]!.id;
    g.members[1] = { ...g.members[1]!, voiceChannelId: lounge };
    const { fake, client } = await start({ dave: 'required', daveCommitter: 'listener' }, g);
    connection = await joinTransitioned(client, g.id, lounge);
    const state = await fake.daveReady(g.id);
    // The listeners made epoch 1 between themselves; adding the bot is epoch 2.
    expect(state.botEpoch).toBe(2n);
    expect(state.members.sort()).toEqual([APP_ID, g.members[0]!.id, g.members[1]!.id].sort());
    fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(440, 0.4));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.35 });
    expect(heard.dave).toMatchObject({ e2eeFrames: 20, plaintextFrames: 0, decryptFailures: 0 });
    for (const l of fake.daveState(g.id)!.listeners) expect(l).toMatchObject({ decrypted: 20, failures: 0 });
  });

  it('one listener who commits: the bot is welcomed into a new group', async () => {
    const g = guildSpec(4);
    const { fake, client } = await start({ dave: 'required', daveCommitter: 'listener' }, g);
    connection = await joinTransitioned(client, g.id, g.voiceChannels[0]!.id);
    const state = await fake.daveReady(g.id);
    expect(state.botEpoch).toBe(1n);
    fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.25 });
    expect(heard.dave).toMatchObject({ e2eeFrames: 15, plaintextFrames: 0, decryptFailures: 0 });
  });

  it('with a handshake delay the transition still completes, and audio sent after it is heard from its first frame', async () => {
    const g = guildSpec(5);
    const { fake, client } = await start({ dave: 'required', daveHandshakeDelayMs: 60 }, g);
    connection = await joinTransitioned(client, g.id, g.voiceChannels[0]!.id);
    await fake.daveReady(g.id);
    fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.25 });
    expect(heard.dave).toMatchObject({ e2eeFrames: 15, plaintextFrames: 0, firstPacketToFirstDecryptableMs: 0 });
  });

  it('audio sent right after Ready, before the group exists, goes out plaintext and is not heard (as Discord clients drop it)', async () => {
    const g = guildSpec(7);
    const { fake, client } = await start({ dave: 'required', daveHandshakeDelayMs: 100 }, g);
    const guild = client.guilds.cache.get(g.id)!;
    connection = joinVoiceChannel({
      guildId: g.id,
      channelId: g.voiceChannels[0]!.id,
      adapterCreator: guild.voiceAdapterCreator,
      selfDeaf: true,
    });
    await entersState(connection, VoiceConnectionStatus.Ready, 5_000);
    // Played at once, as SayBot did: the handshake takes three 100 ms hops after Ready.
    await playOpus(connection, sineOpusPackets(440, 0.8));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.1 });
    const dave = heard.dave!;
    expect(dave.plaintextFrames).toBeGreaterThan(0);
    expect(dave.e2eeFrames).toBeGreaterThan(0);
    expect(dave.plaintextFrames + dave.e2eeFrames).toBe(40);
    expect(dave.plaintextAfterTransition).toBe(0);
    expect(dave.firstPacketToFirstDecryptableMs).toBeGreaterThan(0);
    // Only what the listener could decrypt is heard.
    expect(heard.seconds).toBeCloseTo(dave.e2eeFrames * 0.02, 2);
  });

  it('a damaged welcome: the client answers op 31, is removed and re-added, and is heard after the new epoch', async () => {
    const g = guildSpec(8);
    const lounge = g.voiceChannels[0]!.id;
    g.members[1] = { ...g.members[1]!, voiceChannelId: lounge };
    const { fake, client } = await start({ dave: 'required', daveCommitter: 'listener' }, g);
    fake.damageNextDaveMessage(g.id, 'welcome');
    const guild = client.guilds.cache.get(g.id)!;
    connection = joinVoiceChannel({
      guildId: g.id,
      channelId: lounge,
      adapterCreator: guild.voiceAdapterCreator,
      selfDeaf: true,
    });
    const state = await fake.daveReady(g.id);
    expect(state.invalidCommitWelcomes).toBe(1);
    // Epoch 1: the listeners; 2: the bot added (welcome damaged); 3: the bot removed; 4: the bot added again.
    expect(state.botEpoch).toBe(4n);
    expect(state.members.sort()).toEqual([APP_ID, g.members[0]!.id, g.members[1]!.id].sort());
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.25 });
    expect(heard.dave).toMatchObject({ e2eeFrames: 15, decryptFailures: 0 });
  });

  it('a damaged commit echo: the committing client answers op 31 and the group is made again', async () => {
    const g = guildSpec(9);
    const { fake, client } = await start({ dave: 'required' }, g);
    fake.damageNextDaveMessage(g.id, 'commit');
    const guild = client.guilds.cache.get(g.id)!;
    connection = joinVoiceChannel({
      guildId: g.id,
      channelId: g.voiceChannels[0]!.id,
      adapterCreator: guild.voiceAdapterCreator,
      selfDeaf: true,
    });
    const state = await fake.waitForDave(g.id, (s) => s.invalidCommitWelcomes === 1 && s.botEpoch > 0n);
    expect(state.members.sort()).toEqual([APP_ID, g.members[0]!.id].sort());
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.25 });
    expect(heard.dave).toMatchObject({ e2eeFrames: 15, decryptFailures: 0 });
  });

  it("'offered': a client without DAVE gets version 0 and is heard as before; the bot alone in a channel has no group", async () => {
    const g = guildSpec(6);
    const { fake, client } = await start({ dave: 'offered' }, g);
    connection = await joinTransitioned(client, g.id, g.voiceChannels[0]!.id, false);
    expect(fake.daveState(g.id)).toBeUndefined();
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await fake.waitForAudio(g.id, { minSeconds: 0.25 });
    expect(heard.dave).toBeUndefined();
    expect(Math.abs(dominantHz(heard.pcm) - 440)).toBeLessThan(5);
    connection.destroy();
    // With DAVE, in the empty second channel: no one to make a group with.
    connection = joinVoiceChannel({
      guildId: g.id,
      channelId: g.voiceChannels[1]!.id,
      adapterCreator: client.guilds.cache.get(g.id)!.voiceAdapterCreator,
    });
    await entersState(connection, VoiceConnectionStatus.Ready, 5_000);
    await fake.waitForDave(g.id, () => true);
    expect(fake.daveState(g.id)).toMatchObject({ established: false, members: [], listeners: [] });
  });
});
