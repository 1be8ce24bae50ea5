// A member's order in voice counts a part free because an identical paid part is at the service for another member;
// its turn comes only after that call is over. The part shares that call's fate for it, as a file's does: the call's
// audio (kept for it, even with the audio cache off) or the call's failure. It is never asked nor paid again, nor
// refused for money after "Queued".
import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '@saybot/voice-sandbox';
import { t } from '../../src/core/i18n/catalogue.ts';
import { booksSettled } from '../support/books-settled.ts';
import { answerOf, spentShown, until } from '../support/books-shown.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import type { Harness } from '../support/harness.ts';
import { HOLD_DEADLINE, heldWriteAhead } from '../support/held-write-ahead.ts';
import { oneRoomGuild } from '../support/world.ts';
import { previewScene, pressSceneButton } from '../support/scene-preview.ts';

const GUILD = '200000000000000962';
const A = '300000000000009621';
const B = '300000000000009622';
const VC = '220000000000000962';
const VOICE = 'voice-b-en-f-01';
const TEXT = 'The very same line asked by two members at once.'; // 48 characters: one part
const Y = 'Another sentence that only the later orders ask.'; // 48 characters: one part
const OTHER_VOICE = 'voice-b-en-m-01';
const OWN = 'Another line only the second member asks here.'; // 46 characters: one part, the second order's own
const guilds = [
  oneRoomGuild(GUILD, 'Fate', { text: '210000000000000962', voice: VC }, [
    { id: A, username: 'a', locale: 'en-US', voiceChannelId: VC },
    { id: B, username: 'b', locale: 'en-US', voiceChannelId: VC },
  ]),
];

const harnessFor = useHarnessPerTest();
const tts = (h: Harness) => h.sandbox.requests.filter((r) => r.endpoint === 'tts');
const say = (h: Harness, userId: string, text = TEXT) =>
  h.discord.command({
    guildId: GUILD,
    userId,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: VOICE },
    ],
  });
// Each line lasts its shortest (0.5 s): what is asserted is who was told what and what was paid, not the audio's length.
const SHORT_LINES = { secondsPerCharacter: 0.01 };
const start = (env: Record<string, string>, sandbox: SandboxOptions = SHORT_LINES) =>
  harnessFor({ guilds, config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 }, env, sandbox });

