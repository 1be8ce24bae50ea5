// Auto-read end to end: the real bot against the local Discord (MESSAGE_CREATE, voice with DAVE) and the sandbox
// Voice API. Each test checks what the voice channel HEARD and the text the Voice API received.
import { once } from 'node:events';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Events, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import type { ChatMessage } from '@saybot/local-discord/message-create.ts';
import { dominantPitchHz } from '../../src/core/audio/analysis/clip.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { APP_ID, monoOf, runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';
import type { FakeGuildSpec } from '@saybot/local-discord/types.ts';
import {
  ALICE as ALICE_ID,
  BOB as BOB_ID,
  GENERAL as VOICE,
  LONDON as GUILD,
  LONDON_TEXT as TEXT,
  londonWith,
} from '../support/world.ts';
import { postChat, snowflakeAt, spoken, startAutoRead } from '../support/chat.ts';
import { letMembersUse } from '../support/command-access.ts';
import { runChild } from '../support/run-child.ts';

/** Where the tests' chat is posted: London's text channel, the one auto-read reads. */
const READ = { guildId: GUILD, channelId: TEXT };
const OTHER_TEXT = '210000000000000009';
const QUIET_VOICE = '220000000000000004';
/** A text channel ALICE (a manager, not an administrator) may not see: an overwrite of her own. */
const PRIVATE_TEXT = '210000000000000010';
const ALICE = { id: ALICE_ID, username: 'alice' }; // Manage Server, in voice
const CAROL = { id: '300000000000000013', username: 'carol' }; // in voice, no Manage Server
const BOB = { id: BOB_ID, username: 'bob' }; // not in voice
const CAROL_VOICE = 'voice-b-en-m-01';
const HELPER = { id: '300000000000000019', username: 'helperbot', bot: true };

function guilds(): FakeGuildSpec[] {
  return [
    londonWith(
      [
        { ...ALICE, voiceChannelId: VOICE, locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
        { ...CAROL, voiceChannelId: VOICE, locale: 'en-US' },
        { ...BOB, locale: 'en-US' },
        { ...HELPER, voiceChannelId: VOICE },
      ],
      {
        voiceChannels: [
          { id: VOICE, name: 'general' },
          { id: QUIET_VOICE, name: 'quiet' },
        ],
        textChannels: [
          {
            id: PRIVATE_TEXT,
            name: 'private',
            overwrites: [{ id: ALICE.id, type: 1, deny: PermissionFlagsBits.ViewChannel }],
          },
        ],
      },
    ),
  ];
}

const openOwnHarness = useHarnessPerTest();
/**
 * Each test's own bot, its sandbox speaking at twice its default rate: every length here is the sandbox's
 * (expectedDurationSeconds), so the same order, voices and lengths are heard in half the time.
 */
const openHarness = (options: HarnessOptions = {}) =>
  openOwnHarness({ ...options, sandbox: { secondsPerCharacter: 0.03, ...options.sandbox } });

async function startReading(options: HarnessOptions = {}): Promise<Harness> {
  const harness = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 }, ...options });
  await startAutoRead(harness, GUILD, ALICE.id, { text: TEXT, voice: VOICE });
  expect(harness.discord.botVoiceChannel(GUILD)).toBe(VOICE);
  return harness;
}

type Author = { id: string; username: string; bot?: boolean };

async function post(
  h: Harness,
  author: Author,
  content: string,
  extra: Partial<ChatMessage> & { at?: number } = {},
): Promise<void> {
  const { at, ...rest } = extra;
  expect(await postChat(h, READ, author, content, { id: snowflakeAt(at), ...rest })).toBe(true);
}

/** Whom auto-read's spends were charged to, in order, read from the bot's own SQLite file. */
function autoreadPayers(h: Harness): string[] {
  const db = new DatabaseSync(h.databasePath, { readOnly: true });
  try {
    return (
      db.prepare("SELECT user_id FROM spends WHERE command = 'autoread' ORDER BY id").all() as Array<{
        user_id: string;
      }>
    ).map((row) => row.user_id);
  } finally {
    db.close();
  }
}

/** Waits until the channel heard the audio of `texts` (the sandbox's length for each), and returns it. */
async function heard(h: Harness, texts: readonly string[]) {
  const expected = texts.reduce((sum, text) => sum + h.sandbox.expectedDurationSeconds(text), 0);
  const audio = await h.discord.waitForAudio(GUILD, { minSeconds: expected - 0.1, quietMs: 400 });
  expect(audio.seconds).toBeGreaterThan(expected - 0.1);
  expect(audio.seconds).toBeLessThan(expected + 0.3);
  return audio;
}

