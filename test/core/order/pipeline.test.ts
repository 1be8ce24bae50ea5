// SpeechPipeline with real parts: the Voice API sandbox over HTTP, real accounting on an in-memory store, and, for
// voice, a real discord.js client and @discordjs/voice against the local Discord (DAVE required).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Client } from 'discord.js';
import { VoiceApiClient } from '../../../src/core/api/client.ts';
import { ServerError } from '../../../src/core/api/errors.ts';
import { analyseClip } from '../../../src/core/audio/analysis/clip.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { Accounting } from '../../../src/core/quota/accounting.ts';
import { MONEY_RULES, Money, QuoteExceededError } from '../../../src/core/quota/money.ts';
import { type OperatorBudgets } from '../../../src/core/config.ts';
import { Refusal } from '../../../src/core/refusal.ts';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { SpeechInputError } from '../../../src/core/order-errors.ts';
import { estimateCeiling, OverSecondsCapError } from '../../../src/core/characters.ts';
import type { QueueBounds } from '../../../src/core/config.ts';
import { resolveSettings } from '../../../src/core/sourcing/voice-choice.ts';
import { planScene } from '../../../src/features/scenes/scene-plan.ts';
import { parseScript } from '../../../src/features/scenes/script.ts';
import { RightsRevokedError, type Revocation } from '../../../src/core/order/rights.ts';
import { PartSource } from '../../../src/core/sourcing/part-source.ts';
import { Order } from '../../../src/core/order/order-record.ts';
import {
  MEMBER_REQUEST,
  SpeechPipeline,
  type Requester,
  type SpeechOrder,
  type SpeechTarget,
} from '../../../src/core/order/pipeline.ts';
import type { Store } from '../../../src/core/store/types.ts';
import type { ServiceRequest } from '../../../src/core/settings/speech-request.ts';
import { PlayerRegistry } from '../../../src/core/voice/seats.ts';
import { FakeDiscord } from '@saybot/local-discord';
import { APP_ID, TOKEN, guildSpec, loginClient, trustCertificate } from '../../packages/local-discord/helpers.ts';
import { openSqliteStore } from '../../../src/app/store.ts';

const NO_BUDGETS: OperatorBudgets = { guildMonthlyChars: 0, memberDailyChars: 0, memberCooldownSeconds: 0 };
const MAX_CHARS = 40;
const guilds = Array.from({ length: 10 }, (_, i) => guildSpec(i + 1));
let nextGuild = 0;
let requestIds = 0;

let sandbox: Sandbox;
let api: VoiceApiClient;
let fake: FakeDiscord;
let discord: Client;
let store: Store;
let source: PartSource;
let players: PlayerRegistry;

beforeAll(async () => {
  [sandbox, fake] = await Promise.all([
    startSandbox(),
    FakeDiscord.start({ token: TOKEN, applicationId: APP_ID, guilds, dave: 'required' }),
  ]);
  trustCertificate(fake.caCertificatePem);
  discord = await loginClient(fake);
  api = new VoiceApiClient({ baseUrl: sandbox.url, apiKey: sandbox.testKey, maxRetries: 0 });
});
afterAll(async () => {
  await Promise.all([api?.close(), discord?.destroy()]);
  await Promise.all([sandbox?.close(), fake?.close()]);
});
beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(async () => {
  players?.destroyAll();
  await source?.close();
  await store.close();
  sandbox.clearFaults();
});

function makePipeline(
  budgets: OperatorBudgets = NO_BUDGETS,
  queue?: QueueBounds,
  inServer?: (guildId: string) => boolean,
): SpeechPipeline {
  const accounting = new Accounting({
    store,
    rules: MONEY_RULES,
    budgets,
    planCharacterLimit: 300_000,
    logger: silentLogger,
  });
  source = new PartSource({ client: api, logger: silentLogger, accounting });
  players = new PlayerRegistry({
    logger: silentLogger,
    idleTimeoutMs: 60_000,
    group: 'pipeline-test',
    readyTimeoutMs: 10_000,
  });
  return new SpeechPipeline({
    source,
    accounting,
    logger: silentLogger,
    maxCharsPerRequest: MAX_CHARS,
    ...(queue ? { queue } : {}),
    ...(inServer ? { inServer } : {}),
  });
}

