// The auto-reader over real discord.js Messages and voice states (the local Discord's MESSAGE_CREATE and
// VOICE_STATE_UPDATE through a real client), speaking into a recording stand-in for the pipeline's speak().
import { PassThrough } from 'node:stream';
import { getVoiceConnection } from '@discordjs/voice';
import { Events, GatewayIntentBits, type Client, type Message, type VoiceState } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AutoReader,
  type AutoReaderOptions,
  type ReaderEvents,
  type ReaderOrder,
  type ReaderNotice,
} from '../../../../src/features/autoread/reading/reader.ts';
import type { DistinctVoices } from '../../../../src/features/autoread/reading/voice.ts';
import type { FirstFrame, SpeechOutcome } from '../../../../src/core/order/pipeline.ts';
import { AUTO_READ_DEFAULTS, type AutoReadSettings } from '../../../../src/features/autoread/store/auto-read-store.ts';
import { createLogger } from '../../../../src/core/log.ts';
import { Refusal } from '../../../../src/core/refusal.ts';
import type { SpeechRequest } from '../../../../src/core/order/pipeline.ts';
import { FakeDiscord } from '@saybot/local-discord';
import type { Seat } from '../../../../src/core/voice/seats.ts';
import type { ChatMessage } from '@saybot/local-discord/message-create.ts';
import { GatewayIntent } from '@saybot/local-discord/state.ts';
import {
  APP_ID,
  TOKEN,
  guildSpec,
  joinReady,
  loginClient,
  trustCertificate,
} from '../../../packages/local-discord/helpers.ts';

const guild = guildSpec(1);
const [alice, bob] = guild.members as [(typeof guild.members)[0], (typeof guild.members)[0]];
const LOUNGE = guild.voiceChannels[0]!.id;
const QUIET = guild.voiceChannels[1]!.id;
const TEXT = guild.textChannelId;

let fake: FakeDiscord;
let client: Client;
let nextId = 500_000_000_000_000_000n;

beforeAll(async () => {
  fake = await FakeDiscord.start({
    token: TOKEN,
    applicationId: APP_ID,
    guilds: [guild],
    log: () => {},
    allowedPrivilegedIntents: GatewayIntent.MessageContent,
  });
  trustCertificate(fake.caCertificatePem);
  client = await loginClient(fake, {
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildVoiceStates,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
    ],
  });
});
afterAll(async () => {
  await client?.destroy();
  await fake?.close();
});

/** A stand-in for SpeechPipeline.speak(): records each order; `refuse`/`fail` script how the next ones settle. */
class Pipeline {
  readonly orders: ReaderOrder[] = [];
  /** How the coming orders settle, in turn; empty: accepted. */
  readonly script: Array<'accept' | Refusal | Error | Promise<void>> = [];

  readonly #waiting: Array<{ count: number; resolve: () => void }> = [];
  /** Set: each accepted job plays only when the test says so (`playing`), as a voice queue would. */
  held = false;
  readonly playing: Array<{ start: () => void; end: (kind: 'played' | 'stopped') => void }> = [];

  /** Resolves once `count` orders have been made. */
  ordered(count: number): Promise<void> {
    if (this.orders.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ count, resolve }));
  }

  speak = (order: ReaderOrder): ReaderEvents => {
    this.orders.push(order);
    for (const waiter of this.#waiting.filter((w) => this.orders.length >= w.count)) waiter.resolve();
    const next = this.script.shift() ?? 'accept';
    const accepted =
      next === 'accept'
        ? Promise.resolve({ parts: 1, ahead: 0 })
        : next instanceof Promise
          ? next.then(() => ({ parts: 1, ahead: 0 }))
          : Promise.reject(next);
    if (this.held && next === 'accept') {
      let start!: () => void;
      let end!: (kind: 'played' | 'stopped') => void;
      const firstAudio = new Promise<FirstFrame>((resolve) => (start = () => resolve({})));
      const outcome = new Promise<SpeechOutcome>((resolve) => (end = (kind) => resolve({ kind, seconds: 1 })));
      this.playing.push({ start, end });
      return { accepted, firstAudio, outcome };
    }
    const outcome = accepted.then(
      (): SpeechOutcome => ({ kind: 'played', seconds: 1 }),
      (error: unknown): SpeechOutcome => ({ kind: 'failed', error, secondsHeard: 0 }),
    );
    return { accepted, outcome };
  };

  get texts(): string[] {
    return this.orders.map((order) => order.request.text);
  }
}