describe('auto-read', () => {
  it('reads the bound channel aloud in order, naming each author before their message', async () => {
    const h = await startReading();
    // Carol speaks in another voice, so the order is heard: each stretch of audio has its author's pitch.
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'myvoice',
      subcommand: 'set',
      options: { voice: CAROL_VOICE },
    });
    expect(set.content).toContain(CAROL_VOICE);
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const now = Date.now();
    await post(h, ALICE, 'First line.', { at: now });
    await post(h, CAROL, 'Second line.', { at: now + 1 });
    await post(h, ALICE, 'Third line.', { at: now + 2 });
    const texts = ['alice said, First line.', 'carol said, Second line.', 'alice said, Third line.'];
    const audio = await heard(h, texts);
    expect([...spoken(h, from)].sort()).toEqual([...texts].sort());
    const voiceOf = new Map(h.sandbox.requests.slice(from).map((r) => [r.text, r.voice]));
    expect(voiceOf.get(texts[1])).toBe(CAROL_VOICE);
    expect(voiceOf.get(texts[0])).not.toBe(CAROL_VOICE);
    const pitches = pitchesOf(h, audio, texts);
    for (const [i, text] of texts.entries()) {
      expect(Math.abs((pitches[i] ?? 0) - (h.sandbox.voicePitchHz(voiceOf.get(text) ?? '') ?? 0)), text).toBeLessThan(
        4,
      );
    }
  });

  it('sends a URL and a mention without either, with the mentioned member named', async () => {
    const h = await startReading();
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, `look at https://example.com/a/very/long/path?with=query <@${BOB.id}>`, { mentions: [BOB] });
    await h.discord.waitForAudio(GUILD, { minSeconds: 0.3, quietMs: 400 });
    const [text] = spoken(h, from);
    expect(text).not.toMatch(/https?:|example\.com\/a|<@|\d{17}/);
    expect(text).toContain('bob');
    expect(text).toContain('link');
  });

  it('applies the server dictionary to what is read', async () => {
    const h = await startReading();
    const added = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'dictionary',
      subcommand: 'add',
      options: { word: 'SayBot', reading: 'say bot' },
    });
    expect(added.content).toBe('Added "SayBot": read as "say bot".');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'I like saybot a lot');
    await expectRead(h, from, ['alice said, I like say bot a lot']);
  });

  it('does not read bots, webhooks, members outside voice or other channels by default', async () => {
    const h = await startReading();
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, HELPER, 'I am a bot');
    await post(h, { id: '400000000000000001', username: 'hook', bot: true }, 'I am a webhook', {
      webhookId: '400000000000000001',
      member: undefined,
    });
    await post(h, BOB, 'I am not in voice');
    await post(h, ALICE, 'elsewhere', { channelId: OTHER_TEXT });
    // Messages are decided in arrival order: once this one is sent to the service, the ones above were skipped.
    await post(h, CAROL, 'only this');
    await expectRead(h, from, ['carol said, only this']);
    expect(h.logs()).toContain('"skipped":"bot"');
    expect(h.logs()).toContain('"skipped":"not-in-voice"');
  });

  it('says the name once per 60 s of the same member speaking', async () => {
    const h = await startReading();
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const t0 = Date.now();
    await post(h, ALICE, 'one', { at: t0 });
    await post(h, ALICE, 'two', { at: t0 + 30_000 });
    await post(h, ALICE, 'three', { at: t0 + 91_000 });
    await expectRead(h, from, ['alice said, one', 'two', 'alice said, three']);
  });

  it('cuts a long message at a word, with "and so on"', async () => {
    const h = await startReading();
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
      options: { max_length: 40, say_name: false },
    });
    expect(set.content).toContain('longest message: 40 characters');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'word '.repeat(60).trim());
    await h.discord.waitForAudio(GUILD, { minSeconds: 0.3, quietMs: 400 });
    const [text] = spoken(h, from);
    expect(text).toMatch(/^(word ){5,}.*word, and so on$/);
    expect([...(text ?? '')].length).toBeLessThanOrEqual(40);
    await heard(h, [text ?? '']);
  });

  it("a budget running out gives one notice in the channel, without the member's figures, then silence", async () => {
    // Alice's first message fits her daily budget, the next ones do not; Carol's still do.
    const h = await startReading({ env: { BUDGET_MEMBER_DAILY_CHARS: '30' } });
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'short one');
    await expectRead(h, from, ['alice said, short one']);
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'this one is over her budget');
    await post(h, ALICE, 'and this one too, silently');
    await post(h, CAROL, 'carol is fine');
    await heard(h, ['carol said, carol is fine']);
    expect(spoken(h, from)).toEqual(['alice said, short one', 'carol said, carol is fine']);
    const notices = h.discord
      .channelMessages(TEXT)
      .filter((m) => String(m.message['content']).startsWith('Auto-read skipped'));
    expect(notices).toHaveLength(1);
    // The whole channel reads it: the member's budget is named, never what they used or may use.
    expect(notices[0]?.message['content']).toMatch(
      new RegExp(
        `^Auto-read skipped a message from <@${ALICE.id}>: their daily character budget in this server is used up until \\d{4}-\\d{2}-\\d{2} 00:00 UTC\\.`,
      ),
    );
    // The reset's date aside (its day may be the 30th).
    const figures = String(notices[0]?.message['content']).replace(/\d{4}-\d{2}-\d{2} 00:00 UTC/, '');
    expect(figures).not.toMatch(/\b30\b|you used/i);
    expect((notices[0]?.raw as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({ parse: [] });
    // A message accepted again re-arms the notice: Alice's next refusal is announced once more.
    await post(h, ALICE, 'still over');
    await h.discord.waitForChannelMessage(
      (m) => m !== notices[0]?.raw && String(m.message['content']).startsWith('Auto-read skipped'),
    );
  });

  // bb12 GAP 5: /say, /emote and /scene tell the member a line may have been charged; auto-read told no one.
  it('a line that may have been charged (a 429 in front of the service after it billed) gives one notice, counted; until a line is read, no more', async () => {
    const h = await startReading();
    const from = h.sandbox.requests.length;
    h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 429, endpoint: 'tts', times: 2 });
    await post(h, ALICE, 'billed and never heard');
    await post(h, ALICE, 'billed again and never heard');
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'carol is read');
    await heard(h, ['carol said, carol is read']);
    const notice = t('en-US', 'autoread.paused', {
      member: `<@${ALICE.id}>`,
      reason: t('en-US', 'error.api.refusedOnTheWay.maybeCharged', { status: 429 }),
    });
    const notices = () =>
      h.discord.channelMessages(TEXT).filter((m) => String(m.message['content']).startsWith('Auto-read skipped'));
    await h.discord.waitForChannelMessage((m) => m.message['content'] === notice);
    expect(notices().map((m) => m.message['content'])).toEqual([notice]);
    expect((notices()[0]?.raw as { allowed_mentions?: unknown } | undefined)?.allowed_mentions).toEqual({ parse: [] });
    // On the books as billed: the two lines the service charged and nobody heard, and the one read.
    expect(spoken(h, from)).toHaveLength(3);
    const db = new DatabaseSync(h.databasePath, { readOnly: true });
    const booked = db.prepare("SELECT SUM(characters) AS n FROM spends WHERE command = 'autoread'").get() as {
      n: number;
    };
    db.close();
    expect(booked.n).toBe(h.sandbox.charactersBilled());
    // A line read re-arms the notice: the next such line is told again.
    const first = notices()[0];
    h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 429, endpoint: 'tts' });
    await post(h, ALICE, 'billed once more');
    await h.discord.waitForChannelMessage((m) => m.message['content'] === notice && m !== first);
  });

  it('is not held to the member cooldown, which still follows its spends for /say', async () => {
    const h = await startReading({ env: { BUDGET_MEMBER_COOLDOWN_SECONDS: '3600' } });
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const now = Date.now();
    await post(h, ALICE, 'first', { at: now });
    await post(h, ALICE, 'second', { at: now + 1 });
    await expectRead(h, from, ['alice said, first', 'second']);
    const said = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'a command now' },
    });
    expect(said.content).toMatch(/wait/i);
    expect(spoken(h, from)).toHaveLength(2);
  });

  it('announces members joining and leaving the voice channel when asked to', async () => {
    const h = await startReading();
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
      options: { announce: true },
    });
    expect(set.content).toContain('announce joins and leaves: on');
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    h.discord.setVoiceState(GUILD, BOB.id, VOICE);
    await expectRead(h, from, ['bob joined']);
    h.discord.clearAudio(GUILD);
    h.discord.setVoiceState(GUILD, BOB.id, null);
    await heard(h, ['bob left']);
    expect(spoken(h, from)).toEqual(['bob joined', 'bob left']);
    // The server's spend, under its own ID: joining costs Bob nothing of his own budget.
    await expect.poll(() => autoreadPayers(h)).toEqual([GUILD, GUILD]);
  });

  it("reads a voice channel's own chat when given as the channel", async () => {
    const harness = await openHarness({ guilds: guilds(), config: { voiceIdleTimeoutMs: 60_000 } });
    const h = harness;
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'start',
      options: { channel: { type: 7, value: VOICE } },
    });
    expect(content).toContain(`Reading <#${VOICE}> aloud in <#${VOICE}>`);
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'in the text channel', { channelId: TEXT });
    await post(h, CAROL, 'in the voice chat', { channelId: VOICE });
    await expectRead(h, from, ['carol said, in the voice chat']);
  });

  it("/skip by the message's author skips it while it is read, and the next one is still read", async () => {
    const h = await startReading();
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
      options: { say_name: false },
    });
    expect(set.content).toContain("say the author's name: off");
    h.discord.clearAudio(GUILD);
    const now = Date.now();
    const first =
      'This first message is long enough to be skipped while it plays aloud, even read at twice the usual rate of speech.';
    await post(h, CAROL, first, { at: now });
    await post(h, ALICE, 'Second.', { at: now + 1 });
    await h.discord.waitForPacket(GUILD, () => true);
    const skipped = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'skip' });
    expect(skipped.content).toBe('Skipped the current clip.');
    const audio = await h.discord.waitForAudio(GUILD, {
      minSeconds: h.sandbox.expectedDurationSeconds('Second.'),
      quietMs: 400,
    });
    // Part of the first, all of the second: less than both in full.
    expect(audio.seconds).toBeLessThan(h.sandbox.expectedDurationSeconds(first));
    expect(spoken(h).slice(-2).sort()).toEqual([first, 'Second.'].sort());
  });

  it('keeps the bot in voice past the idle timeout while reading, and lets it go after /autoread stop', async () => {
    const h = await startReading({ config: { voiceIdleTimeoutMs: 200 } });
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'hello');
    // Heard, then 600 ms without a packet: the 200 ms idle timeout fired meanwhile.
    await h.discord.waitForAudio(GUILD, { minSeconds: 0.3, quietMs: 600 });
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    expect(h.logs()).not.toContain('"reason":"idle"');
    const left = botLeavesVoice(h);
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'stop' });
    await left;
    expect(h.logs()).toContain('"reason":"idle"');
  });

  it('stops reading after /autoread stop', async () => {
    const h = await startReading();
    const stopped = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'stop' });
    expect(stopped.content).toBe('Stopped reading aloud.');
    const from = h.sandbox.requests.length;
    await post(h, ALICE, 'nobody reads me');
    // A /say after it: its request is the only one, so the message before it was not read.
    const said = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'say',
      options: { text: 'said instead' },
    });
    await said.handle.waitFor((r) => (r.content ?? '').startsWith('Spoke'), 15_000);
    expect(spoken(h, from)).toEqual(['said instead']);
    const again = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'stop' });
    expect(again.content).toBe('Auto-read is not on in this server.');
  });

  it('keeps reading across a restart on the same store', async () => {
    const h = await startReading();
    await h.restart();
    expect(h.logs()).toContain('"code":"autoread-resumed"');
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'still reading');
    await expectRead(h, from, ['carol said, still reading']);
  });

  it('pauses with one notice, instead of resuming, when SayBot may no longer speak in its voice channel after a restart', async () => {
    const h = await startReading();
    // A moderator takes Speak from SayBot in the voice channel while it is away.
    h.discord.setChannelOverwrites(GUILD, VOICE, [{ id: APP_ID, type: 1, deny: PermissionFlagsBits.Speak }]);
    await h.restart();
    expect(h.logs()).toContain('"code":"autoread-paused-rights"');
    expect(h.logs()).not.toContain('"code":"autoread-resumed"');
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    const notice = t('en-US', 'autoread.pausedRights.voice', { channel: `<#${TEXT}>`, voice: `<#${VOICE}>` });
    await h.discord.waitForChannelMessage((m) => m.message['content'] === notice);
    expect(h.discord.channelMessages(TEXT).filter((m) => m.message['content'] === notice)).toHaveLength(1);
    // Paused, not read: a message now is not spoken, and a later restart says nothing more.
    await h.restart();
    expect(h.discord.channelMessages(TEXT).filter((m) => m.message['content'] === notice)).toHaveLength(1);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('stops by itself when the bot is disconnected from voice, and is not resumed after a restart', async () => {
    const h = await startReading();
    const left = botLeavesVoice(h);
    h.discord.setVoiceState(GUILD, APP_ID, null);
    await left;
    await expect.poll(() => h.logs().includes('"why":"left-voice"')).toBe(true);
    const shown = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'settings' });
    expect(shown.content).toMatch(/^Not reading now\./);
    await h.restart();
    expect(h.logs()).not.toContain('"code":"autoread-resumed"');
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it("refuses a plain member's /leave and /join elsewhere while reading, and never moves for their /say; reading goes on", async () => {
    const h = await startReading();
    const where = { channel: `<#${TEXT}>`, voice: `<#${VOICE}>` };
    const leave = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'leave' });
    expect(leave.content).toBe(t('en-US', 'autoread.guard.leave', where));
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    // CAROL goes to another voice channel and calls SayBot there.
    await memberMoves(h, CAROL.id, QUIET_VOICE);
    const join = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'join' });
    expect(join.content).toBe(t('en-US', 'autoread.guard.move', where));
    const before = h.sandbox.requests.length;
    const say = await runCommand(h, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'say',
      options: { text: 'come over here' },
    });
    expect(say.content).toBe(t('en-US', 'autoread.guard.elsewhere', where));
    expect(h.sandbox.requests.length).toBe(before);
    expect(h.discord.botVoiceChannel(GUILD)).toBe(VOICE);
    // Still reading where it was bound (ALICE is there).
    h.discord.clearAudio(GUILD);
    await post(h, ALICE, 'still here');
    await expectRead(h, before, ['alice said, still here']);
  });

  it("pauses on a manager's /leave, keeping the binding, and a manager's /join there resumes it", async () => {
    const h = await startReading();
    const where = { channel: `<#${TEXT}>`, voice: `<#${VOICE}>` };
    const left = botLeavesVoice(h);
    const leave = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'leave' });
    expect(leave.content).toBe(t('en-US', 'autoread.pausedByLeave', where));
    await left;
    expect(h.logs()).not.toContain('"why":"left-voice"');
    const from = h.sandbox.requests.length;
    await post(h, CAROL, 'nobody reads me now');
    // A plain member's /join brings SayBot back without resuming what a manager paused.
    const carolJoin = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'join' });
    expect(carolJoin.content).toBe(t('en-US', 'join.joined', { channel: `<#${VOICE}>` }));
    const join = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'join' });
    expect(join.content).toBe(t('en-US', 'join.already', { channel: `<#${VOICE}>` }));
    await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'leave' });
    const back = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'join' });
    expect(back.content).toBe(t('en-US', 'autoread.resumed', where));
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'read again');
    await expectRead(h, from, ['carol said, read again']);
  });

  it('drops the binding at start-up when nobody is left in its voice channel', async () => {
    const h = await startReading();
    await h.bot.stop();
    for (const member of [ALICE, CAROL, HELPER]) h.discord.setVoiceState(GUILD, member.id, null);
    await h.restart();
    const lines = h
      .logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line['code'] === 'autoread-not-resumed').map((line) => line['reason'])).toEqual([
      'channel-empty',
    ]);
    expect(h.discord.botVoiceChannel(GUILD)).toBeNull();
    // Dropped for good: another restart, with members back, does not resume it either.
    h.discord.setVoiceState(GUILD, ALICE.id, VOICE);
    await h.restart();
    expect(lines.length).toBeLessThan(h.logs().trim().split('\n').length);
    expect(h.logs()).not.toContain('"code":"autoread-resumed"');
  });

  it('answers /autoread start clearly when Message Content is not enabled', async () => {
    const harness = await openHarness({ guilds: guilds(), discord: { allowedPrivilegedIntents: 0 } });
    const { content } = await runCommand(harness, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'start',
    });
    expect(content).toContain('Discord does not give it the text of messages');
    expect(content).toContain('Privileged Gateway Intents > Message Content');
    expect(harness.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('answers why when SayBot may not post in the channel to read, before joining', async () => {
    // Members (and so SayBot) may read the channel, not post in it.
    const noPosting =
      PermissionFlagsBits.ViewChannel |
      PermissionFlagsBits.ReadMessageHistory |
      PermissionFlagsBits.Connect |
      PermissionFlagsBits.Speak |
      PermissionFlagsBits.UseVAD |
      PermissionFlagsBits.UseApplicationCommands;
    const harness = await openHarness({
      guilds: guilds().map((g) => ({ ...g, everyonePermissions: noPosting, botPermissions: noPosting })),
    });
    const { content } = await runCommand(harness, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'start',
    });
    expect(content).toBe(`I cannot read <#${TEXT}>: give me View Channel and Send Messages there, then try again.`);
    expect(harness.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('refuses /autoread start on a channel the member cannot read themselves, before joining', async () => {
    const harness = await openHarness({ guilds: guilds() });
    const { content } = await runCommand(harness, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'start',
      options: { channel: { type: 7, value: PRIVATE_TEXT } },
    });
    expect(content).toBe(t('en-US', 'autoread.memberCannotSee', { channel: `<#${PRIVATE_TEXT}>` }));
    expect(harness.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('refuses a member without Manage Server, by the declared precondition, and one outside voice', async () => {
    const harness = await openHarness({ guilds: guilds() });
    // Discord offers /autoread only to Manage Server (its default member permissions) and sends nothing else.
    await expect(
      runCommand(harness, { guildId: GUILD, userId: CAROL.id, name: 'autoread', subcommand: 'start' }),
    ).rejects.toThrow(/ManageGuild/);
    // A server that lets her see it (Integrations) still has SayBot refuse her, on every use.
    letMembersUse(harness.discord, GUILD, 'autoread', [CAROL.id]);
    const refused = await runCommand(harness, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'autoread',
      subcommand: 'start',
    });
    expect(refused.content).toBe(t('en-US', 'autoread.permission'));
    const ko = await runCommand(harness, {
      guildId: GUILD,
      userId: CAROL.id,
      name: 'autoread',
      subcommand: 'settings',
      locale: 'ko',
    });
    expect(ko.content).toBe(t('ko', 'autoread.permission'));
    harness.discord.setVoiceState(GUILD, ALICE.id, null);
    await new Promise<void>((resolve) =>
      harness.bot.client.on(Events.VoiceStateUpdate, (_before, after) => {
        if (after.id === ALICE.id) resolve();
      }),
    );
    const outside = await runCommand(harness, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'start',
    });
    expect(outside.content).toBe(t('en-US', 'error.voice.notInVoice'));
    expect(harness.discord.botVoiceChannel(GUILD)).toBeNull();
  });

  it('voices:distinct reads three members in three voices of the pool, each in the same voice on a second message', async () => {
    const h = await startReading();
    // Three pool voices SayBot lists whose pitches the sandbox keeps far apart: 155, 290 and 630 Hz.
    const pool = ['voice-b-ja-m-01', 'voice-b-en-m-01', 'voice-b-ja-f-01'];
    for (const voice of pool) {
      const added = await runCommand(h, {
        guildId: GUILD,
        userId: ALICE.id,
        name: 'autoread',
        subcommand: 'voice_add',
        options: { voice },
      });
      expect(added.content).toContain(`Added \`${voice}\` to the voice pool.`);
    }
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
      options: { voices: 'distinct', say_name: false },
    });
    expect(set.content).toContain('voices: a voice of the pool per member');
    await memberMoves(h, BOB.id, VOICE);
    const members = [ALICE, CAROL, BOB];
    const voiceOf = new Map<string, string>();
    for (const texts of [
      ['One.', 'Two.', 'Three.'],
      ['Four.', 'Five.', 'Six.'],
    ]) {
      const from = h.sandbox.requests.length;
      h.discord.clearAudio(GUILD);
      const now = Date.now();
      for (const [i, member] of members.entries()) await post(h, member, texts[i] ?? '', { at: now + i });
      const audio = await heard(h, texts);
      const requested = new Map(h.sandbox.requests.slice(from).map((r) => [r.text, r.voice ?? '']));
      expect([...requested.keys()].sort()).toEqual([...texts].sort());
      const pitches = pitchesOf(h, audio, texts);
      for (const [i, member] of members.entries()) {
        const voice = requested.get(texts[i]) ?? '';
        expect(pool).toContain(voice);
        // The same voice as in the first round, heard at that voice's pitch.
        expect(voice).toBe(voiceOf.get(member.id) ?? voice);
        voiceOf.set(member.id, voice);
        expect(Math.abs((pitches[i] ?? 0) - (h.sandbox.voicePitchHz(voice) ?? 0)), texts[i]).toBeLessThan(4);
      }
      expect(new Set(members.map((member) => voiceOf.get(member.id))).size).toBe(3);
    }
    // Each member's voice is listed for the managers and told to the member.
    const shown = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'show' });
    expect(shown.content).toContain(`Voice pool: ${pool.map((voice) => `\`${voice}\``).join(', ')}.`);
    expect(shown.content).toContain(`<@${CAROL.id}> \`${voiceOf.get(CAROL.id)}\``);
    const mine = await runCommand(h, { guildId: GUILD, userId: BOB.id, name: 'myvoice', subcommand: 'show' });
    expect(mine.content).toContain(
      `Auto-read reads you in \`${voiceOf.get(BOB.id)}\`, your voice from the server's pool.`,
    );
  });

  it('voices:distinct in a default English server reads six members in six voices told apart, each kept', async () => {
    const others = ['dan', 'erin', 'frank', 'grace'].map((username, i) => ({
      id: `30000000000000003${i}`,
      username,
    }));
    const [spec] = guilds();
    if (spec === undefined) throw new Error('no guild');
    spec.members = [...spec.members, ...others.map((m) => ({ ...m, voiceChannelId: VOICE, locale: 'en-US' }))];
    const h = await startReading({ guilds: [spec] });
    const set = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
      options: { voices: 'distinct', say_name: false },
    });
    expect(set.content).toContain('voices: a voice of the pool per member');
    const members = [ALICE, CAROL, ...others];
    const voiceOf = new Map<string, string>();
    for (const texts of [
      ['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.'],
      ['Seven.', 'Eight.', 'Nine.', 'Ten.', 'Eleven.', 'Twelve.'],
    ]) {
      const from = h.sandbox.requests.length;
      h.discord.clearAudio(GUILD);
      const now = Date.now();
      for (const [i, member] of members.entries()) await post(h, member, texts[i] ?? '', { at: now + i });
      const audio = await heard(h, texts);
      const requests = h.sandbox.requests.slice(from);
      expect(requests.map((r) => r.text).sort()).toEqual([...texts].sort());
      // Each preset speaks the server's language, whatever language it was made for.
      expect(requests.map((r) => r.language)).toEqual(texts.map(() => 'en'));
      const requested = new Map(requests.map((r) => [r.text, r.voice ?? '']));
      const pitches = pitchesOf(h, audio, texts);
      for (const [i, member] of members.entries()) {
        const voice = requested.get(texts[i]) ?? '';
        expect(voice, texts[i]).not.toBe('');
        expect(voice).toBe(voiceOf.get(member.id) ?? voice);
        voiceOf.set(member.id, voice);
        expect(Math.abs((pitches[i] ?? 0) - (h.sandbox.voicePitchHz(voice) ?? 0)), texts[i]).toBeLessThan(4);
      }
      // Six voices, and six pitches a listener tells apart (the sandbox keeps its voices' pitches 15 Hz apart).
      expect(new Set(voiceOf.values()).size).toBe(6);
      const sorted = pitches.map((pitch) => pitch ?? 0).sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect((sorted[i] ?? 0) - (sorted[i - 1] ?? 0)).toBeGreaterThan(10);
    }
    const shown = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'show' });
    for (const member of members) expect(shown.content).toContain(`<@${member.id}> \`${voiceOf.get(member.id)}\``);
  });

  it("voices:one, the default, reads every member in the server's one voice whatever the pool holds", async () => {
    const h = await startReading();
    await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'voice_add',
      options: { voice: 'voice-b-en-m-01' },
    });
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    const now = Date.now();
    await post(h, ALICE, 'First.', { at: now });
    await post(h, CAROL, 'Second.', { at: now + 1 });
    await expectRead(h, from, ['alice said, First.', 'carol said, Second.']);
    expect(h.sandbox.requests.slice(from).map((r) => r.voice)).toEqual(['voice-b-en-f-01', 'voice-b-en-f-01']);
    const mine = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'myvoice', subcommand: 'show' });
    expect(mine.content).toBe(
      "You have no defaults in this server. Auto-read reads you in the server's voice, `voice-b-en-f-01`.",
    );
  });

  it("never reads a member the managers ignore (no request), lists them, and keeps the record through the member's /privacy delete", async () => {
    const h = await startReading();
    const member = { type: 6, value: CAROL.id };
    const ignored = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'ignore',
      options: { member },
    });
    expect(ignored.content).toBe(t('en-US', 'autoread.ignore.added', { member: `<@${CAROL.id}>` }));
    const shown = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'show' });
    expect(shown.content).toContain(`Not read: <@${CAROL.id}>.`);
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    // Decided in arrival order: once Alice's line is requested, Carol's was skipped before anything was asked.
    await post(h, CAROL, 'Nobody hears me.');
    await post(h, ALICE, 'Only me.');
    await expectRead(h, from, ['alice said, Only me.']);
    expect(h.logs()).toContain('"skipped":"ignored"');
    // Carol sees the managers' record among what SayBot keeps about her, and her /privacy delete keeps it.
    const mine = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'privacy', subcommand: 'show' });
    expect(mine.content).toContain(`${t('en-US', 'privacy.kept.auto_read_ignored')}: 1`);
    await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'privacy', subcommand: 'delete' });
    const after = await runCommand(h, { guildId: GUILD, userId: ALICE.id, name: 'autoread', subcommand: 'show' });
    expect(after.content).toContain(`Not read: <@${CAROL.id}>.`);
    const still = await runCommand(h, { guildId: GUILD, userId: CAROL.id, name: 'privacy', subcommand: 'show' });
    expect(still.content).toContain(`${t('en-US', 'privacy.kept.auto_read_ignored')}: 1`);
    const afterDelete = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Still nobody hears me.');
    await post(h, ALICE, 'Me again.');
    // Alice spoke last, so her name is not said again.
    await expectRead(h, afterDelete, ['Me again.']);
    // A manager's unignore ends it: she is read again.
    const unignored = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'unignore',
      options: { member },
    });
    expect(unignored.content).toBe(t('en-US', 'autoread.unignore.done', { member: `<@${CAROL.id}>` }));
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Back again.');
    await heard(h, ['carol said, Back again.']);
    expect(spoken(h, from)).toEqual(['alice said, Only me.', 'Me again.', 'carol said, Back again.']);
  });

  it('hears of npm run forget while running: the forgotten member is no longer ignored, within seconds', async () => {
    const h = await startReading();
    await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'ignore',
      options: { member: { type: 6, value: CAROL.id } },
    });
    const from = h.sandbox.requests.length;
    // The operator forgets Carol in this server from another process, on the bot's own database.
    const applied = once(h.bot.forgetNotices, 'applied');
    const run = await runChild(
      process.execPath,
      [fileURLToPath(new URL('../../src/bin/forget.ts', import.meta.url)), '--user', CAROL.id, '--guild', GUILD],
      {
        cwd: path.dirname(h.databasePath),
        env: {
          PATH: process.env['PATH'] ?? '',
          DISCORD_TOKEN: h.token,
          DISCORD_CLIENT_ID: APP_ID,
          DATABASE_URL: `sqlite:${h.databasePath}`,
          CACHE_DIR: h.cacheDir,
        },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // The notice named her by a keyed pseudonym; the bot found her among the members it remembers.
    const [forgotten] = await applied;
    expect(forgotten).toEqual({ guildId: GUILD, userId: CAROL.id });
    expect(h.logs()).toContain('a deletion made by npm run forget reached this bot');
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Forgotten and read again.');
    await heard(h, ['carol said, Forgotten and read again.']);
    expect(spoken(h, from)).toEqual(['carol said, Forgotten and read again.']);
  });

  it("never reads a server-muted member's messages (no request), and reads them again once unmuted", async () => {
    const h = await startReading();
    const from = h.sandbox.requests.length;
    h.discord.clearAudio(GUILD);
    h.discord.setVoiceState(GUILD, CAROL.id, VOICE, { mute: true });
    // Decided in arrival order: once Alice's line is requested, Carol's was skipped before anything was asked.
    await post(h, CAROL, 'A moderator muted me.');
    await post(h, ALICE, 'I may speak.');
    await expectRead(h, from, ['alice said, I may speak.']);
    expect(h.logs()).toContain('"skipped":"may-not-speak"');
    h.discord.setVoiceState(GUILD, CAROL.id, VOICE, { mute: false });
    h.discord.clearAudio(GUILD);
    await post(h, CAROL, 'Unmuted now.');
    await heard(h, ['carol said, Unmuted now.']);
    expect(spoken(h, from)).toEqual(['alice said, I may speak.', 'carol said, Unmuted now.']);
  });

  it('shows the settings with no options, and the status', async () => {
    const h = await startReading();
    const { content } = await runCommand(h, {
      guildId: GUILD,
      userId: ALICE.id,
      name: 'autoread',
      subcommand: 'settings',
    });
    expect(content).toBe(
      `Reading <#${TEXT}> in <#${VOICE}>. Settings: say the author's name: on; longest message: 200 characters; ` +
        'read bots and webhooks: off; required role: none; only members in voice: on; announce joins and leaves: off; ' +
        'skip messages starting with: none; read @silent messages: on; join when a member joins: off; ' +
        'faster past 3 waiting (up to 1.5×), skip to the newest past 10; voices: one for everyone; say files: on; free voice: off.',
    );
  });
});