describe('a part counted free as in flight, its turn after that call is over', () => {
  for (const budget of ['70', '0'])
    it(`the call fails after its charge (budget ${budget}): the other order is told that failure, none of it its own, nothing asked again`, async () => {
      const h = await start({ BUDGET_GUILD_MONTHLY_CHARS: budget });
      // The call held after its charge until the other order is queued behind it, then its connection reset.
      h.sandbox.injectFault({ kind: 'hold-after-charge', then: 'reset', endpoint: 'tts' });
      const first = await say(h, A);
      await until(() => tts(h)[0]?.outcome === 'held');
      const other = await say(h, B);
      await other.waitFor((r) => /^Queued/.test(r.content ?? ''), 20_000);
      h.sandbox.resumePaused();
      const failed = await answerOf(first, 60_000);
      const answer = await answerOf(other, 60_000);
      await booksSettled(h);
      expect(failed).toBe(t('en-US', 'error.api.maybeCharged.connection'));
      // Its order sent nothing of its own: what the service may have counted was the first order's, said there.
      expect(answer).toBe(t('en-US', 'error.api.sharedCallFailed'));
      expect(answer).not.toMatch(/counted as spent here/);
      expect(tts(h)).toHaveLength(1);
      expect(h.sandbox.charactersBilled()).toBe(TEXT.length);
      expect(await spentShown(h, GUILD, A)).toBe(TEXT.length);
    });

  it('the audio cache off: the other order hears the call it was counted free by, paid once, never refused', async () => {
    const h = await start({ BUDGET_GUILD_MONTHLY_CHARS: '100', CACHE_MAX_MB: '0' });
    h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
    const first = await say(h, A);
    await until(() => tts(h)[0]?.outcome === 'waiting');
    // Its first part is its own (paid); its second the line at the service (free), fetched after the call is over.
    const other = await say(h, B, `${Y} ${TEXT}`);
    await other.waitFor((r) => /^Queued/.test(r.content ?? ''), 20_000);
    h.sandbox.resumePaused();
    expect(await answerOf(first, 60_000)).toMatch(/^Spoke/);
    expect(await answerOf(other, 60_000)).toMatch(/^Spoke/);
    await booksSettled(h);
    expect(tts(h).map((r) => r.text)).toEqual([TEXT, Y]);
    expect(h.sandbox.charactersBilled()).toBe(TEXT.length + Y.length);
    expect(await spentShown(h, GUILD, A)).toBe(TEXT.length + Y.length);
  });
  it("the call's audio breaks part-way: the other order is told its request failed, and nothing of its own was counted", async () => {
    // The line at its full length (23 kB of MP3): its body pauses at 20 kB, part-way.
    const h = await start({ BUDGET_GUILD_MONTHLY_CHARS: '0' }, {});
    h.sandbox.injectFault({ kind: 'pause-after', bytes: 20_000, then: 'reset', endpoint: 'tts' });
    const first = await say(h, A);
    await until(() => tts(h)[0]?.outcome === 'paused');
    const other = await say(h, B);
    await other.waitFor((r) => /^Queued/.test(r.content ?? ''), 20_000);
    h.sandbox.resumePaused();
    expect(await answerOf(first, 60_000)).toBe(t('en-US', 'error.api.undelivered.paid', { paid: TEXT.length }));
    const answer = await answerOf(other, 60_000);
    await booksSettled(h);
    // Its order paid nothing: the characters the service counted were the first order's, and are said there.
    expect(answer).not.toMatch(/counted its characters|characters are spent/);
    expect(answer).toMatch(/nothing of yours was counted/);
    expect(tts(h)).toHaveLength(1);
    expect(h.sandbox.charactersBilled()).toBe(TEXT.length);
    expect(await spentShown(h, GUILD, A)).toBe(TEXT.length);
  });

  for (const output of ['file', 'voice'] as const)
    it(`a scene (${output}) whose line shares another member's call, which fails after its charge, and whose other line its member paid: told the failure and the characters of theirs spent`, async () => {
      const h = await start({ BUDGET_GUILD_MONTHLY_CHARS: '0' });
      h.sandbox.injectFault({ kind: 'hold-after-charge', then: 'reset', endpoint: 'tts' });
      // A's line as a file: the voice channel's queue stays free for the scene.
      const first = await h.discord.command({
        guildId: GUILD,
        userId: A,
        name: 'say',
        options: [
          { name: 'text', value: TEXT },
          { name: 'voice', value: OTHER_VOICE },
          { name: 'output', value: 'file' },
        ],
      });
      await until(() => tts(h)[0]?.outcome === 'held');
      // Ann's line is B's to pay; Ben's is the line at the service for A (free).
      const script = [`cast: Ann = ${VOICE}, Ben = ${OTHER_VOICE}`, `Ann: ${TEXT}`, `Ben: ${TEXT}`].join('\n');
      const shown = await previewScene(h, GUILD, script, output, { userId: B });
      const pressed = await pressSceneButton(h, GUILD, shown, shown.confirm, B);
      await until(() => tts(h)[1]?.outcome === 'complete');
      h.sandbox.resumePaused();
      const failed = await answerOf(first, 60_000);
      const done = await pressed.waitFor((r) => (r.content ?? '').includes(failed), 60_000);
      await booksSettled(h);
      expect(tts(h).map((r) => r.voice)).toEqual([OTHER_VOICE, VOICE]);
      expect(h.sandbox.charactersBilled()).toBe(2 * TEXT.length);
      expect(await spentShown(h, GUILD, A)).toBe(2 * TEXT.length);
      expect(done.files).toHaveLength(0);
      expect(failed).toBe(t('en-US', 'error.api.maybeCharged.connection'));
      // B's own line was made and paid: said with the shared failure, never left out.
      expect(done.content).toMatch(new RegExp(`\\b${TEXT.length} characters`));
      const detail = { key: 'error.api.maybeCharged.connection' } as const;
      expect(done.content).toBe(t('en-US', 'outcome.failedAfterPaying', { paid: TEXT.length, detail }));
    });

  for (const [cache, made] of [
    ['0', 'at the service in the first voice'],
    ['500', 'cached in the first voice'],
  ] as const)
    it(`a scene says the line in two voices, ${made}: played, the second voice paid once, the first never`, async () => {
      const h = await start({ BUDGET_GUILD_MONTHLY_CHARS: '0', CACHE_MAX_MB: cache });
      if (cache === '0') h.sandbox.injectFault({ kind: 'hold-before-charge', endpoint: 'tts' });
      const first = await say(h, A);
      if (cache === '0') await until(() => tts(h)[0]?.outcome === 'waiting');
      else expect(await answerOf(first, 60_000)).toMatch(/^Spoke/);
      const script = [`cast: Ann = ${VOICE}, Ben = ${OTHER_VOICE}`, `Ann: ${TEXT}`, `Ben: ${TEXT}`].join('\n');
      const shown = await previewScene(h, GUILD, script, 'voice', { userId: B });
      const pressed = await pressSceneButton(h, GUILD, shown, shown.confirm, B);
      await pressed.waitFor((r) => (r.content ?? '').startsWith('🎬 Making'), 20_000);
      h.sandbox.resumePaused();
      const done = await pressed.waitFor((r) => /^🎬 Played|changed|charged|failed/.test(r.content ?? ''), 60_000);
      expect(done.content).toMatch(/^🎬 Played/);
      if (cache === '0') expect(await answerOf(first, 60_000)).toMatch(/^Spoke/);
      await booksSettled(h);
      expect(tts(h).map((r) => r.voice)).toEqual([VOICE, OTHER_VOICE]);
      expect(h.sandbox.charactersBilled()).toBe(2 * TEXT.length);
      expect(await spentShown(h, GUILD, A)).toBe(2 * TEXT.length);
    });
});

