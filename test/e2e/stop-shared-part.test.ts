// Two members ask the very same line in voice while the first one's paid part is at the service: the second order
// counts that part free (in flight), so it waits for the same call from its acceptance, as a file's does. The first
// member's /stop or /skip lets go only of their own wait: the call goes on for the second, paid once, never asked
// again nor refused by a budget after "Queued", and the books hold what the service billed. Once the second order is
// over too, nobody waits, and the call is closed as when nobody shared it.
import { describe, expect, it } from 'vitest';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { booksSettled } from '../support/books-settled.ts';
import { answerOf, spentShown, until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { HOLD_DEADLINE, heldWriteAhead } from '../support/held-write-ahead.ts';

const GUILD = '200000000000000961';
const A = '300000000000009611';
const B = '300000000000009612';
const VC = '220000000000000961';
const VOICE = 'voice-b-en-f-01';
const TEXT = 'The very same line asked by two members at once.'; // 48 characters: one part
const guilds = [
  oneRoomGuild(GUILD, 'Shared', { text: '210000000000000961', voice: VC }, [
    { id: A, username: 'a', locale: 'en-US', voiceChannelId: VC },
    { id: B, username: 'b', locale: 'en-US', voiceChannelId: VC },
  ]),
];

const useHarness = useHarnessPerTest();
// Each line lasts its shortest (0.5 s): what is asserted is who was told what and what was paid, not the audio's length.
const harnessFor = (options: HarnessOptions) => useHarness({ ...options, sandbox: { secondsPerCharacter: 0.01 } });
const tts = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'tts');
const say = (h: Harness, userId: string, output?: 'file') =>
  h.discord.command({
    guildId: GUILD,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: TEXT },
      { name: 'voice', value: VOICE },
      ...(output === undefined ? [] : [{ name: 'output', value: output }]),
    ],
  });
const queued = (handle: InteractionHandle) => handle.waitFor((r) => /^Queued/.test(r.content ?? ''), 20_000);

interface Shared {
  fault: 'hold-after-charge' | 'hold-before-charge';
  /** What the first member sends while the call is held: it lets go of their own order only. */
  how: 'stop' | 'skip';
  /** BUDGET_GUILD_MONTHLY_CHARS: 70 leaves room for the line once, not twice. */
  budget?: number;
  /** Who asks the line the second time (the first member again: their second order). */
  second?: string;
}

/** A's part held at the service; B's identical order queued (counted free); A lets go; the service answers. */
async function shared({ fault, how, budget = 0, second = B }: Shared) {
  const h = await harnessFor({
    guilds,
    config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 },
    env: { BUDGET_GUILD_MONTHLY_CHARS: String(budget) },
  });
  h.sandbox.injectFault({ kind: fault, endpoint: 'tts' });
  const first = await say(h, A);
  await until(() => tts(h)[0]?.outcome === (fault === 'hold-after-charge' ? 'held' : 'waiting'));
  const other = await say(h, second);
  await queued(other);
  const lettingGo = await runCommand(h, { guildId: GUILD, userId: A, name: how });
  expect(lettingGo.content).toMatch(how === 'stop' ? /^Stopped/ : /^Skipped/);
  h.sandbox.resumePaused();
  await answerOf(first, 60_000);
  const answer = await answerOf(other, 60_000);
  await booksSettled(h);
  return { answer, billed: h.sandbox.charactersBilled(), usage: await spentShown(h, GUILD, A), calls: tts(h) };
}

