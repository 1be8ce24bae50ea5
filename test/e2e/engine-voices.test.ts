// The owner's own speech engines, end to end: the real bot, the local Discord (DAVE), the sandbox Voice API (which
// must hear nothing of them) and the doubles of a VOICEVOX engine and an OpenAI-compatible speech server over real
// HTTP (packages/engine-doubles). Their voices are SayBot's voices: listed, offered, heard in their own pitch, posted
// as files, free; FREE_VOICES speaks for a used-up month in them; a dead engine falls to eSpeak NG and comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSpeechServerDouble,
  startVoicevoxDouble,
  voicevoxStylePitchHz,
  type SpeechServerDouble,
  type VoicevoxDouble,
} from '@saybot/engine-doubles';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { analyseClip, dominantPitchHz } from '../../src/core/audio/analysis/clip.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { PermissionFlagsBits } from 'discord.js';
import {
  autocomplete,
  defaultGuilds,
  inTime,
  pitchOf,
  runCommand,
  voiceMessageGuilds,
  type Harness,
} from '../support/harness.ts';
import { postChat, snowflakeAt, startAutoRead } from '../support/chat.ts';
import { ALICE, GENERAL, LONDON, LONDON_TEXT, londonWith } from '../support/world.ts';

const [, london] = defaultGuilds() as [ReturnType<typeof defaultGuilds>[0], ReturnType<typeof defaultGuilds>[0]];
const startHarness = useHarnessPerTest();

let voicevox: VoicevoxDouble;
let speech: SpeechServerDouble;

beforeAll(async () => {
  voicevox = await startVoicevoxDouble();
  speech = await startSpeechServerDouble({ apiKey: 'engine-secret-token-0123456789' });
});
afterAll(async () => {
  await voicevox.close();
  await speech.close();
});

/** The bot with both engines, FREE_VOICES naming one of each for Japanese and English. */
function withEngines(env: Record<string, string> = {}, guilds?: ReturnType<typeof defaultGuilds>): Promise<Harness> {
  voicevox.faults.set('none');
  speech.faults.set('none');
  return startHarness({
    ...(guilds === undefined ? {} : { guilds }),
    config: { voiceIdleTimeoutMs: 60_000 },
    env: {
      VOICEVOX_URL: voicevox.url,
      SPEECH_SERVER_URL: speech.url,
      SPEECH_SERVER_KEY: 'engine-secret-token-0123456789',
      FREE_VOICES: 'ja=voicevox:20,en=speech:am_adam,*=espeak',
      ...env,
    },
  });
}

/** Whether `heard` Hz is the double's `expected` Hz, within a semitone. */
const near = (heard: number | undefined, expected: number) =>
  heard !== undefined && Math.abs(12 * Math.log2(heard / expected)) < 1;