describe("a member's order paid a part of its own, then the call it shares with another member's order fails after its charge", () => {
  /** A's line as a file, held at its write-ahead until B's own part is made; then `fault` meets A's call. */
  async function shared(fault: Parameters<Harness['sandbox']['injectFault']>[0], output?: 'file') {
    const gate = heldWriteAhead(TEXT.length);
    const h = await harnessFor({
      guilds,
      config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 60 },
      env: { BUDGET_GUILD_MONTHLY_CHARS: '0', CACHE_MAX_MB: '0', ...HOLD_DEADLINE },
      wrapStore: gate.wrap,
    });
    const sayAs = (userId: string, text: string, as?: 'file') =>
      h.discord.command({
        guildId: GUILD,
        userId,
        name: 'say',
        options: [
          { name: 'text', value: text },
          { name: 'voice', value: VOICE },
          ...(as === undefined ? [] : [{ name: 'output', value: as }]),
        ],
      });
    const first = await sayAs(A, TEXT, 'file');
    await gate.reached;
    // Its first part is its own (paid); its second the line held for A (counted free, A's call).
    const other = await sayAs(B, `${OWN} ${TEXT}`, output);
    await until(() => tts(h).some((r) => r.text === OWN && r.outcome === 'complete'), 30_000);
    h.sandbox.injectFault(fault);
    gate.release();
    await first.waitFor((r) => r.content !== undefined && /voice service/.test(r.content), 60_000);
    return { h, other };
  }

  for (const [what, fault, detail] of [
    [
      'a 200 that is not audio',
      { kind: 'response', status: 200, body: '<html>gateway</html>', contentType: 'text/html', endpoint: 'tts' },
      { key: 'error.api.chargedNotAudio' },
    ],
    [
      'a 200 whose audio never ends',
      { kind: 'endless-body', endpoint: 'tts' },
      { key: 'error.voice.streamFailed', params: { detail: { key: 'error.api.oversized' } } },
    ],
  ] as const)
    it(`in voice, ${what}: the characters of its own spent said once, before the call's words (A's characters never as its own)`, async () => {
      const { h, other } = await shared(fault);
      const answer = await answerOf(other, 60_000);
      await booksSettled(h);
      // One call each: B's own part, then A's (which B's second part shared), never asked again.
      expect(tts(h)).toHaveLength(2);
      expect(tts(h)[0]).toMatchObject({ text: OWN, charactersBilled: OWN.length });
      expect(answer).toBe(t('en-US', 'outcome.failedAfterPaying', { paid: OWN.length, detail }));
    });

  it('as a file holding only its own part (the rest may have been charged): the characters of its own spent said once', async () => {
    const { h, other } = await shared({ kind: 'reset-after-charge', endpoint: 'tts' }, 'file');
    const done = await other.waitFor((r) => r.files.length > 0, 60_000);
    await booksSettled(h);
    expect(tts(h).map((r) => r.text)).toEqual([OWN, TEXT]);
    expect(h.sandbox.charactersBilled()).toBe(OWN.length + TEXT.length);
    expect(await spentShown(h, GUILD, B)).toBe(OWN.length + TEXT.length);
    expect(done.files).toHaveLength(1);
    const content = done.content ?? '';
    expect(content).toContain(t('en-US', 'outcome.partWay.only'));
    const detail = { key: 'error.api.maybeCharged.connection' } as const;
    expect(content).toContain(t('en-US', 'outcome.failedAfterPaying', { paid: OWN.length, detail }));
    expect(content.match(new RegExp(`\\b${OWN.length}\\b`, 'g'))).toHaveLength(1);
  });
});