describe("a member's /stop or /skip while another's identical order waits for the same paid part", () => {
  it('charged, its answer held, no budget: the call goes on for the other, paid once, the books as billed', async () => {
    const { answer, billed, usage, calls } = await shared({ fault: 'hold-after-charge', how: 'stop' });
    expect(answer).toMatch(/^Spoke/);
    expect(calls).toHaveLength(1);
    expect(billed).toBe(TEXT.length);
    expect(usage).toBe(billed);
  });

  it('the same with /skip', async () => {
    const { answer, billed, usage, calls } = await shared({ fault: 'hold-after-charge', how: 'skip' });
    expect(answer).toMatch(/^Spoke/);
    expect(calls).toHaveLength(1);
    expect(billed).toBe(TEXT.length);
    expect(usage).toBe(billed);
  });

  it('a server budget with room for the line once: the other, told "Queued", is never refused for it', async () => {
    const { answer, billed, usage } = await shared({ fault: 'hold-after-charge', how: 'stop', budget: 70 });
    expect(answer).toMatch(/^Spoke/);
    expect(billed).toBe(TEXT.length);
    expect(usage).toBe(billed);
  });

  it('held before its charge, the same budget: not closed, charged once as it goes on, the other spoken', async () => {
    const { answer, billed, usage, calls } = await shared({ fault: 'hold-before-charge', how: 'stop', budget: 70 });
    expect(answer).toMatch(/^Spoke/);
    expect(calls).toHaveLength(1);
    expect(billed).toBe(TEXT.length);
    expect(usage).toBe(billed);
  });

  it("one member's two orders of the line, the first skipped: the second spoken, paid once", async () => {
    const { answer, billed, usage, calls } = await shared({ fault: 'hold-after-charge', how: 'skip', second: A });
    expect(answer).toMatch(/^Spoke/);
    expect(calls).toHaveLength(1);
    expect(billed).toBe(TEXT.length);
    expect(usage).toBe(billed);
  });

  it('the other order stopped first: its wait ends with it, and the call is closed at the first /stop, billed nothing', async () => {
    const h = await harnessFor({ guilds, config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 } });
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const first = await say(h, A);
    await until(() => tts(h)[0]?.outcome === 'waiting');
    const other = await say(h, B);
    await queued(other);
    expect((await runCommand(h, { guildId: GUILD, userId: B, name: 'stop' })).content).toMatch(/^Stopped/);
    expect(await answerOf(other, 60_000)).toMatch(/^Stopped/);
    expect((await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' })).content).toMatch(/^Stopped/);
    // Nobody waits for it any more: closed while it waits at the service, before any charge.
    await until(() => tts(h)[0]?.outcome === 'client-aborted');
    h.sandbox.resumePaused();
    await answerOf(first, 60_000);
    await booksSettled(h);
    expect(tts(h)).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(0);
    // Closed before any answer: kept on the books as it may have been charged (stop-held.test.ts).
    expect(await spentShown(h, GUILD, A)).toBe(TEXT.length);
  });

  it('the other order refused at acceptance (its other part over the budget): it never waits, the call is closed', async () => {
    const h = await harnessFor({
      guilds,
      config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 },
      env: { BUDGET_GUILD_MONTHLY_CHARS: '70' },
    });
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const first = await say(h, A);
    await until(() => tts(h)[0]?.outcome === 'waiting');
    // Its first part is the line in flight (free), its second 30 characters more than the budget leaves.
    const other = await h.discord.command({
      guildId: GUILD,
      userId: B,
      name: 'say',
      options: [
        { name: 'text', value: `${TEXT} And thirty characters more here.` },
        { name: 'voice', value: VOICE },
      ],
    });
    expect(await answerOf(other, 60_000)).toMatch(/monthly budget is 70 characters/);
    expect((await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' })).content).toMatch(/^Stopped/);
    await until(() => tts(h)[0]?.outcome === 'client-aborted');
    h.sandbox.resumePaused();
    await answerOf(first, 60_000);
    await booksSettled(h);
    expect(tts(h)).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(0);
  });

  it("files: the first member's /stop while the call is held before its charge: it goes on for the other, and the first is told it was counted, not closed", async () => {
    const h = await harnessFor({ guilds, config: { maxCharsPerRequest: 60 } });
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const first = await say(h, A, 'file');
    await until(() => tts(h)[0]?.outcome === 'waiting');
    const other = await say(h, B, 'file');
    // Acknowledged once accepted: from then on it waits for the same call.
    await until(() => other.responses.length > 0);
    expect((await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' })).content).toMatch(/^Stopped/);
    h.sandbox.resumePaused();
    const stopped = await answerOf(first, 60_000);
    const made = await other.waitFor((r) => r.files.length > 0, 60_000);
    await booksSettled(h);
    expect(made.files).toHaveLength(1);
    expect(tts(h)).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(TEXT.length);
    expect(await spentShown(h, GUILD, A)).toBe(TEXT.length);
    // Its characters were counted by the service as the call went on: said so, never "closed ... may have counted".
    expect(stopped).not.toMatch(/closed|may have counted/);
    expect(stopped).toContain(t('en-US', 'error.renderStopped.paid', { paid: TEXT.length }));
  });

  it("files: the first member's /stop, then the shared call fails after its charge: the first is told of the stop, the other of the failure", async () => {
    const h = await harnessFor({ guilds, config: { maxCharsPerRequest: 60 } });
    h.sandbox.injectFault({ kind: 'hold-after-charge', then: 'reset', endpoint: 'tts' });
    const first = await say(h, A, 'file');
    await until(() => tts(h)[0]?.outcome === 'held');
    const other = await say(h, B, 'file');
    await until(() => other.responses.length > 0);
    expect((await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' })).content).toMatch(/^Stopped/);
    h.sandbox.resumePaused();
    const stopped = await answerOf(first, 60_000);
    const failed = await answerOf(other, 60_000);
    await booksSettled(h);
    expect(tts(h)).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(TEXT.length);
    expect(await spentShown(h, GUILD, A)).toBe(TEXT.length);
    // Its call failed after the service took it: the stop's words, with the characters it may have counted.
    expect(stopped).toContain(t('en-US', 'error.renderStopped.closed', { unconfirmed: TEXT.length }));
    // The other sent nothing of its own: what the service may have counted was the first order's (said there).
    expect(failed).toBe(t('en-US', 'error.api.sharedCallFailed'));
  });

  it("files, the free voice standing in for a failing service: the first member's /stop, then the shared call fails (503) before any charge: only the other's part is spoken in the free voice", async () => {
    const gate = heldWriteAhead(TEXT.length);
    const h = await harnessFor({
      guilds,
      config: { maxCharsPerRequest: 60 },
      env: { FREE_VOICE: 'fallback', ...HOLD_DEADLINE },
      wrapStore: gate.wrap,
    });
    h.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts', times: Infinity });
    const first = await say(h, A, 'file');
    // Written ahead, not yet sent: the other order counts it free and waits for the same call.
    await gate.reached;
    const other = await say(h, B, 'file');
    await until(() => other.responses.length > 0);
    expect((await runCommand(h, { guildId: GUILD, userId: A, name: 'stop' })).content).toMatch(/^Stopped/);
    gate.release();
    const stopped = await answerOf(first, 60_000);
    const made = await other.waitFor((r) => r.files.length > 0, 60_000);
    await booksSettled(h);
    expect(stopped).toBe(t('en-US', 'error.renderStopped'));
    expect(made.content).toMatch(/the free voice/);
    expect(h.sandbox.charactersBilled()).toBe(0);
    expect(await spentShown(h, GUILD, A)).toBe(0);
    // The service failed the other's part, not the stopped one's: no free voice speaks for an order that ended.
    expect(
      h
        .logs()
        .split('\n')
        .filter((line) => line.includes('"code":"free-voice-fallback"')),
    ).toHaveLength(1);
  });
});
