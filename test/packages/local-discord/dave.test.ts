import { afterEach, describe, expect, it } from 'vitest';
import { joinVoiceChannel, VoiceConnectionStatus, type VoiceConnection } from '@discordjs/voice';
import type { Client } from 'discord.js';
import type { FakeDiscordOptions } from '@saybot/local-discord';
import { APP_ID, dominantHz, joinReady, playOpus, sineOpusPackets, useLoggedInClient } from './helpers.ts';

// A guild with three members who can listen: alice starts in the Lounge, carol and dave can join.
function daveGuild(n: number, inLounge: string[]): FakeDiscordOptions['guilds'][number] {
  const lounge = `12000000000000000${n}`;
  const member = (id: string, username: string): FakeDiscordOptions['guilds'][number]['members'][number] => ({
    id,
    username,
    ...(inLounge.includes(username) ? { voiceChannelId: lounge } : {}),
  });
  return {
    id: `10000000000000000${n}`,
    name: `DAVE ${n}`,
    textChannelId: `11000000000000000${n}`,
    voiceChannels: [{ id: lounge, name: 'Lounge' }],
    members: [
      member(`20000000000000000${n}`, 'alice'),
      member(`21000000000000000${n}`, 'carol'),
      member(`22000000000000000${n}`, 'dave'),
    ],
  };
}

/** Joins with DAVE on (the library's default) and waits for the transition, not just Ready. */
function joinTransitioned(client: Client, guildId: string, channelId: string): Promise<VoiceConnection> {
  return joinReady(
    client,
    guildId,
    channelId,
    (connection) => new Promise<number>((resolve) => connection.once('transitioned', resolve)),
  );
}