interface Setup {
  reader: AutoReader;
  pipeline: Pipeline;
  notices: Extract<ReaderNotice, { kind: 'refused' }>[];
  behind: Extract<ReaderNotice, { count: number }>[];
  stopped: string[];
  voices: Array<string | null>;
  /** What each request was told of the others speaking now (voices:distinct), in order. */
  distinct: Array<DistinctVoices | undefined>;
  logs: () => Array<Record<string, unknown>>;
}

let detach: (() => void) | undefined;
afterEach(() => {
  detach?.();
  detach = undefined;
});

function setup(
  settings: Partial<AutoReadSettings> = {},
  options: {
    requestFails?: boolean;
    maxPending?: number;
    maxPendingSeconds?: number;
    memberMaySpeak?: AutoReaderOptions['memberMaySpeak'];
  } = {},
): Setup {
  const pipeline = new Pipeline();
  const notices: Extract<ReaderNotice, { kind: 'refused' }>[] = [];
  const behind: Extract<ReaderNotice, { count: number }>[] = [];
  const stopped: string[] = [];
  const voices: Array<string | null> = [];
  const distinct: Array<DistinctVoices | undefined> = [];
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().trim().split('\n')));
  const reader = new AutoReader({
    handOver: pipeline.speak,
    // The seat is the pipeline's to play on; this pipeline records the order and plays nothing.
    seatFor: () => ({}) as Seat,
    requestFor: async (_guildId, userId, text, others): Promise<SpeechRequest> => {
      voices.push(userId);
      distinct.push(others);
      if (options.requestFails && voices.length === 1) throw new Error('store unreachable');
      return { kind: 'tts', text, voice: userId === null ? 'server-voice' : `voice-of-${userId}`, format: 'wav' };
    },
    notify: async (notice) => {
      if (notice.kind === 'refused') notices.push(notice);
      else if (notice.kind !== 'fallback' && notice.kind !== 'charged') behind.push(notice);
    },
    ...(options.maxPending === undefined ? {} : { maxPending: options.maxPending }),
    ...(options.maxPendingSeconds === undefined ? {} : { maxPendingSeconds: options.maxPendingSeconds }),
    ...(options.memberMaySpeak === undefined ? {} : { memberMaySpeak: options.memberMaySpeak }),
    onStopped: (guildId) => stopped.push(guildId),
    logger: createLogger({ level: 'debug', destination: stream }),
  });
  reader.start({
    guildId: guild.id,
    channelId: TEXT,
    voiceChannelId: LOUNGE,
    settings: { ...AUTO_READ_DEFAULTS, ...settings },
  });
  const onMessage = (message: Message) => reader.onMessage(message);
  const onVoice = (before: VoiceState, after: VoiceState) => reader.onVoiceState(before, after);
  client.on(Events.MessageCreate, onMessage);
  client.on(Events.VoiceStateUpdate, onVoice);
  detach = () => {
    client.off(Events.MessageCreate, onMessage);
    client.off(Events.VoiceStateUpdate, onVoice);
    reader.close();
  };
  return {
    reader,
    pipeline,
    notices,
    behind,
    stopped,
    voices,
    distinct,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

type Post = Partial<Omit<ChatMessage, 'id' | 'guildId'>> & { content: string };

/** Posts a message and resolves once the reader has taken it and every message before it has reached the pipeline. */
async function post(reader: AutoReader, message: Post): Promise<void> {
  await arrive(message);
  await reader.settled(guild.id);
}

/** Posts a message and resolves once the client (and so the reader, listening first) has received it. */
async function arrive(message: Post): Promise<void> {
  const id = String(nextId++);
  const arrived = new Promise<void>((resolve) => {
    const listener = (m: Message) => {
      if (m.id !== id) return;
      client.off(Events.MessageCreate, listener);
      resolve();
    };
    client.on(Events.MessageCreate, listener);
  });
  const sent = await fake.postMessage({
    channelId: TEXT,
    author: { id: alice.id, username: alice.username },
    member: { roles: [] },
    ...message,
    id,
    guildId: guild.id,
  });
  expect(sent).toBe(true);
  await arrived;
}

/** A member's voice state changes; resolves once the client (and so the reader, listening first) has seen it. */
function change(userId: string, channelId: string | null): Promise<void> {
  return new Promise<void>((resolve) => {
    const listener = (_: VoiceState, after: VoiceState) => {
      if (after.id !== userId || after.channelId !== channelId) return;
      client.off(Events.VoiceStateUpdate, listener);
      resolve();
    };
    client.on(Events.VoiceStateUpdate, listener);
    fake.setVoiceState(guild.id, userId, channelId);
  });
}

describe('AutoReader', () => {
  it("reads the bound channel in order, each in its author's voice, the name once while the same member goes on", async () => {
    const { reader, pipeline, voices } = setup();
    let release!: () => void;
    pipeline.script.push(new Promise<void>((resolve) => (release = resolve)));
    await arrive({ content: 'first' });
    await arrive({ content: 'second' });
    // The second waits behind the first until the first is queued in the player: not even its voice is looked up.
    await pipeline.ordered(1);
    expect(pipeline.texts).toEqual(['alice1 said, first']);
    expect(voices).toEqual([alice.id]);
    release();
    await reader.settled(guild.id);
    await post(reader, { content: 'third' });
    expect(pipeline.texts).toEqual(['alice1 said, first', 'second', 'third']);
    expect(voices).toEqual([alice.id, alice.id, alice.id]);
    const order = pipeline.orders[0]!;
    expect(order.request).toMatchObject({ kind: 'tts', voice: `voice-of-${alice.id}` });
    expect(order.requester).toMatchObject({ guildId: guild.id, userId: alice.id, command: 'autoread' });
    expect(order.requester.id).toMatch(/^autoread-\d+$/);
    expect(order.target).toMatchObject({ kind: 'voice', channelId: LOUNGE });
  });

  it('reads each binding of a guild into its own voice channel, picked by the text channel; stops one alone', async () => {
    const { reader, pipeline } = setup({ sayAuthorName: false });
    // A second binding: the quiet room's own chat read into the quiet room.
    reader.start({
      guildId: guild.id,
      channelId: QUIET,
      voiceChannelId: QUIET,
      settings: { ...AUTO_READ_DEFAULTS, sayAuthorName: false, onlyMembersInVoice: false },
    });
    await post(reader, { content: 'for the lounge' });
    await post(reader, { content: 'for the quiet room', channelId: QUIET });
    expect(pipeline.orders.map((order) => [order.request.kind === 'tts' && order.request.text, order.target])).toEqual([
      ['for the lounge', expect.objectContaining({ channelId: LOUNGE })],
      ['for the quiet room', expect.objectContaining({ channelId: QUIET })],
    ]);
    expect(reader.stop(guild.id, QUIET)).toBe(true);
    await post(reader, { content: 'quiet again', channelId: QUIET });
    await post(reader, { content: 'lounge again' });
    expect(pipeline.texts.slice(2)).toEqual(['lounge again']);
    expect(reader.binding(guild.id, LOUNGE)).toBeDefined();
    expect([...(reader.channels.get(guild.id)?.keys() ?? [])]).toEqual([LOUNGE]);
  });

  it("sends a URL as a word and a mention as the member's name, then the dictionary", async () => {
    const { reader, pipeline } = setup({ sayAuthorName: false });
    reader.setDictionary(guild.id, [{ word: 'SayBot', reading: 'say bot' }]);
    await post(reader, {
      content: `<@${bob.id}> SayBot docs at https://example.com/some/long/path?x=1 ok`,
      mentions: [{ id: bob.id, username: bob.username }],
    });
    expect(pipeline.texts).toEqual(['bob1 say bot docs at example.com link ok']);
    expect(pipeline.texts[0]).not.toMatch(/https?:|<@|\d{15,}/);
  });

  it('applies a dictionary with patterns (in its worker thread) to the message and to the name', async () => {
    const { reader, pipeline } = setup();
    reader.setDictionary(guild.id, [
      { word: 'alice1', reading: 'Alice' },
      { pattern: '(\\d+)km', reading: '$1 kilometres' },
    ]);
    await post(reader, { content: 'ran 5km today' });
    expect(pipeline.texts).toEqual(['Alice said, ran 5 kilometres today']);
  });

  it('says nothing, not even the name, for a message the dictionary leaves empty', async () => {
    const { reader, pipeline } = setup();
    reader.setDictionary(guild.id, [{ pattern: '(x?)[a-z ]+', reading: '$1' }]);
    await post(reader, { content: 'all gone' });
    expect(pipeline.orders).toEqual([]);
    reader.setDictionary(guild.id, []);
    await post(reader, { content: 'heard' });
    // The emptied message was not heard: the name is due on the next one.
    expect(pipeline.texts).toEqual(['alice1 said, heard']);
  });

  it("does not read bots, webhooks, members outside the bot's voice channel or other channels by default", async () => {
    const { reader, pipeline } = setup();
    await post(reader, { content: 'beep', author: { id: '700000000000000001', username: 'otherbot', bot: true } });
    await post(reader, {
      content: 'hook',
      author: { id: '700000000000000002', username: 'hook', bot: true },
      webhookId: '700000000000000002',
      member: undefined,
    });
    await post(reader, { content: 'not in voice', author: { id: bob.id, username: bob.username } });
    await post(reader, { content: 'elsewhere', channelId: QUIET });
    expect(pipeline.orders).toEqual([]);
    await post(reader, { content: 'in voice' });
    expect(pipeline.texts).toEqual(['alice1 said, in voice']);
  });

  it('reads bots and webhooks, and members outside voice, when the settings say so', async () => {
    const { reader, pipeline } = setup({ readBots: true, onlyMembersInVoice: false, sayAuthorName: false });
    await post(reader, { content: 'beep', author: { id: '700000000000000001', username: 'otherbot', bot: true } });
    await post(reader, {
      content: 'hook',
      author: { id: '700000000000000002', username: 'hook', bot: true },
      webhookId: '700000000000000002',
      member: undefined,
    });
    await post(reader, { content: 'outside', author: { id: bob.id, username: bob.username } });
    expect(pipeline.texts).toEqual(['beep', 'hook', 'outside']);
  });

  it('cuts a long message with "and so on" in the server\'s language', async () => {
    const { reader, pipeline } = setup({ maxLength: 30, sayAuthorName: false });
    await post(reader, { content: 'one two three four five six seven eight nine ten eleven' });
    expect(pipeline.texts).toEqual(['one two three four, and so on']);
  });

  it('gives one notice when a budget refuses, stays silent while refused, and notices again after an accepted message', async () => {
    const { reader, pipeline, notices, logs } = setup({ sayAuthorName: false });
    const refusal = () =>
      new Refusal({
        code: 'budget-guild-month',
        limit: 10,
        used: 10,
        needed: 5,
        resetAt: new Date('2026-12-01T00:00:00Z'),
      });
    pipeline.script.push(refusal(), refusal(), refusal(), 'accept', refusal());
    for (const text of ['a1', 'a2', 'a3']) await post(reader, { content: text });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ guildId: guild.id, channelId: TEXT });
    expect(notices[0]?.refusal.reason.code).toBe('budget-guild-month');
    await post(reader, { content: 'ok now' });
    expect(notices).toHaveLength(1);
    await post(reader, { content: 'refused again' });
    expect(notices).toHaveLength(2);
    expect(pipeline.texts).toEqual(['a1', 'a2', 'a3', 'ok now', 'refused again']);
    expect(logs().filter((line) => line['code'] === 'autoread-refused')).toHaveLength(2);
  });

  it('says the name again after a refused message (the listeners did not hear it)', async () => {
    const { reader, pipeline } = setup();
    pipeline.script.push(new Refusal({ code: 'spends-unrecorded' }));
    await post(reader, { content: 'lost' });
    await post(reader, { content: 'heard' });
    expect(pipeline.texts).toEqual(['alice1 said, lost', 'alice1 said, heard']);
  });

  it('logs a failure once and goes on reading', async () => {
    const { reader, pipeline, logs } = setup({ sayAuthorName: false }, { requestFails: true });
    pipeline.script.push('accept', new Error('service down'), new Error('service down'));
    await post(reader, { content: 'store fails' });
    await post(reader, { content: 'accepted' });
    await post(reader, { content: 'fails 1' });
    await post(reader, { content: 'fails 2' });
    expect(pipeline.texts).toEqual(['accepted', 'fails 1', 'fails 2']);
    const failures = logs().filter((line) => line['code'] === 'autoread-failed');
    expect(failures).toHaveLength(2); // the store's, then one for the run of two service failures
  });

  it('stops when asked: nothing more is read', async () => {
    const { reader, pipeline } = setup();
    expect(reader.stop(guild.id)).toBe(true);
    expect(reader.binding(guild.id, LOUNGE)).toBeUndefined();
    await post(reader, { content: 'after stop' });
    expect(pipeline.orders).toEqual([]);
    expect(reader.stop(guild.id)).toBe(false);
  });

  it("announces members joining and leaving its voice channel when asked to, in the server's voice, charged to the server", async () => {
    const { reader, pipeline, voices } = setup({ announceJoinLeave: true });
    await change(bob.id, QUIET);
    await change(bob.id, LOUNGE);
    await change(bob.id, null);
    await reader.settled(guild.id);
    expect(pipeline.texts).toEqual(['bob1 joined', 'bob1 left']);
    expect(voices).toEqual([null, null]);
    // The server's spend (under its own ID), never the member who came or went.
    expect(pipeline.orders.map((order) => order.requester.userId)).toEqual([guild.id, guild.id]);
  });

  it('neither reads nor announces a member the managers ignore, still once forgotten, and again once unignored', async () => {
    const { reader, pipeline } = setup({ announceJoinLeave: true, sayAuthorName: false, onlyMembersInVoice: false });
    reader.setIgnored(guild.id, [bob.id]);
    const fromBob = { author: { id: bob.id, username: bob.username } };
    await post(reader, { content: 'from bob', ...fromBob });
    await change(bob.id, LOUNGE);
    await post(reader, { content: 'from alice' });
    expect(pipeline.texts).toEqual(['from alice']);
    // Their data deleted (/privacy): the ignore is the managers' record, and stays.
    reader.forgetMember(bob.id, guild.id);
    await post(reader, { content: 'bob after deleting', ...fromBob });
    await reader.settled(guild.id);
    expect(pipeline.texts).toEqual(['from alice']);
    reader.setIgnored(guild.id, []);
    await post(reader, { content: 'bob again', ...fromBob });
    await change(bob.id, null);
    await reader.settled(guild.id);
    expect(pipeline.texts).toEqual(['from alice', 'bob again', 'bob1 left']);
  });

  it('tells each request under voices:distinct which voices the others read lately speak in', async () => {
    const { reader, distinct } = setup({ voices: 'distinct', onlyMembersInVoice: false });
    await post(reader, { content: 'one' });
    await post(reader, { content: 'two', author: { id: bob.id, username: bob.username } });
    await post(reader, { content: 'three' });
    expect(distinct).toEqual([
      { speakingNow: new Map() },
      { speakingNow: new Map([[`voice-of-${alice.id}`, 1]]) },
      { speakingNow: new Map([[`voice-of-${bob.id}`, 1]]) },
    ]);
    reader.configure(guild.id, { voices: 'one' });
    await post(reader, { content: 'four' });
    expect(distinct[3]).toBeUndefined();
  });

  it('stops by itself when the bot leaves voice, and says so to the store', async () => {
    const { reader, pipeline, stopped } = setup();
    const connection = await joinReady(client, guild.id, LOUNGE);
    try {
      const left = new Promise<void>((resolve) => {
        const listener = (_: VoiceState, after: VoiceState) => {
          if (after.id !== APP_ID || after.channelId !== null) return;
          client.off(Events.VoiceStateUpdate, listener);
          resolve();
        };
        client.on(Events.VoiceStateUpdate, listener);
      });
      fake.setVoiceState(guild.id, APP_ID, null); // kicked
      await left;
      expect(stopped).toEqual([guild.id]);
      expect(reader.binding(guild.id, LOUNGE)).toBeUndefined();
      await post(reader, { content: 'nobody reads this' });
      expect(pipeline.orders).toEqual([]);
    } finally {
      connection.destroy();
      getVoiceConnection(guild.id)?.destroy();
    }
  });

  it('hands a message over only once the one before started playing, and counts it pending until it has played', async () => {
    const { reader, pipeline } = setup({ sayAuthorName: false });
    pipeline.held = true;
    for (const text of ['one', 'two', 'three']) await arrive({ content: text });
    await pipeline.ordered(1);
    // One handed over (held, fetched), the others unread: nothing requested or held for them yet.
    expect(pipeline.texts).toEqual(['one']);
    expect(reader.pending(guild.id)).toBe(3);
    pipeline.playing[0]?.start();
    await pipeline.ordered(2);
    expect(pipeline.texts).toEqual(['one', 'two']); // fetched while 'one' plays, not before
    pipeline.playing[0]?.end('played');
    await vi.waitFor(() => expect(reader.pending(guild.id)).toBe(2), { timeout: 20_000 });
    expect(pipeline.texts).toEqual(['one', 'two']); // 'two' has not started: 'three' still waits
    pipeline.playing[1]?.start();
    await pipeline.ordered(3);
    pipeline.playing[1]?.end('played');
    pipeline.playing[2]?.start();
    pipeline.playing[2]?.end('played');
    await vi.waitFor(() => expect(reader.pending(guild.id)).toBe(0), { timeout: 20_000 });
  });

  it('asks again before reading a waiting message: a member muted or ignored meanwhile is dropped unrequested', async () => {
    const muted = new Set<string>();
    const { reader, pipeline, logs } = setup(
      { sayAuthorName: false },
      {
        memberMaySpeak: (_guildId, userId, voiceChannelId) =>
          muted.has(userId) ? { code: 'muted', channelId: voiceChannelId } : undefined,
      },
    );
    pipeline.held = true;
    for (const text of ['one', 'two', 'three']) await arrive({ content: text });
    await pipeline.ordered(1);
    pipeline.playing[0]?.start();
    await pipeline.ordered(2);
    // 'two' was handed over while 'one' plays: the pipeline asks its stillAllowed before each of its parts.
    const two = pipeline.orders[1];
    expect(await two?.stillAllowed?.()).toBeUndefined();
    muted.add(alice.id);
    expect(await two?.stillAllowed?.()).toEqual({ code: 'muted', channelId: LOUNGE });
    muted.delete(alice.id);
    reader.setIgnored(guild.id, [alice.id]);
    expect(await two?.stillAllowed?.()).toEqual({ code: 'ignored' });
    // 'three' was still unread: dropped at its turn, never handed over.
    pipeline.playing[0]?.end('played');
    pipeline.playing[1]?.end('played');
    await vi.waitFor(() => expect(reader.pending(guild.id)).toBe(0), { timeout: 20_000 });
    await reader.settled(guild.id);
    expect(pipeline.texts).toEqual(['one', 'two']);
    expect(logs().filter((line) => line['skipped'] === 'ignored')).toHaveLength(1);
  });

  it('past the bound drops the oldest unread messages, never hands them over, and gives one notice per backlog', async () => {
    const { reader, pipeline, behind, logs } = setup({ sayAuthorName: false }, { maxPending: 3 });
    pipeline.held = true;
    for (let i = 1; i <= 10; i++) await arrive({ content: `m${i}` });
    await pipeline.ordered(1);
    expect(reader.pending(guild.id)).toBe(3);
    expect(behind).toEqual([
      { kind: 'dropped-oldest', count: 1, guildId: guild.id, channelId: TEXT, language: 'en-US' },
    ]);
    // m1 was handed over at once; m2..m8 were dropped unread; the newest two wait.
    const play = async (index: number, count: number) => {
      pipeline.playing[index]?.start();
      await pipeline.ordered(count);
      pipeline.playing[index]?.end('played');
    };
    await play(0, 2);
    await play(1, 3);
    pipeline.playing[2]?.start();
    pipeline.playing[2]?.end('played');
    await vi.waitFor(() => expect(reader.pending(guild.id)).toBe(0), { timeout: 20_000 });
    expect(pipeline.texts).toEqual(['m1', 'm9', 'm10']);
    expect(logs().filter((line) => line['code'] === 'autoread-behind')).toHaveLength(1);
    expect(logs().find((line) => line['code'] === 'autoread-caught-up')).toMatchObject({ dropped: 7 });
    // Caught up: the next overflow is announced again.
    for (let i = 11; i <= 15; i++) await arrive({ content: `m${i}` });
    expect(behind).toHaveLength(2);
  });

  it('bounds the backlog in estimated seconds too', async () => {
    // 15 characters a second: each 30-character message is about 2 s; 5 s hold two of them.
    const { reader, pipeline, behind } = setup({ sayAuthorName: false }, { maxPending: 0, maxPendingSeconds: 5 });
    pipeline.held = true;
    for (let i = 1; i <= 4; i++) await arrive({ content: `message number ${i} of four, read.` });
    await pipeline.ordered(1);
    expect(reader.pending(guild.id)).toBe(2);
    expect(behind).toHaveLength(1);
  });

  it('a /stop (the job ends stopped) drops the unread messages with it, as it empties the queue', async () => {
    const { reader, pipeline } = setup({ sayAuthorName: false });
    pipeline.held = true;
    for (const text of ['one', 'two', 'three']) await arrive({ content: text });
    await pipeline.ordered(1);
    pipeline.playing[0]?.end('stopped');
    await vi.waitFor(() => expect(reader.pending(guild.id)).toBe(0), { timeout: 20_000 });
    await reader.settled(guild.id);
    expect(pipeline.texts).toEqual(['one']);
  });
});
