// The words of the free voice, end to end: the real bot, the local Discord and the sandbox. Every reply names the
// voice that really speaks, the first one included, and a free line SayBot cannot make is refused in words of its
// own (the cap and its figure), never "went wrong on my side".
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { countCharacters } from '../../src/core/characters.ts';
import {
  ALICE as ALICE_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';

const ALICE = { id: ALICE_ID, username: 'alice' };

function guilds(): FakeGuildSpec[] {
  return [
    londonWith([{ ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild }]),
  ];
}

const openHarness = useHarnessPerTest();

async function harness(env: Record<string, string>, options: HarnessOptions = {}): Promise<Harness> {
  return openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, env, ...options });
}

/** Alice's /say with the month's characters used up at the service (its 429). */
function sayInUsedUpMonth(h: Harness, options: Record<string, string>) {
  h.sandbox.setKeyPlan(h.apiKey, 'creator');
  h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
  return runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'say', options });
}

describe('the words of the free voice', () => {
  it('the month used up at the service (its 429): the first reply, "Speaking…", already names the free voice that speaks', async () => {
    const h = await harness({ FREE_VOICE: 'fallback' });
    const { handle } = await sayInUsedUpMonth(h, {
      text: 'The month is over at the service, and still you hear me speak.',
      voice: 'voice-b-en-f-01',
    });
    const speaking = await handle.waitFor((r) => /^(Speaking|Spoke)/.test(r.content ?? ''), 60_000);
    expect(speaking.content).toMatch(/^Speaking/);
    expect(speaking.content).toContain("`free-en-f`, the free voice: this month's characters are used up");
    expect(speaking.content).not.toContain('voice-b-en-f-01');
    const done = await handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 60_000);
    expect(done.content).toContain('`free-en-f`');
    expect(h.sandbox.charactersBilled()).toBe(0);
  });

  it.each([
    { cause: 'the month used up at the service (its 429)', reason: "this month's characters are used up" },
    { cause: 'the service failing (its 503s)', reason: 'the voice service is not answering' },
  ])('the user install, $cause: its file reply names the free voice that spoke, and why', async ({ reason }) => {
    const h = await harness({ FREE_VOICE: 'fallback', USER_INSTALL: 'everyone' });
    if (reason.startsWith('this month')) {
      h.sandbox.setKeyPlan(h.apiKey, 'creator');
      h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
    } else h.sandbox.injectFault({ kind: 'service-error', status: 503, times: Infinity });
    const handle = await h.discord.privateCommand({
      userId: ALICE.id,
      name: 'say',
      context: 2,
      options: [
        { name: 'text', value: 'Outside any server, the service cannot, and still you hear me.' },
        { name: 'voice', value: 'voice-b-en-f-01' },
      ],
    });
    const done = await handle.waitForFinal(30_000);
    expect(done.files.length).toBe(1);
    expect(done.content).toContain(`\`free-en-f\`, the free voice: ${reason}`);
    expect(done.content).not.toContain('voice-b-en-f-01');
    expect(h.sandbox.charactersBilled()).toBe(0);
  });

  it('a voice message the free voice spoke for the failing service: the member is told privately which voice, and why', async () => {
    const h = await harness({ FREE_VOICE: 'fallback' });
    // Alice may post voice messages here: hers is the public response.
    h.discord.setChannelOverwrites(GUILD, TEXT, [
      { id: ALICE.id, type: 1, allow: PermissionFlagsBits.AttachFiles | PermissionFlagsBits.SendVoiceMessages },
    ]);
    h.sandbox.injectFault({ kind: 'service-error', status: 503, endpoint: 'tts', times: 3 });
    const { handle } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'fallback as vm please', voice: 'voice-b-en-f-01', output: 'voice-message' },
    });
    const note = await handle.waitFor(
      (r) => r.kind === 'follow-up' && (r.content ?? '').includes('`free-en-f`, the free voice'),
      20_000,
    );
    // The voice message itself is public and can say nothing: the words are the member's alone.
    expect((note.flags ?? 0) & 64).toBe(64);
    expect(note.content).toContain('`free-en-f`, the free voice: the voice service is not answering');
    expect(h.sandbox.charactersBilled()).toBe(0);
  });

  it.each([
    {
      locale: 'en-US',
      voice: 'voice-b-en-f-01',
      said: /^Here is `free-en-f`, the free voice: this month's characters are used up, [\d.]+ s \(wav\)\.$/,
    },
    {
      locale: 'ja',
      voice: 'voice-b-ja-f-01',
      said: /^`free-ja-f`（無料の声：今月の文字数を使い切りました） の声、[\d.]+ 秒（wav）のファイルです。$/,
    },
    {
      locale: 'ko',
      voice: 'voice-b-ko-f-01',
      said: /^`free-ko-f` \(무료 음성: 이번 달 글자 수를 모두 썼습니다\) 음성, [\d.]+초 \(wav\) 파일입니다\.$/,
    },
  ])('in $locale, a file the free voice spoke for a used-up month names it and why in one sentence', async (c) => {
    const member = { id: ALICE.id, username: 'alice', voiceChannelId: VOICE, locale: c.locale };
    const h = await harness({ FREE_VOICE: 'fallback' }, { guilds: [londonWith([member])] });
    const { handle } = await sayInUsedUpMonth(h, { text: 'Hello.', voice: c.voice, output: 'file' });
    const done = await handle.waitFor((r) => r.files.length > 0, 60_000);
    expect(done.content).toMatch(c.said);
  });

  // 5 characters left and a /say of 37: the free voice speaks because too few are left for this text, not because
  // the month is used up (that is said at 0 left, above). The figures are the service's own (the sandbox's 429).
  it.each([
    {
      locale: 'en-US',
      voice: 'voice-b-en-f-01',
      text: 'Thirty-seven characters of text, yes.',
      reason: 'too few characters are left this month for this text (5 left, it needs 37)',
      usedUp: "this month's characters are used up",
    },
    {
      locale: 'ja',
      voice: 'voice-b-ja-f-01',
      text: 'これは三十七文字の文です。今月の残りでは足りないので無料の声が話します。はい。',
      reason: '今月の残り文字数ではこの文には足りません（残り5文字、必要39文字）',
      usedUp: '今月の文字数を使い切りました',
    },
    {
      locale: 'ko',
      voice: 'voice-b-ko-f-01',
      text: '이 글은 서른일곱 글자입니다. 남은 글자가 부족해서 무료 음성이 말합니다!',
      reason: '이번 달 남은 글자 수가 이 글에는 모자랍니다 (남은 글자 5자, 필요 41자)',
      usedUp: '이번 달 글자 수를 모두 썼습니다',
    },
  ])(
    'in $locale, 5 characters left and a longer /say: in voice and as a file, the free voice says too few are left for this text, with the figure, not "used up"',
    async (c) => {
      const member = { id: ALICE.id, username: 'alice', voiceChannelId: VOICE, locale: c.locale };
      const h = await harness({ FREE_VOICE: 'fallback' }, { guilds: [londonWith([member])] });
      h.sandbox.setKeyPlan(h.apiKey, 'creator');
      h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator - 5);
      expect(c.reason).toContain(String(countCharacters(c.text)));
      for (const output of ['file', undefined]) {
        const options = { text: c.text, voice: c.voice, ...(output === undefined ? {} : { output }) };
        const { handle } = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'say', options });
        const done = await handle.waitFor((r) => r.content?.includes('`free-') === true, 60_000);
        expect(done.content).toContain(c.reason);
        expect(done.content).not.toContain(c.usedUp);
      }
      expect(h.sandbox.charactersBilled()).toBe(0);
    },
  );

  it('a free line longer than the free voice may speak is refused in its own words, naming the cap', async () => {
    const h = await harness({ FREE_VOICE: 'on' }, { config: { voiceIdleTimeoutMs: 60_000, maxCharsPerRequest: 4000 } });
    // A 200-digit number is one word, never cut to fit one line (some 130 s): a long line of sentences is split into
    // lines of their own instead.
    const text = `This number is far too long for one free line: ${'1234567890'.repeat(20)}`;
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text, voice: 'free-en-f', output: 'file' },
    });
    expect(content).not.toMatch(/went wrong on my side/);
    expect(content).toMatch(/free voice/);
    expect(content).toContain('120 s');
    expect(h.sandbox.requests).toHaveLength(0);
  });
});
