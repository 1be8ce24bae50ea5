// The free voice as a fallback (FREE_VOICE=on or fallback), end to end: the real bot, the local Discord and the
// sandbox. What the paid voice may not say for money (a member's budget, the bot-wide month) is heard in the free
// voice, as words, with nothing sent to the Voice API; auto-read says so once in the channel, /say in its reply.
// Without it (FREE_VOICE=chosen, the default), today's refusal.
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { monoOf, runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import { postChat, snowflakeAt, startAutoRead } from '../support/chat.ts';
import { speechLikeness } from '../support/speech-likeness.ts';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { t } from '../../src/core/i18n/catalogue.ts';
import { fallbackVoiceLabel } from '../../src/features/speaking/outcome-words.ts';
import { estimateRequestSeconds } from '../../src/core/characters.ts';
import {
  ALICE as ALICE_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';

const ALICE = { id: ALICE_ID, username: 'alice' };
const CAROL = { id: '300000000000000013', username: 'carol' };
const READ = { guildId: GUILD, channelId: TEXT };

function guilds(): FakeGuildSpec[] {
  return [
    londonWith([
      { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
    ]),
  ];
}

/** The Voice API answering every request 503, until cleared. */
const SERVICE_DOWN = {
  kind: 'service-error',
  status: 503,
  message: 'overloaded',
  times: Infinity,
} as const;

const openHarness = useHarnessPerTest();

async function harness(env: Record<string, string>, options: HarnessOptions = {}): Promise<Harness> {
  return openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, env, ...options });
}

const isSpeech = (audio: Parameters<typeof monoOf>[0]) => {
  const likeness = speechLikeness(monoOf(audio), 48_000);
  return likeness.loudnessSpread > 0.5 && likeness.crossingSpread > 0.3;
};

const fallbackNotices = (h: Harness) =>
  h.discord
    .channelMessages(TEXT)
    .filter((m) => String(m.message['content']).startsWith('Reading on in the free voice'));

describe('the free voice as a fallback', () => {
  it('auto-read: a member past their daily budget is read on in the free voice, with one notice and no paid request', async () => {
    const h = await harness({ FREE_VOICE: 'on', BUDGET_MEMBER_DAILY_CHARS: '30' });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    // The first message fits her budget and is paid; the next ones do not.
    await postChat(h, READ, ALICE, 'short one', { id: snowflakeAt() });
    await h.discord.waitForAudio(GUILD, { minSeconds: 0.5, quietMs: 400 });
    const paid = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await postChat(h, READ, ALICE, 'well past her budget today', { id: snowflakeAt() });
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 1, quietMs: 600 });
    expect(isSpeech(heard)).toBe(true);
    await h.discord.waitForChannelMessage((m) =>
      String(m.message['content']).startsWith('Reading on in the free voice'),
    );
    await postChat(h, READ, ALICE, 'another, in the free voice', { id: snowflakeAt() });
    await h.discord.waitForAudio(GUILD, { minSeconds: heard.seconds + 1, quietMs: 600 });
    expect(h.sandbox.requests.length).toBe(paid);
    const notices = fallbackNotices(h);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message['content']).toMatch(
      /^Reading on in the free voice `free-en-f` \(your budget for today is reached\)/,
    );
    expect((notices[0]?.raw as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({ parse: [] });
  });

  it('auto-read with the month used up at the service (its 429): read on in the free voice, one notice, nothing billed', async () => {
    const h = await harness({ FREE_VOICE: 'fallback' });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
    const billed = h.sandbox.charactersBilled();
    h.discord.clearAudio(GUILD);
    await postChat(h, READ, CAROL, 'the month is over but I am still heard', { id: snowflakeAt() });
    const heard = await h.discord.waitForAudio(GUILD, { minSeconds: 1, quietMs: 600 });
    expect(isSpeech(heard)).toBe(true);
    await h.discord.waitForChannelMessage((m) =>
      String(m.message['content']).startsWith('Reading on in the free voice'),
    );
    // The next asks the service once more (whether the month is back: SayBot's used-up mark), is refused with its 429
    // again, billed nothing, and is read in the free voice all the same, with no second notice.
    const asked = h.sandbox.requests.length;
    await postChat(h, READ, CAROL, 'and so is this one', { id: snowflakeAt() });
    await h.discord.waitForAudio(GUILD, { minSeconds: heard.seconds + 0.5, quietMs: 600 });
    expect(h.sandbox.requests.slice(asked).every((r) => r.status === 429)).toBe(true);
    expect(h.sandbox.charactersBilled()).toBe(billed);
    const notices = fallbackNotices(h);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message['content']).toContain("this month's characters are used up");
  });

  it('/say past the bot-wide month is heard in the free voice, its reply saying why, and the Voice API hears nothing', async () => {
    const h = await harness({ FREE_VOICE: 'fallback', BUDGET_BOT_MONTHLY_CHARS: '1' });
    const before = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const { handle } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'The month is over, yet you still hear me.', voice: 'voice-b-en-m-01' },
    });
    const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(done.content).toContain("`free-en-m`, the free voice: this month's characters are used up");
    expect(isSpeech(await h.discord.waitForAudio(GUILD, { minSeconds: 1, quietMs: 600 }))).toBe(true);
    expect(h.sandbox.requests.length).toBe(before);
    const usage = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'usage' });
    expect(usage.content).toContain(
      'Lines spoken by the free voice this month: 1, at no charge (1 in place of the paid voice).',
    );
  });

  it('/say queued behind a part that finds the month used up is heard in the free voice, the Voice API not asked for it', async () => {
    // Parts of at most 40 characters: the first two sentences are two parts.
    const h = await harness(
      { FREE_VOICE: 'fallback' },
      { config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 40 } },
    );
    const first = 'The first part is paid and heard.';
    const ahead = `${first} The second part finds the month used up.`;
    const behind = 'Queued behind it, and still heard.';
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first.length);
    // The first part is charged and its answer held at the service while Carol's /say is accepted behind it.
    h.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
    const say = (userId: string, text: string) =>
      h.discord.command({
        guildId: GUILD,
        userId,
        name: 'say',
        options: [
          { name: 'text', value: text },
          { name: 'voice', value: 'voice-b-en-m-01' },
        ],
      });
    const before = h.sandbox.requests.length;
    const alice = await say(ALICE.id, ahead);
    await expect.poll(() => h.sandbox.requests.slice(before).map((r) => r.outcome)).toEqual(['held']);
    const carol = await say(CAROL.id, behind);
    await carol.waitFor((r) => (r.content ?? '').startsWith('Queued'), 60_000);
    h.sandbox.resumePaused();
    // The second part's 429 marks the month: it is spoken in the free voice, and so is Carol's, never sent.
    await alice.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    const done = await carol.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(done.content).toContain("`free-en-m`, the free voice: this month's characters are used up");
    expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200, 429]);
    expect(h.sandbox.requests.map((r) => r.text)).not.toContain(behind);
  });

  for (const output of ['voice', 'file'] as const) {
    it(`/say (${output}) whose second part finds the month used up names the characters its first part paid, then the free voice`, async () => {
      const h = await harness(
        { FREE_VOICE: 'fallback' },
        { config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 40 } },
      );
      const first = 'The first part is paid and heard.';
      h.sandbox.setKeyPlan(h.apiKey, 'creator');
      h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first.length);
      const before = h.sandbox.requests.length;
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'say',
        options: {
          text: `${first} The second part finds the month used up.`,
          voice: 'voice-b-en-m-01',
          ...(output === 'file' ? { output } : {}),
        },
      });
      const done = await handle.waitFor(
        (r) => (output === 'file' ? r.files.length > 0 : (r.content ?? '').startsWith('Spoke')),
        20_000,
      );
      expect(h.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200, 429]);
      expect(done.content).toContain(
        `\`free-en-m\`, the free voice, after ${first.length} characters in the paid voice (counted): this month's characters are used up`,
      );
    });
  }

  it('/say whose second part the month has too few characters left for: the free voice says it, after the part paid', async () => {
    const h = await harness(
      { FREE_VOICE: 'fallback' },
      { config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 40 } },
    );
    const first = 'The first part is paid and heard.';
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    // Five characters left once the first part is paid: too few for the second.
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - first.length - 5);
    const before = h.sandbox.requests.length;
    const { handle } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: `${first} The second part has too few left.`, voice: 'voice-b-en-m-01', output: 'file' },
    });
    const done = await handle.waitFor((r) => r.files.length > 0, 20_000);
    expect(h.sandbox.requests.slice(before).filter((r) => r.status === 200)).toHaveLength(1);
    // Not used up: 5 are left, too few for this part (issue 94).
    const reason = t('en-US', 'fallback.reason.tooFewLeft', {
      left: 5,
      needed: 'The second part has too few left.'.length,
    });
    expect(done.content).toContain(
      `\`free-en-m\`, the free voice, after ${first.length} characters in the paid voice (counted): ${reason}`,
    );
  });

  // bb7: the channel's "Spoke part of this … with `voice-b-en-f-01`" named the paid voice alone, though the free voice
  // spoke its second part; the file's words name the free voice after the paid characters: so do the channel's now.
  it('/say in voice, the free voice standing in after a paid part, then the rest refused: the channel hears both named', async () => {
    const h = await harness(
      { FREE_VOICE: 'fallback', CACHE_MAX_MB: '0' },
      { config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 250 }, sandbox: { secondsPerCharacter: 0.01 } },
    );
    // Each its own part (any two together past 250 characters); the paid one long (its sandbox fast), the free one
    // short (eSpeak NG plays in real time).
    const paid =
      'The first sentence of this order is a long one, paid in the voice the member chose, and it arrives in full from the service without any trouble at all, and it runs on and on for a good while before it ends here.';
    const free = 'The service fails now: the free voice says this.';
    const tooLong = '1234567890'.repeat(21); // too long for one free line: it goes to the service, and fails
    // The first request is answered; every one after it fails (503, not charged).
    h.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 0, endpoint: 'tts' });
    h.sandbox.injectFault({ ...SERVICE_DOWN, endpoint: 'tts' });
    const { handle } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: `${paid} ${free} ${tooLong}`, voice: 'voice-b-en-f-01' },
    });
    const shown = await handle.waitFor((r) => /^Spoke part of this/.test(r.content ?? ''), 90_000);
    expect(h.sandbox.charactersBilled()).toBe(paid.length);
    const voice = fallbackVoiceLabel('en-US', 'free-en-f', 'service-failed', paid.length);
    expect(shown.content).toBe(t('en-US', 'say.spokePartWay', { channel: `<#${VOICE}>`, voice }));
  });

  it('/say while the service answers 503 is heard in the free voice, its result saying the service is not answering', async () => {
    const h = await harness({ FREE_VOICE: 'on' });
    h.sandbox.injectFault(SERVICE_DOWN);
    const billed = h.sandbox.charactersBilled();
    h.discord.clearAudio(GUILD);
    const { handle } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'The service is down, and still I speak.', voice: 'voice-b-en-f-01' },
    });
    const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(done.content).toContain('`free-en-f`, the free voice: the voice service is not answering');
    expect(isSpeech(await h.discord.waitForAudio(GUILD, { minSeconds: 1, quietMs: 600 }))).toBe(true);
    expect(h.sandbox.requests.filter((r) => r.status === 503).length).toBeGreaterThan(0);
    expect(h.sandbox.charactersBilled()).toBe(billed);
    h.sandbox.clearFaults();
  });

  it('/say in three parts while the service answers 503 asks the service for its first part only, then speaks the rest in the free voice at once', async () => {
    const h = await harness({ FREE_VOICE: 'on' }, { config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 30 } });
    h.sandbox.injectFault(SERVICE_DOWN);
    const failures = () => h.sandbox.requests.filter((r) => r.status === 503).length;
    const say = async (text: string) => {
      const { handle } = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'say',
        options: { text, output: 'file' },
      });
      const done = await handle.waitFor((r) => r.files.length > 0, 60_000);
      expect(done.content).toContain('`free-en-f`, the free voice: the voice service is not answering');
      // No "Play in my voice channel" or "Save as sound": nothing of it is in the cache to replay.
      expect(done.message?.components ?? []).toEqual([]);
    };
    // One part: the service is asked (with the client's own retries) and fails.
    await say('A single part.');
    const perPart = failures();
    expect(perPart).toBeGreaterThan(0);
    await say('The first part is here. The second part follows. And the third one ends.');
    expect(failures() - perPart).toBe(perPart);
    h.sandbox.clearFaults();
  });

  it('refused for money, then by the free-request rate for the free voice: the member is told of the money', async () => {
    const h = await harness({ FREE_VOICE: 'on', BUDGET_MEMBER_DAILY_CHARS: '10', BUDGET_MEMBER_FREE_PER_MINUTE: '1' });
    const say = (text: string, voice?: string) =>
      runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'say',
        options: { text, output: 'file', ...(voice === undefined ? {} : { voice }) },
      });
    // The minute's one free request, taken by the free voice chosen.
    expect((await say('Free first.', 'free-en-f')).content).toMatch(/^Here is/);
    const refused = await say('Well over the ten characters of her day.');
    expect(refused.content).toMatch(/^Your daily budget in this server is 10 characters/);
    expect(h.sandbox.requests.filter((r) => r.endpoint === 'tts')).toHaveLength(0);
  });

  it('a stand-in takes its place in the voice queue at its own seconds, refused as the free voice asked directly is', async () => {
    // eSpeak NG reads a digit in about 0.65 s, the paid estimate in 1/15 s: 80 digits are about 52 s, or 5 s paid.
    const h = await harness({ FREE_VOICE: 'on', BUDGET_GUILD_MONTHLY_CHARS: '10', QUEUE_MAX_SECONDS: '60' });
    const digits = (from: number) => '1234567890'.repeat(9).slice(from, from + 80);
    const ask = (userId: string, name: 'say' | 'emote', text: string, voice: string) =>
      runCommand(h, { guildId: GUILD, userId, name, options: { text, voice } });
    const alice = await ask(ALICE.id, 'say', digits(0), 'voice-b-en-f-01');
    expect(alice.content).toContain('`free-en-f`, the free voice');
    // Alice's line waits at its own seconds, never also at the paid voice's: Carol's, by any front-end, does not fit.
    const waiting = estimateRequestSeconds({ kind: 'tts', voice: 'free-en-f', text: digits(0) }, digits(0));
    const full = t('en-US', 'queue.refused.guildSeconds', { limit: 60, queued: Math.ceil(waiting) });
    expect((await ask(CAROL.id, 'say', digits(1), 'voice-b-en-f-01')).content).toBe(full);
    expect((await ask(CAROL.id, 'emote', digits(2), 'voice-b-en-f-01')).content).toBe(full);
    const menu = await h.discord.messageCommand({
      guildId: GUILD,
      userId: CAROL.id,
      name: 'Speak',
      message: { author: ALICE, content: digits(4) },
    });
    expect((await menu.waitFor((r) => r.content !== undefined)).content).toBe(full);
    expect((await ask(CAROL.id, 'say', digits(3), 'free-en-f')).content).toBe(full);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("auto-read's stand-in waits at its own seconds too: a /say behind it is refused on them", async () => {
    const h = await harness({ FREE_VOICE: 'on', BUDGET_GUILD_MONTHLY_CHARS: '10', QUEUE_MAX_SECONDS: '60' });
    await startAutoRead(h, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
    const digits = '1234567890'.repeat(8);
    await postChat(h, READ, ALICE, digits, { id: snowflakeAt() });
    await h.discord.waitForChannelMessage((m) => String(m.message['content']).includes('free voice `free-en-f`'));
    const waiting = estimateRequestSeconds({ kind: 'tts', voice: 'free-en-f', text: digits }, digits);
    // Carol's 15 digits in the free voice (about 10 s) fit beside the paid estimate of Alice's (5 s), not beside hers.
    const options = { text: digits.slice(0, 15), voice: 'free-en-f' };
    const { content } = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'say', options });
    // Alice's line is read with her name before it: a second or so more than its digits.
    const queued = Number(/about (\d+) s of speech waiting/.exec(content)?.[1]);
    expect(content).toBe(t('en-US', 'queue.refused.guildSeconds', { limit: 60, queued }));
    expect(queued).toBeGreaterThanOrEqual(Math.ceil(waiting));
  });

  describe('never for a part too long for one line of the free voice', () => {
    // About 990 characters of Korean (one part), estimated past the 109 s the free voice's 120 s cap lets through.
    const long = '오늘은 날씨가 정말 좋아서 친구들과 함께 공원에 산책을 나갔습니다. '.repeat(26).trim();
    const say = (h: Harness) =>
      runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'say',
        options: { text: long, voice: 'voice-b-ko-f-01', output: 'file' },
      });

    it('past the bot-wide month: the refusal for money stands, and nothing is made', async () => {
      const h = await harness({ FREE_VOICE: 'on', BUDGET_BOT_MONTHLY_CHARS: '1' });
      const { content } = await say(h);
      expect(content).not.toContain('free voice');
      expect(content).toMatch(/month/i);
      expect(h.sandbox.requests).toHaveLength(0);
    });

    it('while the service answers 503: its failure stands', async () => {
      const h = await harness({ FREE_VOICE: 'on' });
      h.sandbox.injectFault(SERVICE_DOWN);
      const { content } = await say(h);
      expect(content).toBe(t('en-US', 'error.api.server.said', { status: 503, said: '`overloaded`' }));
      expect(h.sandbox.requests.filter((r) => r.status === 503).length).toBeGreaterThan(0);
      h.sandbox.clearFaults();
    });
  });

  it("with FREE_VOICE=chosen (the default), the same /say is today's refusal", async () => {
    const h = await harness({ BUDGET_BOT_MONTHLY_CHARS: '1' });
    const { handle } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'The month is over.', voice: 'voice-b-en-m-01' },
    });
    const refused = await handle.waitFor((r) => (r.content ?? '') !== '', 15_000);
    expect(refused.content).not.toContain('free voice');
    expect(refused.content).toMatch(/month/i);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });
});
