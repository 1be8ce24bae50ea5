// Shared by the fake Discord's own tests: a real discord.js client, a generated Opus sine, and a pitch estimate.
import tls from 'node:tls';
import { Readable } from 'node:stream';
import opus from '@discordjs/opus';
import {
  AudioPlayerStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  joinVoiceChannel,
  StreamType,
  VoiceConnectionStatus,
  type VoiceConnection,
} from '@discordjs/voice';
import { Client, DiscordAPIError, Events, GatewayIntentBits, type ClientOptions, type Interaction } from 'discord.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { FakeDiscord, type FakeDiscordOptions } from '@saybot/local-discord';
import { GuildRecord } from '@saybot/local-discord/state.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { made } from '../../support/made.ts';

const trusted = new Set<string>();

/** Makes this process trust the fake voice gateway's certificate (in addition to the default CAs). */
export function trustCertificate(pem: string): void {
  if (trusted.has(pem)) return;
  trusted.add(pem);
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), pem]);
}

export const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.fake.test-token-for-the-fake-discord';
export const APP_ID = '300000000000000001';

/** One server's state in the local Discord, SayBot a member, with no gateway or client: for tests of its rules. */
export function guildState(spec: FakeGuildSpec): GuildRecord {
  return new GuildRecord(spec, { id: APP_ID, username: 'SayBot', bot: true });
}

export function guildSpec(n: number): FakeDiscordOptions['guilds'][number] {
  return {
    id: `10000000000000000${n}`,
    name: `Guild ${n}`,
    textChannelId: `11000000000000000${n}`,
    voiceChannels: [
      { id: `12000000000000000${n}`, name: 'Lounge' },
      { id: `13000000000000000${n}`, name: 'Quiet' },
    ],
    members: [
      { id: `20000000000000000${n}`, username: `alice${n}`, voiceChannelId: `12000000000000000${n}`, locale: 'ko' },
      { id: `21000000000000000${n}`, username: `bob${n}`, permissions: 0x20n /* ManageGuild */ },
    ],
  };
}

export async function loginClient(fake: FakeDiscord, options: Partial<ClientOptions> = {}): Promise<Client> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates],
    ...options,
    rest: { api: fake.restUrl },
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(TOKEN);
  await ready;
  return client;
}

/** Runs `handler` for the next chat-input (or autocomplete) interaction the client receives. */
export function nextInteraction(client: Client, handler: (i: Interaction) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    client.once(Events.InteractionCreate, (interaction) => {
      handler(interaction).then(resolve, reject);
    });
  });
}

export interface ClientRig {
  readonly fake: FakeDiscord;
  readonly client: Client;
}

/**
 * For the tests of one describe block: a local Discord (the test token and app ID, quiet unless given a log; its
 * voice gateway's certificate trusted) and a real discord.js client logged in to it, started before them and closed
 * after.
 */
export function useLoggedInClient(
  options: Omit<FakeDiscordOptions, 'token' | 'applicationId'>,
  clientOptions: Partial<ClientOptions> = {},
): ClientRig {
  let fake: FakeDiscord | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, log: () => undefined, ...options });
    trustCertificate(fake.caCertificatePem);
    client = await loginClient(fake, clientOptions);
  });
  afterAll(async () => {
    await client?.destroy();
    await fake?.close();
  });
  return made<ClientRig>({ fake: () => fake, client: () => client });
}

const FRAME_SAMPLES = 960; // 20 ms at 48 kHz

/** `seconds` of a sine at `hz`, 48 kHz stereo, as 20 ms Opus packets. */
export function sineOpusPackets(hz: number, seconds: number, amplitude = 0.4): Buffer[] {
  const encoder = new opus.OpusEncoder(48_000, 2);
  const packets: Buffer[] = [];
  const frames = Math.round((seconds * 48_000) / FRAME_SAMPLES);
  for (let f = 0; f < frames; f++) {
    const pcm = Buffer.alloc(FRAME_SAMPLES * 2 * 2);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const t = (f * FRAME_SAMPLES + i) / 48_000;
      const v = Math.round(Math.sin(2 * Math.PI * hz * t) * amplitude * 32_767);
      pcm.writeInt16LE(v, i * 4);
      pcm.writeInt16LE(v, i * 4 + 2);
    }
    packets.push(encoder.encode(pcm));
  }
  return packets;
}

/** Checks that `refusal` is what discord.js throws when Discord answers with `status` and its JSON error `code`. */
export function expectDiscordError(refusal: unknown, status: number, code: number): void {
  expect(refusal).toBeInstanceOf(DiscordAPIError);
  expect((refusal as DiscordAPIError).status).toBe(status);
  expect((refusal as DiscordAPIError).code).toBe(code);
}

/**
 * Joins a voice channel and waits for Ready, and then for `alsoUntil` when given (asked for as the join starts, so
 * that it sees the connection's first events), destroying the connection if it does not get there.
 */
export async function joinReady(
  client: Client,
  guildId: string,
  channelId: string,
  alsoUntil?: (connection: VoiceConnection) => Promise<unknown>,
): Promise<VoiceConnection> {
  const guild = client.guilds.cache.get(guildId);
  if (!guild) throw new Error(`client does not know guild ${guildId}`);
  const connection = joinVoiceChannel({
    guildId,
    channelId,
    adapterCreator: guild.voiceAdapterCreator,
    selfDeaf: true,
  });
  const also = alsoUntil?.(connection);
  try {
    await entersState(connection, VoiceConnectionStatus.Ready, 5_000);
    await also;
  } catch (error) {
    connection.destroy();
    throw error;
  }
  return connection;
}

/** Plays Opus packets on a Ready connection and resolves when the player is idle again. */
export async function playOpus(connection: VoiceConnection, packets: Buffer[]): Promise<void> {
  const player = createAudioPlayer();
  connection.subscribe(player);
  player.play(createAudioResource(Readable.from(packets), { inputType: StreamType.Opus }));
  await entersState(player, AudioPlayerStatus.Playing, 5_000);
  await entersState(player, AudioPlayerStatus.Idle, 10_000);
  player.stop(true);
}

/**
 * Dominant frequency of the left channel of interleaved stereo PCM: rising zero crossings (interpolated) counted
 * between the first and the last one, skipping the first and last 20 ms where the codec ramps in and out.
 */
export function dominantHz(pcm: Int16Array, sampleRate = 48_000): number {
  const frames = Math.floor(pcm.length / 2);
  const edge = Math.round(sampleRate * 0.02);
  let first: number | undefined;
  let last = 0;
  let crossings = 0;
  for (let i = edge + 1; i < frames - edge; i++) {
    const a = pcm[(i - 1) * 2] ?? 0;
    const b = pcm[i * 2] ?? 0;
    if (a < 0 && b >= 0) {
      const at = i - 1 + -a / (b - a);
      first ??= at;
      last = at;
      crossings++;
    }
  }
  return first === undefined || crossings < 2 ? 0 : ((crossings - 1) * sampleRate) / (last - first);
}

export function rms(pcm: Int16Array): number {
  let sum = 0;
  for (const v of pcm) sum += v * v;
  return Math.sqrt(sum / Math.max(1, pcm.length)) / 32_768;
}