/** Resolves once the bot's own voice state says it left; the reader saw it first (its listener came earlier). */
function botLeavesVoice(h: Harness): Promise<void> {
  return new Promise((resolve) =>
    h.bot.client.on(Events.VoiceStateUpdate, (_before, after) => {
      if (after.id === h.bot.client.user?.id && after.channelId === null) resolve();
    }),
  );
}

/** A member moves to another voice channel; resolves once the bot has seen it (its cache says so). */
async function memberMoves(h: Harness, userId: string, channelId: string): Promise<void> {
  const seen = new Promise<void>((resolve) =>
    h.bot.client.on(Events.VoiceStateUpdate, (_before, after) => {
      if (after.id === userId && after.channelId === channelId) resolve();
    }),
  );
  h.discord.setVoiceState(GUILD, userId, channelId);
  await seen;
}

/** The pitch heard in the middle of each text's stretch of `audio` (heard in the order of `texts`), clear of the joins. */
function pitchesOf(
  h: Harness,
  audio: Parameters<typeof monoOf>[0],
  texts: readonly string[],
): Array<number | undefined> {
  const samples = monoOf(audio);
  let start = 0;
  return texts.map((text) => {
    const seconds = h.sandbox.expectedDurationSeconds(text);
    const middle = samples.subarray(Math.round((start + 0.1) * 48_000), Math.round((start + seconds - 0.1) * 48_000));
    start += seconds;
    return dominantPitchHz(middle, 48_000);
  });
}

/**
 * The channel heard `texts` (as long as the sandbox makes each), and they are exactly what was sent since `from`.
 * In any order: the pipeline may start a later message's request first; what is heard is queued in order.
 */
async function expectRead(h: Harness, from: number, texts: readonly string[]): Promise<void> {
  await heard(h, texts);
  expect([...spoken(h, from)].sort()).toEqual([...texts].sort());
}