function requester(guildId = 'G', userId = 'U'): Requester {
  requestIds += 1;
  return { guildId, userId, command: 'say', id: String(requestIds), policy: MEMBER_REQUEST };
}

/** What `accepted` rejected with, or undefined when it was accepted. */
const refusalOf = (job: { accepted: Promise<unknown> }) =>
  job.accepted.then(
    () => undefined,
    (e: unknown) => e,
  );

const tts = (text: string): ServiceRequest => ({ kind: 'tts', text, voice: 'voice-b-en-f-01', format: 'wav' });
const ttsRequests = () => sandbox.requests.filter((r) => r.endpoint === 'tts').length;
const month = () => new Date().toISOString().slice(0, 7);

/** A guild of its own for each voice test (tests pass alone and in any order), with Alice in its Lounge. */
function voiceGuild(): { guildId: string; target: SpeechTarget & { kind: 'voice' } } {
  const spec = guilds[nextGuild++];
  const guild = spec && discord.guilds.cache.get(spec.id);
  if (!spec || !guild) throw new Error('out of test guilds');
  return {
    guildId: spec.id,
    target: {
      kind: 'voice',
      channelId: spec.voiceChannels[0]!.id,
      seat: {
        guildId: spec.id,
        bot: { index: 0, players, userId: () => discord.user?.id, guild: () => guild },
        userId: discord.user!.id,
        guild,
        player: () => players.get(spec.id, guild.voiceAdapterCreator),
      },
    },
  };
}