describe("the owner's engines", () => {
  it("/voices and the autocomplete offer both engines' voices, VOICEVOX's with its credit", async () => {
    const h = await withEngines();
    const listed = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'voices', subcommand: 'list' });
    expect(listed.content).toContain('`voicevox:10` ダブル蓮 (ノーマル)');
    expect(listed.content).toContain('VOICEVOX:ダブル蓮');
    // A language narrows every section: the speech server's English voices, which the whole list leaves past its share.
    const english = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'voices',
      subcommand: 'list',
      options: { language: 'en' },
    });
    expect(english.content).toContain('`speech:am_adam`');
    expect(english.content).not.toContain('voicevox:');
    const choices = await inTime(h, () =>
      autocomplete(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: 'x' },
        focus: { name: 'voice', value: 'voicevox:2' },
      }),
    );
    expect(choices.map((c) => c.value)).toContain('voicevox:20');
  });

  it('/say voice:voicevox:10 is heard in that style, the reply credits it, and neither the Voice API nor the month moves', async () => {
    const h = await withEngines();
    const requests = h.sandbox.requests.length;
    const billed = h.sandbox.charactersBilled();
    h.discord.clearAudio(london.id);
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'こんにちは、エンジンの声です。', voice: 'voicevox:10' },
    });
    const done = await handle.waitFor((r) => /^(Spoke|The|Something)/.test(r.content ?? ''), 60_000);
    expect(done.content).toMatch(/^Spoke/);
    expect(done.content).toContain('VOICEVOX:ダブル蓮');
    const heard = await h.discord.waitForAudio(london.id, { minSeconds: 0.5 });
    expect(near(pitchOf(heard), voicevoxStylePitchHz(10)!)).toBe(true);
    expect(voicevox.requests.some((r) => r.path === '/synthesis')).toBe(true);
    expect(h.sandbox.requests.length - requests).toBe(0);
    expect(h.sandbox.charactersBilled() - billed).toBe(0);
    const usage = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain('This server: 0 characters spent');
    expect(usage.content).toContain('VOICEVOX 1, the speech server 0');
  });

  it('/say voice:speech:am_adam output:file posts that voice, the bearer token sent and never written down', async () => {
    const h = await withEngines();
    const requests = h.sandbox.requests.length;
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'Hello from the speech server.', voice: 'speech:am_adam', output: 'file' },
    });
    const answer = await handle.waitFor((r) => r.files.length > 0 || /^(The|Something)/.test(r.content ?? ''), 60_000);
    expect(answer.files).toHaveLength(1);
    const info = await analyseClip(answer.files[0]!.data);
    expect(info.durationSeconds).toBeGreaterThan(0.5);
    expect(
      near(
        dominantPitchHz(info.samples ?? new Float32Array(0), info.sampleRate) ?? undefined,
        speech.pitchHz('am_adam')!,
      ),
    ).toBe(true);
    expect(h.sandbox.requests.length - requests).toBe(0);
    expect(h.logs()).not.toContain('engine-secret-token-0123456789');
  });

  it("a used-up month speaks Japanese in FREE_VOICES' VOICEVOX voice and English in its speech server voice, each announced", async () => {
    const h = await withEngines({ FREE_VOICE: 'fallback' });
    h.sandbox.setKeyPlan(h.apiKey, 'creator');
    h.sandbox.setKeyUsed(h.apiKey, PLAN_LIMITS.creator);
    const billed = h.sandbox.charactersBilled();
    const say = async (text: string, voice: string) => {
      h.discord.clearAudio(london.id);
      const { handle } = await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text, voice },
      });
      const done = await handle.waitFor((r) => /^(Spoke|The|Something)/.test(r.content ?? ''), 60_000);
      return { done, heard: await h.discord.waitForAudio(london.id, { minSeconds: 0.5 }) };
    };
    const ja = await say('今月の文字はもう使い切りました。', 'voice-b-ja-f-01');
    expect(ja.done.content).toContain('`voicevox:20` (VOICEVOX:ダブル雫)');
    expect(ja.done.content).toContain("this month's characters are used up");
    expect(near(pitchOf(ja.heard), voicevoxStylePitchHz(20)!)).toBe(true);
    const en = await say('The month is used up, and I am still heard.', 'voice-b-en-m-01');
    expect(en.done.content).toContain('`speech:am_adam`');
    expect(near(pitchOf(en.heard), speech.pitchHz('am_adam')!)).toBe(true);
    expect(h.sandbox.charactersBilled()).toBe(billed);
  });

  it('a dead engine: its line is spoken by eSpeak NG and said so, the bot keeps answering, and the engine speaks again once it answers', async () => {
    const h = await withEngines({ FREE_VOICE: 'on' });
    voicevox.faults.set('down');
    const say = async (text: string) => {
      h.discord.clearAudio(london.id);
      const { handle } = await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text, voice: 'voicevox:0' },
      });
      return handle.waitFor((r) => /^(Spoke|The|Something)/.test(r.content ?? ''), 60_000);
    };
    const fallen = await say('エンジンが止まっています。');
    expect(fallen.content).toMatch(/^Spoke/);
    expect(fallen.content).toContain("the bot's own speech engine could not speak it");
    expect(fallen.content).toContain('`free-ja-');
    // Not hammered while down: test/core/engines/engines.test.ts holds that on an injected clock; here only that the bot
    // goes on answering.
    expect((await say('まだ止まっています。')).content).toMatch(/^Spoke/);
    voicevox.faults.set('none');
    // Once it answers again (after its backoff), its own voice speaks the next line.
    let back = '';
    for (let tries = 0; tries < 40 && !back.includes('VOICEVOX:ダブル葵'); tries++) {
      back = (await say('戻りました。')).content ?? '';
      if (!back.includes('VOICEVOX:ダブル葵') || back.includes('free-ja-'))
        await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(back).not.toContain('free-ja-');
  });

  it('a voice the engine no longer offers is refused in words and never sent', async () => {
    const h = await withEngines();
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'Nobody offers this voice.', voice: 'voicevox:999' },
    });
    const answer = await handle.waitFor((r) => (r.content ?? '') !== '', 30_000);
    expect(answer.content).toContain('is not offered now');
    expect(voicevox.requests.some((r) => r.speaker === 999)).toBe(false);
  });

  it('an endless or non-audio answer is refused in words, nothing charged, and the bot answers the next command', async () => {
    const h = await withEngines({ FREE_VOICE: 'off' });
    for (const fault of ['not-audio', 'html-error'] as const) {
      speech.faults.set(fault);
      const { handle } = await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'say',
        options: { text: `A ${fault} answer.`, voice: 'speech:af_heart', output: 'file' },
      });
      const answer = await handle.waitFor(
        (r) => (r.content ?? '') !== '' && !/^Thinking/.test(r.content ?? ''),
        60_000,
      );
      expect(answer.files).toHaveLength(0);
      expect(answer.content).toContain("This bot's own speech engine could not speak this line");
    }
    speech.faults.set('none');
    const usage = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain('This server: 0 characters spent');
  });

  it("auto-read with free_voice on reads chatter in FREE_VOICES' engine voice: nothing sent to the Voice API", async () => {
    const reader = { id: ALICE, username: 'alice' };
    const h = await withEngines({ FREE_VOICE: 'on' }, [
      londonWith([
        { ...reader, voiceChannelId: GENERAL, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      ]),
    ]);
    await startAutoRead(h, LONDON, ALICE, { text: LONDON_TEXT, voice: GENERAL });
    const set = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'autoread',
      subcommand: 'settings',
      options: { free_voice: true },
    });
    expect(set.content).toContain('free voice: on');
    const requests = h.sandbox.requests.length;
    h.discord.clearAudio(LONDON);
    await postChat(h, { guildId: LONDON, channelId: LONDON_TEXT }, reader, 'chatter that spends nothing', {
      id: snowflakeAt(),
    });
    const heard = await h.discord.waitForAudio(LONDON, { minSeconds: 0.5, quietMs: 600 });
    expect(near(pitchOf(heard), speech.pitchHz('am_adam')!)).toBe(true);
    expect(h.sandbox.requests.length).toBe(requests);
  });

  it("auto-read's pool with an engine voice reads a member in it, free; its engine down, eSpeak NG stands in as for /say", async () => {
    const reader = { id: ALICE, username: 'alice' };
    const h = await withEngines({ FREE_VOICE: 'on' }, [
      londonWith([
        { ...reader, voiceChannelId: GENERAL, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
      ]),
    ]);
    await startAutoRead(h, LONDON, ALICE, { text: LONDON_TEXT, voice: GENERAL });
    const autoread = (subcommand: string, options: Record<string, string | boolean> = {}) =>
      runCommand(h, { guildId: LONDON, userId: ALICE, name: 'autoread', subcommand, options });
    expect((await autoread('voice_add', { voice: 'voicevox:10' })).content).toContain(
      'Added `voicevox:10` to the voice pool. Pool: `voicevox:10`.',
    );
    expect((await autoread('settings', { voices: 'distinct', say_name: false })).content).toContain(
      'voices: a voice of the pool per member',
    );
    const [requests, billed] = [h.sandbox.requests.length, h.sandbox.charactersBilled()];
    const read = async (text: string) => {
      h.discord.clearAudio(LONDON);
      await postChat(h, { guildId: LONDON, channelId: LONDON_TEXT }, reader, text, { id: snowflakeAt() });
      return pitchOf(await h.discord.waitForAudio(LONDON, { minSeconds: 0.5, quietMs: 600 }));
    };
    expect(near(await read('エンジンの声で読みます。'), voicevoxStylePitchHz(10)!)).toBe(true);
    expect(voicevox.requests.some((r) => r.path === '/synthesis' && r.speaker === 10)).toBe(true);
    // Its engine down: the line is still heard, in eSpeak NG's voice, and the member keeps their pool voice.
    voicevox.faults.set('down');
    const fallen = await read('エンジンが止まっています。');
    expect(fallen).toBeDefined();
    expect(near(fallen, voicevoxStylePitchHz(10)!)).toBe(false);
    expect(h.sandbox.requests.length).toBe(requests);
    expect(h.sandbox.charactersBilled()).toBe(billed);
    const mine = await runCommand(h, { guildId: LONDON, userId: ALICE, name: 'myvoice', subcommand: 'show' });
    expect(mine.content).toContain("Auto-read reads you in `voicevox:10`, your voice from the server's pool.");
  });

  it("a voice message and a file in a VOICEVOX voice carry its credit as the attachment's own words", async () => {
    const h = await withEngines({}, voiceMessageGuilds());
    const ask = async (output: 'file' | 'voice-message') => {
      const { handle } = await runCommand(h, {
        guildId: LONDON,
        userId: ALICE,
        name: 'say',
        options: { text: `A ${output} from VOICEVOX.`, voice: 'voicevox:10', output },
      });
      return handle.waitFor((r) => r.files.length > 0 || /^(The|This|Something)/.test(r.content ?? ''), 60_000);
    };
    // The attachment's metadata as Discord keeps it: its `description`, what a client shows and reads out.
    const described = (r: { message?: Record<string, unknown> }) =>
      (r.message?.['attachments'] as Array<{ description?: string }> | undefined)?.[0]?.description;
    expect(described(await ask('file'))).toBe('VOICEVOX:ダブル蓮');
    expect(described(await ask('voice-message'))).toBe('VOICEVOX:ダブル蓮');
  });

  it('/preset save and /myvoice set refuse an engine voice no engine offers, in words, as an unknown voice is', async () => {
    const h = await withEngines({}, [
      londonWith([
        {
          id: ALICE,
          username: 'alice',
          voiceChannelId: GENERAL,
          locale: 'en-US',
          permissions: PermissionFlagsBits.ManageGuild,
        },
      ]),
    ]);
    const preset = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'preset',
      subcommand: 'save',
      options: { name: 'gone', voice: 'voicevox:999' },
    });
    expect(preset.content).toContain('is not offered now');
    const mine = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: 'speech:nobody' },
    });
    expect(mine.content).toContain('is not offered now');
    const offered = await runCommand(h, {
      guildId: LONDON,
      userId: ALICE,
      name: 'preset',
      subcommand: 'save',
      options: { name: 'kept', voice: 'voicevox:20' },
    });
    expect(offered.content).toContain('voicevox:20');
    expect(offered.content).not.toContain('is not offered now');
  });

  it("an engine's line eSpeak NG spoke for is counted as chosen, never as in place of the paid voice", async () => {
    const h = await withEngines({ FREE_VOICE: 'on' });
    speech.faults.set('status:503');
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: ALICE,
      name: 'say',
      options: { text: 'No paid voice was asked for.', voice: 'speech:af_heart', output: 'file' },
    });
    const answer = await handle.waitFor(
      (r) => r.files.length > 0 || /^(The|This|Something)/.test(r.content ?? ''),
      60_000,
    );
    speech.faults.set('none');
    expect(answer.content).toContain('`free-en-f`');
    const usage = await runCommand(h, { guildId: london.id, userId: ALICE, name: 'usage' });
    expect(usage.content).toContain('(0 in place of the paid voice)');
  });
});
