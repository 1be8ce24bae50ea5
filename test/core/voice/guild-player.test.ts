// The GuildPlayer state machine with the real @discordjs/voice against the local Discord (DAVE required): states,
// queue, skip, stop, failures, and what a lost connection or a refused join does to the clips.
import { PassThrough, Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'discord.js';
import { createLogger } from '../../../src/core/log.ts';
import {
  GuildPlayer,
  type GuildPlayerOptions,
  type ClipOwner,
  type PlaybackResult,
} from '../../../src/core/voice/guild-player.ts';
import { VoiceJoinError } from '../../../src/core/voice/connection-session.ts';
import { AudioStalledError } from '../../../src/core/voice/audio-stalled.ts';
import { FakeDiscord } from '@saybot/local-discord';
import {
  APP_ID,
  TOKEN,
  dominantHz,
  guildSpec,
  loginClient,
  sineOpusPackets,
  trustCertificate,
} from '../../packages/local-discord/helpers.ts';

const GUILDS = 19;
const guilds = Array.from({ length: GUILDS }, (_, i) => guildSpec(i + 1));
let nextGuild = 0;
let fake: FakeDiscord;
let offFake: FakeDiscord;
let client: Client;
let offClient: Client;
const players: GuildPlayer[] = [];
let logLines: string[] = [];

beforeAll(async () => {
  [fake, offFake] = await Promise.all([
    FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds, dave: 'required' }),
    FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds: [guildSpec(1)], dave: 'off' }),
  ]);
  trustCertificate(fake.caCertificatePem);
  trustCertificate(offFake.caCertificatePem);
  [client, offClient] = await Promise.all([loginClient(fake), loginClient(offFake)]);
});
afterEach(() => {
  for (const player of players.splice(0)) player.destroy();
});
afterAll(async () => {
  await Promise.all([client?.destroy(), offClient?.destroy()]);
  await Promise.all([fake?.close(), offFake?.close()]);
});

/** Each test gets a guild of its own, so that tests pass alone and in any order. */
function makePlayer(options: Partial<GuildPlayerOptions> = {}, on: { client: Client; n?: number } = { client }) {
  const guild = guilds[on.n ?? nextGuild++];
  if (!guild) throw new Error('out of test guilds');
  const discordGuild = on.client.guilds.cache.get(guild.id);
  if (!discordGuild) throw new Error(`client does not know guild ${guild.id}`);
  const stream = new PassThrough();
  logLines = [];
  stream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
  const player = new GuildPlayer({
    guildId: guild.id,
    adapterCreator: discordGuild.voiceAdapterCreator,
    group: `guild-player-test-${on.client === client ? 'dave' : 'off'}`,
    logger: createLogger({ level: 'debug', destination: stream }),
    idleTimeoutMs: 60_000,
    readyTimeoutMs: 10_000,
    ...options,
  });
  players.push(player);
  return { player, guildId: guild.id, lounge: guild.voiceChannels[0]!.id };
}

/** A one-clip order's audio: fetched at its turn (`open`), logging what is done with it in `events`. */
interface TestClip extends ClipOwner {
  open(signal: AbortSignal): Promise<Readable>;
  events?: string[];
}

/** Lets the promise callbacks of what was just done run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A one-clip order played as the pipeline plays one: held; 'prepare' when its turn nears behind another order (the
 * pipeline's cue to fetch ahead), 'open' when its audio is fetched at its turn, 'dispose' when it ends unopened.
 */
function enqueue(player: GuildPlayer, clip: TestClip): Promise<PlaybackResult> {
  const behind = player.busy;
  const turn = player.place({ owner: clip, clips: 1, channelId: player.channelId ?? 'none' });
  void turn.near.then(() => {
    if (behind && turn.endedAs === undefined) clip.events?.push('prepare');
  });
  const ended = (): PlaybackResult | undefined => {
    const end = turn.endedAs;
    if (end === undefined) return undefined;
    return end.status === 'failed'
      ? { status: end.status, seconds: 0, error: end.error }
      : { status: end.status, seconds: 0 };
  };
  const took = turn.take();
  return (async () => {
    try {
      await took;
      const early = ended();
      if (early) {
        clip.events?.push('dispose');
        return early;
      }
      const packets = await clip.open(turn.signal);
      return await turn.play(packets).result;
    } catch (error) {
      return ended() ?? { status: 'failed', seconds: 0, error };
    } finally {
      turn.done();
    }
  })();
}