describe('SpeechPipeline', () => {
  it('splits the text once: each part is requested once, all posted as ONE file (one header, exact sizes), and recorded', async () => {
    const pipeline = makePipeline();
    const sentences = ['The first sentence is here.', 'Then a second one follows.', 'And a third ends it.'];
    const before = ttsRequests();
    const job = pipeline.speak({ request: tts(sentences.join(' ')), requester: requester(), target: { kind: 'file' } });
    expect(await job.accepted).toEqual({ parts: 3, ahead: 0 });
    const outcome = await job.outcome;
    if (outcome.kind !== 'files') throw new Error(`expected files, got ${outcome.kind}`);
    expect(outcome.files).toHaveLength(1);
    expect(ttsRequests() - before).toBe(3);
    const file = outcome.files[0]!;
    expect(file.data.readUInt32LE(4)).toBe(file.data.length - 8);
    const info = await analyseClip(file.data);
    expect(info.truncated).toBe(false);
    const expected = sentences.reduce((sum, text) => sum + sandbox.expectedDurationSeconds(text), 0);
    expect(info.durationSeconds).toBeCloseTo(expected, 3);
    expect(outcome.seconds).toBeCloseTo(info.durationSeconds, 3);
    await source.close();
    expect((await store.spends.monthTotals(month(), 'G')).spent).toBe(sentences.join('').length);
  });

  it('file: MP3 parts joined frame by frame into one MP3 as long as the parts', async () => {
    const pipeline = makePipeline();
    const sentences = ['An MP3 in parts, first.', 'And the second part of it.'];
    const job = pipeline.speak({
      request: { kind: 'tts', text: sentences.join(' '), voice: 'voice-b-en-f-01', format: 'mp3' },
      requester: requester(),
      target: { kind: 'file' },
    });
    const outcome = await job.outcome;
    if (outcome.kind !== 'files') throw new Error(`expected files, got ${outcome.kind}`);
    expect(outcome.files).toHaveLength(1);
    const info = await analyseClip(outcome.files[0]!.data);
    expect(info.format).toBe('mp3');
    const expected = sentences.reduce((sum, text) => sum + sandbox.expectedDurationSeconds(text), 0);
    // The second part keeps its encoder priming and padding: a pause of under 0.1 s where the text was split.
    expect(info.durationSeconds).toBeGreaterThan(expected - 0.01);
    expect(info.durationSeconds).toBeLessThan(expected + 0.1);
  });

  it('file: over the target size limit it becomes a voice message, saying which file it replaced', async () => {
    const pipeline = makePipeline();
    const text = 'This file is bigger than the limit allows. So it must travel another way.';
    const job = pipeline.speak({
      request: tts(text),
      requester: requester(),
      target: { kind: 'file', sizeLimit: 100_000 },
    });
    const outcome = await job.outcome;
    if (outcome.kind !== 'voice-message') throw new Error(`expected a voice message, got ${outcome.kind}`);
    expect(outcome.insteadOfFile?.format).toBe('wav');
    expect(outcome.insteadOfFile?.limit).toBe(100_000);
    const bytes = outcome.insteadOfFile?.bytes ?? 0;
    expect(bytes).toBeGreaterThan(100_000);
    expect(outcome.message.ogg.length).toBeLessThan(100_000);
    // The voice message holds the whole file: 24 kHz 16-bit mono is 48,000 bytes a second after its 44-byte header.
    expect(Math.abs(outcome.seconds - (bytes - 44) / 48_000)).toBeLessThan(0.03);
  });

  it('voice-message: every part joined into one voice message, each part requested once and recorded', async () => {
    const pipeline = makePipeline();
    const sentences = ['The first sentence is here.', 'Then a second one follows.'];
    const before = ttsRequests();
    const job = pipeline.speak({
      request: tts(sentences.join(' ')),
      requester: requester(),
      target: { kind: 'voice-message' },
    });
    expect(await job.accepted).toEqual({ parts: 2, ahead: 0 });
    const outcome = await job.outcome;
    if (outcome.kind !== 'voice-message') throw new Error(`expected a voice message, got ${outcome.kind}`);
    expect(ttsRequests() - before).toBe(2);
    expect(outcome.seconds).toBe(outcome.message.durationSecs);
    const expected = sentences.reduce((sum, text) => sum + sandbox.expectedDurationSeconds(text), 0);
    // Each part loses at most its encoder's last partial frame and lookahead (docs/voice-messages.md).
    expect(outcome.seconds).toBeGreaterThan(expected - 2 * 0.0265);
    expect(outcome.seconds).toBeLessThanOrEqual(expected + 0.001);
    expect(outcome.message.ogg.subarray(0, 4).toString('latin1')).toBe('OggS');
    await source.close();
    expect((await store.spends.monthTotals(month(), 'G')).spent).toBe(sentences.join('').length);
  });

  it('voice-message: a part the service fails is the outcome, never a rejection', async () => {
    const pipeline = makePipeline();
    sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts' });
    const job = pipeline.speak({
      request: tts('The service is down for this one.'),
      requester: requester(),
      target: { kind: 'voice-message' },
    });
    await job.accepted;
    const outcome = await job.outcome;
    expect(outcome).toMatchObject({ kind: 'failed', secondsHeard: 0 });
    expect(outcome.kind === 'failed' && outcome.error).toBeInstanceOf(ServerError);
  });

  it('refuses a request over a budget before any API call: accepted rejects with the Refusal, the outcome carries it', async () => {
    const pipeline = makePipeline({ ...NO_BUDGETS, memberDailyChars: 5 });
    const before = sandbox.requests.length;
    const job = pipeline.speak({
      request: tts('More than five characters.'),
      requester: requester(),
      target: { kind: 'file' },
    });
    const refusal = await job.accepted.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(Refusal);
    expect((refusal as Refusal).reason).toMatchObject({ code: 'budget-member-day', limit: 5 });
    expect(await job.outcome).toEqual({ kind: 'failed', error: refusal, secondsHeard: 0 });
    expect(sandbox.requests.length).toBe(before);
  });

  it('refuses a scene file estimated past its 600 s cap (with the margin) before anything is held or sent', async () => {
    const pipeline = makePipeline();
    const before = sandbox.requests.length;
    // 40 lines of 99 Hangul syllables: 3,960 at 7 a second and 39 gaps, about 579 s, over 545.
    const line = (i: number) => ({
      request: tts(Array.from({ length: 99 }, (_, j) => String.fromCodePoint(0xac00 + i * 99 + j)).join('')),
      pauseBefore: i === 0 ? 0 : 0.35,
    });
    const job = pipeline.speak({
      scene: Array.from({ length: 40 }, (_, i) => line(i)),
      requester: requester(),
      target: { kind: 'file' },
    });
    const error = await refusalOf(job);
    expect(error).toBeInstanceOf(OverSecondsCapError);
    expect((error as OverSecondsCapError).cap).toBe(600);
    expect((error as OverSecondsCapError).estimate).toBeCloseTo(3_960 / 7 + 39 * 0.35, 6);
    expect(sandbox.requests.length).toBe(before);
  });

  it("checks a scene on the very figure its preview showed: planScene's seconds are the pipeline's estimate", async () => {
    const pipeline = makePipeline();
    const before = sandbox.requests.length;
    // Lines longer than a part (MAX_CHARS), split between words: an estimate of the parts would lose the spaces.
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const speaker = {
      name: 'Alice',
      settings: resolveSettings({ options: { voice: 'voice-b-en-f-01' }, guildLocale: null }),
      from: { kind: 'distinct' as const },
    };
    const script = Array.from({ length: 40 }, () => `Alice: ${words}`).join('\n');
    const plan = planScene(
      parseScript(script, { scriptChars: 100_000, lines: 100, characters: 100_000 }),
      new Map([['alice', speaker]]),
    );
    expect(plan.seconds).toBeGreaterThan(estimateCeiling(600));
    const error = await refusalOf(
      pipeline.speak({ scene: plan.lines, requester: requester(), target: { kind: 'file' } }),
    );
    expect(error).toBeInstanceOf(OverSecondsCapError);
    expect((error as OverSecondsCapError).estimate).toBe(plan.seconds);
    expect(sandbox.requests.length).toBe(before);
  });

  it("counts SayBot's own speed in a scene's estimate: 20 lines of 99 Hangul at half speed (about 566 s) refused", async () => {
    const pipeline = makePipeline();
    const before = sandbox.requests.length;
    // 1,980 syllables at 7 a second are 283 s, and 566 s at half speed: over the 545 s the margin lets through.
    const line = (i: number) => ({
      request: {
        ...tts(Array.from({ length: 99 }, (_, j) => String.fromCodePoint(0xac00 + i * 99 + j)).join('')),
        effects: { speed: 0.5, volumeDb: 0 },
      },
      pauseBefore: 0,
    });
    const error = await refusalOf(
      pipeline.speak({
        scene: Array.from({ length: 20 }, (_, i) => line(i)),
        requester: requester(),
        target: { kind: 'file' },
      }),
    );
    expect(error).toBeInstanceOf(OverSecondsCapError);
    expect((error as OverSecondsCapError).estimate).toBeCloseTo((2 * 1_980) / 7, 6);
    expect(sandbox.requests.length).toBe(before);
  });

  it('never pays more for a scene than its quote: parts that cost more now are refused before anything is sent', async () => {
    const pipeline = makePipeline();
    const lines = [
      { request: tts('A line made once.'), pauseBefore: 0 },
      { request: tts('And one more.'), pauseBefore: 0.35 },
    ];
    const before = sandbox.requests.length;
    const over = pipeline.speak({ scene: lines, requester: requester(), target: { kind: 'file' }, quoted: 29 });
    const error = await refusalOf(over);
    expect(error).toBeInstanceOf(QuoteExceededError);
    expect((error as QuoteExceededError).quoted).toBe(29);
    expect(sandbox.requests.length).toBe(before);
    // At its price (30 characters) it is made.
    const priced = pipeline.speak({ scene: lines, requester: requester(), target: { kind: 'file' }, quoted: 30 });
    expect((await priced.outcome).kind).toBe('files');
    expect(ttsRequests()).toBeGreaterThan(0);
  });

  it('refuses a text with nothing to say as a SpeechInputError, before any API call', async () => {
    const pipeline = makePipeline();
    const before = sandbox.requests.length;
    const job = pipeline.speak({ request: tts(' \n '), requester: requester(), target: { kind: 'file' } });
    const error = await job.accepted.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpeechInputError);
    expect((error as SpeechInputError).problem).toEqual({ code: 'empty-text' });
    expect(await job.outcome).toEqual({ kind: 'failed', error, secondsHeard: 0 });
    expect(sandbox.requests.length).toBe(before);
  });

  it("turns the service's failure into an outcome, never a rejection, and spends nothing", async () => {
    const pipeline = makePipeline();
    sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts' });
    const job = pipeline.speak({
      request: tts('The service is down.'),
      requester: requester(),
      target: { kind: 'file' },
    });
    await job.accepted;
    const outcome = await job.outcome;
    expect(outcome).toMatchObject({ kind: 'failed', secondsHeard: 0 });
    expect(outcome.kind === 'failed' && outcome.error).toBeInstanceOf(ServerError);
    expect((await store.spends.monthTotals(month(), 'G')).spent).toBe(0);
  });

  it("voice: when accepted, the join and the first part's request are both under way; then it is heard, encrypted, and played", async () => {
    const pipeline = makePipeline();
    const { guildId, target } = voiceGuild();
    const text = 'Joined and fetched side by side.';
    fake.clearAudio(guildId);
    const job = pipeline.speak({ request: tts(text), requester: requester(guildId), target });
    expect(await job.accepted).toEqual({ parts: 1, ahead: 0 });
    // Nothing has been awaited since acceptance: both started before a front-end could acknowledge anything.
    expect(players.find(guildId)?.state.kind).toBe('connecting');
    expect((await source.needs(tts(text), [text]))[0]?.free).toBe(true);
    await job.firstAudio;
    const outcome = await job.outcome;
    expect(outcome.kind).toBe('played');
    expect(outcome.kind === 'played' && outcome.seconds).toBeCloseTo(sandbox.expectedDurationSeconds(text), 1);
    const heard = await fake.waitForAudio(guildId, { minSeconds: sandbox.expectedDurationSeconds(text) - 0.1 });
    expect(heard.dave?.plaintextFrames).toBe(0);
  });

  it('voice: a job accepted while the one before is still joining counts its clips as ahead and plays after it', async () => {
    const pipeline = makePipeline();
    const { guildId, target } = voiceGuild();
    const first = pipeline.speak({
      request: tts('First in line, spoken first. Then its second part.'),
      requester: requester(guildId),
      target,
    });
    const second = pipeline.speak({ request: tts('Second in line.'), requester: requester(guildId), target });
    expect(await first.accepted).toEqual({ parts: 2, ahead: 0 });
    expect(await second.accepted).toEqual({ parts: 1, ahead: 2 });
    const order: string[] = [];
    void first.outcome.then(() => order.push('first done'));
    void second.firstAudio.then(() => order.push('second heard'));
    expect((await first.outcome).kind).toBe('played');
    expect((await second.outcome).kind).toBe('played');
    expect(order).toEqual(['first done', 'second heard']);
  });

  it('voice: an order waiting to fetch behind another is never fetched once a stop ends both: nothing paid for nothing', async () => {
    const pipeline = makePipeline();
    const { guildId, target } = voiceGuild();
    const before = sandbox.requests.length;
    const first = pipeline.speak({
      request: tts('Playing while the next one waits. Its second part.'),
      requester: requester(guildId),
      target,
    });
    const waiting = 'Waiting behind it, never asked for.';
    const second = pipeline.speak({ request: tts(waiting), requester: requester(guildId), target });
    expect(await second.accepted).toEqual({ parts: 1, ahead: 2 });
    await first.firstAudio;
    // Ending every order wakes each in turn (near): the one woken must not fetch.
    expect(players.find(guildId)?.stop()).toBe(2);
    expect((await first.outcome).kind).toBe('stopped');
    expect((await second.outcome).kind).toBe('stopped');
    await source.close();
    const asked = sandbox.requests.slice(before).map((r) => r.text ?? '');
    expect(asked).toContain('Playing while the next one waits.');
    expect(asked).not.toContain(waiting);
    expect((await store.spends.monthTotals(month(), guildId)).spent).toBe(asked.join('').length);
  });

  it('voice: a member past the per-member bound is refused before anything is held or sent; another member still gets in', async () => {
    // A daily budget makes every accepted request hold characters: a refused one must hold none.
    const pipeline = makePipeline(
      { ...NO_BUDGETS, memberDailyChars: 10_000 },
      { guildSeconds: 0, guildClips: 0, memberRequests: 2 },
    );
    const { guildId, target } = voiceGuild();
    const mine = [
      pipeline.speak({ request: tts('Mine, one.'), requester: requester(guildId), target }),
      pipeline.speak({ request: tts('Mine, two.'), requester: requester(guildId), target }),
    ];
    await Promise.all(mine.map((job) => job.accepted));
    const before = ttsRequests();
    const third = pipeline.speak({ request: tts('Mine, three: one too many.'), requester: requester(guildId), target });
    const refusal = await refusalOf(third);
    expect(refusal).toBeInstanceOf(Refusal);
    expect((refusal as Refusal).reason).toEqual({ code: 'queue-member-full', limit: 2, queued: 2 });
    expect(await third.outcome).toMatchObject({ kind: 'failed', error: refusal });
    const other = pipeline.speak({ request: tts('Someone else.'), requester: requester(guildId, 'V'), target });
    expect(await refusalOf(other)).toBeUndefined();
    for (const job of [...mine, other]) expect((await job.outcome).kind).toBe('played');
    // Only the three accepted texts were ever requested; the refused one never reached the service.
    expect(sandbox.requests.some((r) => r.text === 'Mine, three: one too many.')).toBe(false);
    expect(ttsRequests() - before).toBeLessThanOrEqual(3);
    // Once played, the member's place is free again.
    expect(
      await refusalOf(pipeline.speak({ request: tts('Mine, again.'), requester: requester(guildId), target })),
    ).toBeUndefined();
  });

  it("voice: the server's queue is bounded in clips and in estimated seconds; a lone request always fits", async () => {
    const pipeline = makePipeline(NO_BUDGETS, { guildSeconds: 2, guildClips: 2, memberRequests: 0 });
    const { guildId, target } = voiceGuild();
    // Three parts (MAX_CHARS 40) with nothing ahead: taken, whatever the clip bound.
    const long = pipeline.speak({
      request: tts('A long first request, split in parts. It has a second part here. And a third one too.'),
      requester: requester(guildId),
      target,
    });
    expect(await long.accepted).toMatchObject({ parts: 3, ahead: 0 });
    const clips = await refusalOf(
      pipeline.speak({ request: tts('Short.'), requester: requester(guildId, 'V'), target }),
    );
    expect((clips as Refusal).reason).toEqual({ code: 'queue-guild-full', bound: 'clips', limit: 2, queued: 3 });
    expect((await long.outcome).kind).toBe('played');
    // Empty again: one short clip is taken; a second whose estimate passes 2 s in all (0.2 + 2.7) is refused on
    // seconds.
    const short = pipeline.speak({ request: tts('Hi.'), requester: requester(guildId), target });
    await short.accepted;
    const seconds = await refusalOf(
      pipeline.speak({
        request: tts('Forty characters of speech, to be heard.'),
        requester: requester(guildId, 'V'),
        target,
      }),
    );
    expect((seconds as Refusal).reason).toMatchObject({
      code: 'queue-guild-full',
      bound: 'seconds',
      limit: 2,
      queued: 1,
    });
    expect((await short.outcome).kind).toBe('played');
  });

  it('asks again before each part: a server SayBot is no longer in drops the rest of a file unrequested, the paid part recorded', async () => {
    // Asked once per part: SayBot is kicked once the first part was let through.
    let asked = 0;
    const pipeline = makePipeline(NO_BUDGETS, undefined, () => ++asked <= 1);
    const sentences = ['The first sentence is here.', 'Then a second one follows.', 'And a third ends it.'];
    const before = sandbox.requests.length;
    const job = pipeline.speak({ request: tts(sentences.join(' ')), requester: requester(), target: { kind: 'file' } });
    expect(await job.accepted).toEqual({ parts: 3, ahead: 0 });
    const outcome = await job.outcome;
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.error).toBeInstanceOf(RightsRevokedError);
    expect(sandbox.requests.slice(before).map((r) => r.text)).toEqual([sentences[0]]);
    await source.close();
    expect((await store.spends.monthTotals(month(), 'G')).spent).toBe(sentences[0]?.length);
  });

  it("voice: the requester's stillAllowed is asked before each part; once revoked, nothing more is heard or requested", async () => {
    const pipeline = makePipeline();
    const { guildId, target } = voiceGuild();
    const sentences = ['The first sentence is here.', 'Then a second one follows.', 'And a third ends it.'];
    const rights: { revoked?: Revocation } = {};
    const before = sandbox.requests.length;
    fake.clearAudio(guildId);
    const job = pipeline.speak({
      request: tts(sentences.join(' ')),
      requester: requester(guildId),
      stillAllowed: () => rights.revoked,
      target,
    });
    await job.firstAudio;
    const revoked: Revocation = { code: 'muted', channelId: target.channelId };
    rights.revoked = revoked;
    const outcome = await job.outcome;
    if (outcome.kind !== 'failed') throw new Error(`expected failed, got ${outcome.kind}`);
    expect(outcome.error).toBeInstanceOf(RightsRevokedError);
    expect((outcome.error as RightsRevokedError).revocation).toEqual(revoked);
    // The first part was heard whole; the second, asked for while it played, was not played; the third never asked.
    const first = sandbox.expectedDurationSeconds(sentences[0] ?? '');
    expect(outcome.secondsHeard).toBeCloseTo(first, 1);
    const asked = sandbox.requests.slice(before).map((r) => r.text);
    expect(asked.length).toBeLessThanOrEqual(2);
    expect(asked).not.toContain(sentences[2]);
    await source.close();
    // What was paid is recorded, whether heard or not; nothing else.
    const paid = asked.reduce((sum, text) => sum + (text?.length ?? 0), 0);
    expect((await store.spends.monthTotals(month(), guildId)).spent).toBe(paid);
  });

  it('voice: settling that throws still ends the order failed, its charge closed and place given back; the next plays', async () => {
    // One request at a time for the member: a place never given back would refuse the next.
    const pipeline = makePipeline(
      { ...NO_BUDGETS, memberDailyChars: 10_000 },
      { guildSeconds: 0, guildClips: 0, memberRequests: 1 },
    );
    const { guildId, target } = voiceGuild();
    const broken = new Error('settling failed');
    const settle = vi.spyOn(Money.prototype, 'settle').mockImplementationOnce(() => {
      throw broken;
    });
    try {
      const job = pipeline.speak({ request: tts('Settled all the same.'), requester: requester(guildId), target });
      await job.accepted;
      expect(await job.outcome).toMatchObject({ kind: 'failed', error: broken });
    } finally {
      settle.mockRestore();
    }
    const next = pipeline.speak({ request: tts('And the next one plays.'), requester: requester(guildId), target });
    expect(await refusalOf(next)).toBeUndefined();
    expect((await next.outcome).kind).toBe('played');
  });
  it('voice: an acceptance that throws after the money accepted gives back its charge and place; the next plays', async () => {
    // One request at a time for the member: a place never given back would refuse the next.
    const pipeline = makePipeline(
      { ...NO_BUDGETS, memberDailyChars: 10_000 },
      { guildSeconds: 0, guildClips: 0, memberRequests: 1 },
    );
    const { guildId, target } = voiceGuild();
    const broken = new Error('accepted out of turn');
    const accept = vi.spyOn(Order.prototype, 'accept').mockImplementationOnce(() => {
      throw broken;
    });
    try {
      const job = pipeline.speak({ request: tts('Never accepted.'), requester: requester(guildId), target });
      expect(await refusalOf(job)).toBe(broken);
    } finally {
      accept.mockRestore();
    }
    const next = pipeline.speak({ request: tts('And the next one plays.'), requester: requester(guildId), target });
    expect(await refusalOf(next)).toBeUndefined();
    expect((await next.outcome).kind).toBe('played');
  });
});

describe('SpeechPipeline without a rights port (the core alone)', () => {
  it('holds an order to no rights but its own: accepted, answered publicly, never revoked', async () => {
    const { rights } = new SpeechPipeline({
      source: {} as never,
      accounting: {} as never,
      logger: silentLogger,
      maxCharsPerRequest: 100,
    });
    const effects: SpeechOrder['effects'] = { does: ['speak-in-voice', 'member-words'], at: null };
    expect(rights.allows(effects)).toEqual({ kind: 'allowed', privately: false });
    expect(rights.stillAllows(effects)).toBeUndefined();
    const order: SpeechOrder = {
      requester: { guildId: 'g', userId: 'u', command: 'say', id: '1', policy: MEMBER_REQUEST },
      target: { kind: 'file' },
      request: { kind: 'tts', text: 'hello', voice: 'v', format: 'wav' },
      effects,
    };
    const held = rights.allow(order);
    expect(held.kind === 'allowed' && (await held.order.stillAllowed?.())).toBeUndefined();
  });
});