describe('FakeDiscord DAVE (required) with @discordjs/voice', () => {
  const g = daveGuild(1, ['alice']);
  const lounge = g.voiceChannels[0]!.id;
  const [alice, carol, dave] = g.members.map((m) => m.id) as [string, string, string];
  let connection: VoiceConnection | undefined;

  const rig = useLoggedInClient({ guilds: [g], dave: 'required' });

  afterEach(() => {
    if (connection && connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
    connection = undefined;
    for (const id of [carol, dave])
      if (rig.fake.voiceChannelOf(g.id, id) !== null) rig.fake.setVoiceState(g.id, id, null);
    if (rig.fake.voiceChannelOf(g.id, alice) === null) rig.fake.setVoiceState(g.id, alice, lounge);
    // Whatever a test did, the gateway saw nothing it would call a protocol problem.
    expect(rig.fake.problems).toEqual([]);
  });

  it('a client offering no DAVE (daveEncryption: false) is closed with 4017', async () => {
    const guild = rig.client.guilds.cache.get(g.id)!;
    connection = joinVoiceChannel({
      guildId: g.id,
      channelId: lounge,
      adapterCreator: guild.voiceAdapterCreator,
      daveEncryption: false,
    });
    // The client side: @discordjs/voice's networking reports the close code it got.
    const clientSaw = new Promise<number>((resolve) => {
      const seen = new Set<unknown>();
      connection!.on('stateChange', (_old, next) => {
        const networking = 'networking' in next ? next.networking : undefined;
        if (networking && !seen.has(networking)) {
          seen.add(networking);
          networking.on('close', (code: number) => resolve(code));
        }
      });
    });
    const closed = await rig.fake.waitForVoiceClose(g.id, 4017);
    expect(closed.reason).toMatch(/DAVE/);
    expect(await clientSaw).toBe(4017);
    expect(connection.state.status).not.toBe(VoiceConnectionStatus.Ready);
    expect(rig.fake.daveState(g.id)).toBeUndefined();
  });

  it('with DAVE the connection reaches the transition and a listener decrypts what is sent after it (at its pitch)', async () => {
    connection = await joinTransitioned(rig.client, g.id, lounge);
    const state = await rig.fake.daveReady(g.id);
    expect(state.established).toBe(true);
    expect(state.members.sort()).toEqual([APP_ID, alice].sort());
    rig.fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(440, 0.6));
    const heard = await rig.fake.waitForAudio(g.id, { minSeconds: 0.55 });
    expect(heard.dave).toBeDefined();
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.dave?.e2eeFrames).toBe(30);
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(heard.dave?.firstPacketToFirstDecryptableMs).toBe(0);
    expect(heard.seconds).toBeCloseTo(0.6, 2);
    expect(Math.abs(dominantHz(heard.pcm) - 440)).toBeLessThan(5);
    expect(rig.fake.daveState(g.id)?.listeners).toEqual([
      expect.objectContaining({ userId: alice, member: true, decrypted: 30, failures: 0 }),
    ]);
  });

  it('two listeners: both decrypt every frame', async () => {
    rig.fake.setVoiceState(g.id, carol, lounge);
    connection = await joinTransitioned(rig.client, g.id, lounge);
    await rig.fake.daveReady(g.id);
    rig.fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(550, 0.4));
    const heard = await rig.fake.waitForAudio(g.id, { minSeconds: 0.35 });
    expect(Math.abs(dominantHz(heard.pcm) - 550)).toBeLessThan(5);
    const listeners = rig.fake.daveState(g.id)!.listeners;
    expect(listeners.map((l) => l.userId).sort()).toEqual([alice, carol].sort());
    for (const l of listeners) expect(l).toMatchObject({ member: true, decrypted: 20, failures: 0 });
  });

  it('a listener joining mid-clip decrypts after the new epoch; nobody has a decrypt failure', async () => {
    connection = await joinTransitioned(rig.client, g.id, lounge);
    const first = await rig.fake.daveReady(g.id);
    rig.fake.clearAudio(g.id);
    const playing = playOpus(connection, sineOpusPackets(440, 1.6));
    await rig.fake.waitForPacket(g.id, (p) => !p.silence);
    rig.fake.setVoiceState(g.id, dave, lounge);
    const next = await rig.fake.waitForDave(g.id, (s) => s.botEpoch > first.botEpoch);
    expect(next.members.sort()).toEqual([APP_ID, alice, dave].sort());
    await playing;
    const heard = await rig.fake.waitForAudio(g.id, { minSeconds: 1.5 });
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.seconds).toBeCloseTo(1.6, 2);
    const byUser = new Map(rig.fake.daveState(g.id)!.listeners.map((l) => [l.userId, l]));
    expect(byUser.get(alice)).toMatchObject({ decrypted: 80, failures: 0 });
    expect(byUser.get(dave)?.decrypted).toBeGreaterThan(0);
    expect(byUser.get(dave)?.failures).toBe(0);
  });

  it('a listener leaving mid-clip: the others decrypt on without a failure', async () => {
    rig.fake.setVoiceState(g.id, carol, lounge);
    connection = await joinTransitioned(rig.client, g.id, lounge);
    const first = await rig.fake.daveReady(g.id);
    rig.fake.clearAudio(g.id);
    const playing = playOpus(connection, sineOpusPackets(440, 1.4));
    await rig.fake.waitForPacket(g.id, (p) => !p.silence);
    rig.fake.setVoiceState(g.id, carol, null);
    const next = await rig.fake.waitForDave(g.id, (s) => s.botEpoch > first.botEpoch);
    expect(next.members.sort()).toEqual([APP_ID, alice].sort());
    await playing;
    const heard = await rig.fake.waitForAudio(g.id, { minSeconds: 1.3 });
    expect(heard.dave?.decryptFailures).toBe(0);
    expect(heard.seconds).toBeCloseTo(1.4, 2);
    expect(rig.fake.daveState(g.id)!.listeners).toEqual([
      expect.objectContaining({ userId: alice, decrypted: 70, failures: 0 }),
    ]);
  });

  it('the last listener leaving resets the group (op 24 + transition 0); rejoining makes a new one that decrypts', async () => {
    connection = await joinTransitioned(rig.client, g.id, lounge);
    const first = await rig.fake.daveReady(g.id);
    rig.fake.setVoiceState(g.id, alice, null);
    const reset = await rig.fake.waitForDave(g.id, (s) => s.botTransitions > first.botTransitions);
    expect(reset).toMatchObject({ established: false, members: [], botEpoch: 0n, listeners: [] });
    rig.fake.setVoiceState(g.id, alice, lounge);
    await rig.fake.waitForDave(g.id, (s) => s.botEpoch === 1n && s.members.includes(alice));
    rig.fake.clearAudio(g.id);
    await playOpus(connection, sineOpusPackets(440, 0.3));
    const heard = await rig.fake.waitForAudio(g.id, { minSeconds: 0.25 });
    expect(heard.dave).toMatchObject({ e2eeFrames: 15, plaintextFrames: 0, decryptFailures: 0 });
  });
});