/** A clip of a sine: records when it was opened, and can fail to open or fail mid-stream. */
function sineItem(hz: number, seconds: number, opts: { openError?: Error; failAfterPackets?: number } = {}) {
  const events: string[] = [];
  const item: TestClip = {
    events,
    label: `${hz} Hz`,
    open: async () => {
      events.push('open');
      if (opts.openError) throw opts.openError;
      const packets = sineOpusPackets(hz, seconds);
      if (opts.failAfterPackets === undefined) return Readable.from(packets);
      const failAt = opts.failAfterPackets;
      let sent = 0;
      return new Readable({
        objectMode: true,
        read() {
          const next = packets[sent++];
          if (sent > failAt || !next) this.destroy(new Error('stream broke'));
          else this.push(next);
        },
      });
    },
  };
  return { item, events };
}

describe('GuildPlayer with DAVE required', () => {
  it('goes disconnected -> connecting -> connected; the first clip waits for the DAVE transition, so no frame goes out unencrypted', async () => {
    const { player, guildId, lounge } = makePlayer();
    expect(player.state.kind).toBe('disconnected');
    const connecting = player.connect(lounge);
    expect(player.state.kind).toBe('connecting');
    expect(player.channelId).toBe(lounge);
    await connecting;
    expect(player.state.kind).toBe('connected');
    fake.clearAudio(guildId);
    expect((await enqueue(player, sineItem(440, 0.3).item)).status).toBe('played');
    const heard = await fake.waitForAudio(guildId, { minSeconds: 0.25 });
    expect(heard.dave?.plaintextFrames).toBe(0);
    expect(heard.dave?.e2eeFrames).toBe(15);
    expect(fake.daveState(guildId)?.established).toBe(true);
  });

  it('plays queued clips in order, each heard at its pitch, encrypted, and reports them played with their duration', async () => {
    const { player, guildId, lounge } = makePlayer();
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const low = sineItem(330, 0.4);
    const high = sineItem(660, 0.4);
    const results = [enqueue(player, low.item), enqueue(player, high.item)];
    expect(player.busy).toBe(true);
    const [a, b] = await Promise.all(results);
    expect(a).toMatchObject({ status: 'played' });
    expect(b).toMatchObject({ status: 'played' });
    expect(a?.seconds).toBeCloseTo(0.4, 1);
    expect(low.events).toEqual(['open']);
    // Queued next behind a clip under way: prepared as it was queued, opened at its turn.
    expect(high.events).toEqual(['prepare', 'open']);
    const heard = await fake.waitForAudio(guildId, { minSeconds: 0.75 });
    expect(heard.dave?.plaintextFrames).toBe(0);
    const half = heard.pcm.length / 2;
    expect(Math.abs(dominantHz(heard.pcm.subarray(0, half - (half % 2))) - 330)).toBeLessThan(10);
    expect(Math.abs(dominantHz(heard.pcm.subarray(half + (half % 2))) - 660)).toBeLessThan(10);
    expect(player.busy).toBe(false);
  });

  it('a clip queued next behind one already under way is prepared at once; one further back waits its turn', async () => {
    const { player, lounge } = makePlayer();
    await player.connect(lounge);
    const first = sineItem(440, 0.6);
    const next = sineItem(550, 0.2);
    const later = sineItem(660, 0.2);
    const results = [enqueue(player, first.item)];
    await settled();
    expect(first.events).toContain('open');
    // Enqueued while the first plays (auto-read hands a message over then): its audio is wanted now, not at its turn.
    results.push(enqueue(player, next.item));
    await settled();
    expect(next.events).toEqual(['prepare']);
    results.push(enqueue(player, later.item));
    await settled();
    expect(later.events).toEqual([]);
    expect((await Promise.all(results)).map((r) => r.status)).toEqual(['played', 'played', 'played']);
    expect(later.events).toEqual(['prepare', 'open']);
  });

  it('skip ends the current clip as skipped (with what was heard) and the queue goes on', async () => {
    const { player, guildId, lounge } = makePlayer();
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const first = enqueue(player, sineItem(440, 3).item);
    const second = enqueue(player, sineItem(550, 0.3).item);
    await fake.waitForPacket(guildId, (p) => !p.silence);
    expect(player.skip()).toBe(true);
    const skipped = await first;
    expect(skipped.status).toBe('skipped');
    expect(skipped.seconds).toBeLessThan(3);
    expect((await second).status).toBe('played');
    expect(player.skip()).toBe(false);
  });

  it('stop ends the current clip and empties the queue: every clip stopped, queued ones disposed unopened', async () => {
    const { player, guildId, lounge } = makePlayer();
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const current = enqueue(player, sineItem(440, 3).item);
    const queued = sineItem(550, 1);
    const waiting = enqueue(player, queued.item);
    await fake.waitForPacket(guildId, (p) => !p.silence);
    expect(player.stop()).toBe(1);
    expect(await current).toMatchObject({ status: 'stopped' });
    expect(await waiting).toEqual({ status: 'stopped', seconds: 0 });
    // Prepared as it was queued next (its audio wanted while the other played), then released unopened.
    expect(queued.events).toEqual(['prepare', 'dispose']);
    expect(player.state.kind).toBe('connected');
  });

  it('stop and skip with a choice touch only the clips it picks: the others play on', async () => {
    const { player, guildId, lounge } = makePlayer();
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const mine = (item: ClipOwner) => item.requestedBy?.userId === 'me';
    const others = { ...sineItem(440, 0.6).item, requestedBy: { userId: 'other', requesterMayStop: true } };
    const current = enqueue(player, others);
    const queuedMine = enqueue(player, {
      ...sineItem(550, 1).item,
      requestedBy: { userId: 'me', requesterMayStop: true },
    });
    const queuedOther = enqueue(player, {
      ...sineItem(660, 0.2).item,
      requestedBy: { userId: 'other', requesterMayStop: true },
    });
    await fake.waitForPacket(guildId, (p) => !p.silence);
    expect(player.skip(mine)).toBe(false);
    expect(player.stop(mine)).toBe(1);
    expect(player.playing).toBe(others);
    expect(await queuedMine).toEqual({ status: 'stopped', seconds: 0 });
    expect((await current).status).toBe('played');
    expect((await queuedOther).status).toBe('played');
  });

  it('end fails the clips it picks with its error: the one playing stops at once, queued ones go unopened, others play on', async () => {
    const { player, guildId, lounge } = makePlayer();
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const me = { userId: 'me', requesterMayStop: true };
    const mine = (item: ClipOwner) => item.requestedBy?.userId === 'me';
    const current = enqueue(player, { ...sineItem(440, 3).item, requestedBy: me });
    const queued = sineItem(550, 1);
    const waiting = enqueue(player, { ...queued.item, requestedBy: me });
    const other = enqueue(player, {
      ...sineItem(660, 0.2).item,
      requestedBy: { userId: 'other', requesterMayStop: true },
    });
    await fake.waitForPacket(guildId, (p) => !p.silence);
    const revoked = new Error('a right was taken away');
    expect(player.end(mine, revoked)).toBe(2);
    const ended = await current;
    expect(ended).toMatchObject({ status: 'failed', error: revoked });
    expect(ended.seconds).toBeLessThan(3);
    expect(await waiting).toEqual({ status: 'failed', seconds: 0, error: revoked });
    expect(queued.events).toEqual(['prepare', 'dispose']);
    expect((await other).status).toBe('played');
    expect(player.end(mine, revoked)).toBe(0);
  });

  it('end reaches a clip still opening its audio: it fails with that error, not with the abort it caused', async () => {
    const { player, lounge } = makePlayer();
    await player.connect(lounge);
    let opening: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (opening = resolve));
    const result = enqueue(player, {
      label: 'never opens',
      open: (signal) => {
        opening();
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      },
    });
    await opened;
    const revoked = new Error('a right was taken away');
    expect(player.end(() => true, revoked)).toBe(1);
    expect(await result).toEqual({ status: 'failed', seconds: 0, error: revoked });
  });

  it('a clip whose audio cannot be opened fails with that error, and the next one still plays', async () => {
    const { player, lounge } = makePlayer();
    await player.connect(lounge);
    const broken = new Error('no audio for you');
    const failed = enqueue(player, sineItem(440, 0.3, { openError: broken }).item);
    const next = enqueue(player, sineItem(440, 0.3).item);
    expect(await failed).toEqual({ status: 'failed', seconds: 0, error: broken });
    expect((await next).status).toBe('played');
  });

  it('a stream that breaks mid-clip fails the clip with its error and what was heard', async () => {
    const { player, lounge } = makePlayer();
    await player.connect(lounge);
    const result = await enqueue(player, sineItem(440, 2, { failAfterPackets: 15 }).item);
    expect(result.status).toBe('failed');
    expect(String(result.error)).toMatch(/stream broke/);
    expect(result.seconds).toBeLessThan(2);
  });

  it('a stream that stops before its end with no error (closed, never ended) is not played: it fails as audio stalled', async () => {
    const { player, lounge } = makePlayer();
    await player.connect(lounge);
    const packets = sineOpusPackets(440, 2);
    let sent = 0;
    const item: TestClip = {
      label: 'closes early',
      open: async () =>
        new Readable({
          objectMode: true,
          read() {
            // Its source let go after 15 packets: no end, no error (as the voice output ends a clip that stopped coming).
            if (sent === 15) this.destroy();
            else this.push(packets[sent++]);
          },
        }),
    };
    const result = await enqueue(player, item);
    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && result.error).toBeInstanceOf(AudioStalledError);
    expect(result.seconds).toBeLessThan(2);
  });

  it('a clip enqueued while not connected fails instead of waiting forever', async () => {
    const { player } = makePlayer();
    const result = await enqueue(player, sineItem(440, 0.3).item);
    expect(result.status).toBe('failed');
    expect(String(result.error)).toMatch(/not connected/);
  });

  it('kicked mid-clip (4014): the clip is cut off with what was heard, the queue ends, the player is disconnected and can join again', async () => {
    const { player, guildId, lounge } = makePlayer({ reconnectGraceMs: 300 });
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const current = enqueue(player, sineItem(440, 5).item);
    const queued = enqueue(player, sineItem(550, 1).item);
    // Kicked half a second in, past the join's own hold-up of the main thread: a session's end is placed no later
    // than the main thread's last look (a close rewinds over a hold-up just before it), so the first packets alone
    // could be taken as sent into the ended session.
    await expect.poll(() => fake.heardPackets(guildId).filter((p) => !p.silence).length).toBeGreaterThanOrEqual(25);
    fake.setVoiceState(guildId, APP_ID, null);
    const cut = await current;
    expect(cut.status).toBe('cut-off');
    expect(cut.seconds).toBeGreaterThan(0);
    expect(cut.seconds).toBeLessThan(5);
    expect(await queued).toEqual({ status: 'cut-off', seconds: 0 });
    expect(player.state.kind).toBe('disconnected');
    expect(logLines.join('')).toContain('"code":"voice-connection-lost"');
    expect(fake.voiceCloses(guildId).map((c) => c.code)).toContain(4014);

    await player.connect(lounge);
    expect((await enqueue(player, sineItem(440, 0.2).item)).status).toBe('played');
  });

  it('kicked mid-clip: cut off as soon as Discord says the bot is in no channel, not after the grace a move gets', async () => {
    // A grace longer than the test may run: only Discord's word (the bot's voice state, channel null) can end the clip.
    const { player, guildId, lounge } = makePlayer({ reconnectGraceMs: 600_000 });
    await player.connect(lounge);
    const current = enqueue(player, sineItem(440, 5).item);
    await fake.waitForPacket(guildId, (p) => !p.silence);
    fake.setVoiceState(guildId, APP_ID, null);
    const cut = await current;
    expect(cut.status).toBe('cut-off');
    expect(player.state.kind).toBe('disconnected');
  }, 30_000);

  it('the voice server goes away mid-clip: the clip is cut off after the grace period, and the next connect is heard', async () => {
    const { player, guildId, lounge } = makePlayer({ reconnectGraceMs: 300 });
    await player.connect(lounge);
    fake.clearAudio(guildId);
    const current = enqueue(player, sineItem(440, 5).item);
    await fake.waitForPacket(guildId, (p) => !p.silence);
    fake.dropVoiceServer(guildId);
    const cut = await current;
    expect(cut.status).toBe('cut-off');
    expect(cut.seconds).toBeLessThan(5);
    expect(player.state.kind).toBe('disconnected');

    await player.connect(lounge);
    fake.clearAudio(guildId);
    expect((await enqueue(player, sineItem(440, 0.3).item)).status).toBe('played');
    const heard = await fake.waitForAudio(guildId, { minSeconds: 0.25 });
    expect(heard.dave?.plaintextFrames).toBe(0);
  });

  it('a connection that offers no DAVE is refused with 4017 once: the join fails as dave-required, with no rejoin loop', async () => {
    const { player, guildId, lounge } = makePlayer({ daveEncryption: false });
    const error = await player.connect(lounge).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VoiceJoinError);
    expect((error as VoiceJoinError).reason).toBe('dave-required');
    expect(player.state.kind).toBe('disconnected');
    expect(fake.voiceCloses(guildId).filter((c) => c.code === 4017)).toHaveLength(1);
    expect(logLines.filter((l) => l.includes('"code":"voice-dave-required"'))).toHaveLength(1);
    await expect.poll(() => fake.botVoiceChannel(guildId)).toBeNull();
  });

  it('a join that does not become ready in time fails as a timeout and leaves nothing behind', async () => {
    const { player, lounge } = makePlayer({ readyTimeoutMs: 1 });
    await expect(player.connect(lounge)).rejects.toMatchObject({ name: 'VoiceJoinError', reason: 'timeout' });
    expect(player.state.kind).toBe('disconnected');
  });

  it('leaves after the idle timeout, and a destroyed player refuses to connect', async () => {
    const { player, lounge } = makePlayer({ idleTimeoutMs: 50 });
    await player.connect(lounge);
    await expect.poll(() => player.state.kind).toBe('disconnected');
    expect(logLines.join('')).toMatch(/"reason":"idle".*"msg":"left voice channel"/);
    player.destroy();
    expect(player.state.kind).toBe('destroyed');
    await expect(player.connect(lounge)).rejects.toThrow(/destroyed/);
  });
});

describe('GuildPlayer with DAVE off (protocol version 0)', () => {
  it('connects without waiting for a transition and plays unencrypted-by-DAVE audio that is heard', async () => {
    const { player, guildId, lounge } = makePlayer({}, { client: offClient, n: 0 });
    await player.connect(lounge);
    expect(offFake.daveState(guildId)).toBeUndefined();
    offFake.clearAudio(guildId);
    expect((await enqueue(player, sineItem(440, 0.3).item)).status).toBe('played');
    const heard = await offFake.waitForAudio(guildId, { minSeconds: 0.25 });
    expect(heard.dave).toBeUndefined();
    expect(Math.abs(dominantHz(heard.pcm) - 440)).toBeLessThan(10);
  });
});
