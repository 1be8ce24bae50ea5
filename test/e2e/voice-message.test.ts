// Voice messages end to end: the real bot, the local Discord (which checks voice messages as Discord does and
// refuses them without Send Voice Messages) and the sandbox Voice API over HTTP. What was posted is heard by
// decoding the Ogg the channel received, as a Discord client plays it.
import { readFileSync } from 'node:fs';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENCODER_PRE_SKIP } from '../../src/core/audio/codecs/ogg-opus-writer.ts';
import { waveformValues } from '../support/waveform.ts';
import { t, type MessageKey } from '../../src/core/i18n/catalogue.ts';
import type { InteractionHandle, InteractionResponse, SentChannelMessage } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import {
  APP_ID,
  numberValue,
  runCommand,
  voiceMessageGuilds,
  WITH_VOICE_MESSAGES,
  type CommandInput,
} from '../support/harness.ts';
import { audibleEndSeconds, hearVoiceMessage, type HeardVoiceMessage } from '../core/voice-message/helpers.ts';
import { ALICE, BOB, LONDON_ADMIN as CAROL, OUTSIDE } from '../support/world.ts';
import { slowReads } from '../support/slow-store.ts';

const guilds = voiceMessageGuilds();
const [seoul, london] = guilds;
london.members = [
  ...london.members,
  { id: CAROL, username: 'carol', locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild },
];
const RATE = 48000;
/** The player's encoder leaves out up to one 20 ms frame at a part's end, and its lookahead never comes out. */
const PART_SHORTFALL = 0.02 + ENCODER_PRE_SKIP / RATE;

// Longer than the router's deadline (acknowledge.ts): a read held this long makes it defer the response publicly.
const slow = slowReads(2500);
const h = useFileHarness({ guilds, config: { maxCharsPerRequest: 60 }, wrapStore: slow.wrap });
beforeEach(() => {
  // A test may take Send Voice Messages away or slow the channel down; every other test starts without that.
  h.discord.setBotPermissions(london.id, WITH_VOICE_MESSAGES);
  h.discord.setBotPermissions(seoul.id, WITH_VOICE_MESSAGES);
  h.discord.setChannelOverwrites(london.id, london.textChannelId, []);
  h.discord.setSlowmode(london.id, london.textChannelId, 0);
});

/** Whether the member alone saw the reply: its first response (the defer, or the reply itself) was ephemeral. */
const privately = (handle: InteractionHandle) =>
  ((handle.responses[0]?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const isPrivateResponse = (r: InteractionResponse) =>
  ((r.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const apiCalls = (from: number) => h.sandbox.requests.slice(from).filter((r) => r.endpoint !== undefined);

interface PostedVoiceMessage {
  /** The interaction's own response (Discord shows who used the command), or a message in the channel. */
  where: 'response' | 'channel';
  posted: { message: Record<string, unknown>; files: SentChannelMessage['files']; raw: unknown };
  ogg: Buffer;
  durationSecs: number;
  waveform: number[];
  heard: HeardVoiceMessage;
}

const isVoiceMessage = (message: Record<string, unknown> | undefined) =>
  ((Number(message?.flags) || 0) & MessageFlags.IsVoiceMessage) !== 0;

/** The voice messages posted in a channel since `from` (an index into the channel's messages). */
function voiceMessagesSince(channelId: string, from: number): SentChannelMessage[] {
  return h.discord
    .channelMessages(channelId)
    .slice(from)
    .filter((m) => isVoiceMessage(m.message));
}

/** The interaction's responses that made or turned its message into a voice message. */
const voiceResponses = (handle: InteractionHandle) =>
  handle.responses.filter((r) => r.kind !== 'delete' && isVoiceMessage(r.message) && r.files.length > 0);

/** Runs a command that should answer with one voice message; returns it, heard, and the final reply. */
async function voiceMessageFrom(
  input: CommandInput,
  channelId: string,
): Promise<{ reply: InteractionResponse; handle: InteractionHandle; message: PostedVoiceMessage }> {
  const from = h.discord.channelMessages(channelId).length;
  const { handle } = await runCommand(h, input);
  const reply = await handle.waitForFinal(60_000);
  const inChannel = voiceMessagesSince(channelId, from);
  const asResponse = voiceResponses(handle);
  expect(inChannel.length + asResponse.length).toBe(1);
  const posted = asResponse[0] ?? inChannel[0];
  if (!posted?.message) throw new Error(`no voice message posted; the reply said: ${reply.content ?? ''}`);
  const raw = JSON.parse(JSON.stringify(posted.raw)) as {
    content?: string;
    attachments?: Array<{ duration_secs?: number; waveform?: string }>;
  };
  const file = posted.files[0];
  if (!file) throw new Error('a voice message without its file');
  expect(posted.files).toHaveLength(1);
  expect(file.contentType).toBe('audio/ogg');
  expect(raw.content ?? '').toBe('');
  const meta = raw.attachments?.[0] ?? {};
  return {
    reply,
    handle,
    message: {
      where: asResponse.length > 0 ? 'response' : 'channel',
      posted: { message: posted.message, files: posted.files, raw: posted.raw },
      ogg: file.data,
      durationSecs: meta.duration_secs ?? Number.NaN,
      waveform: [...Buffer.from(meta.waveform ?? '', 'base64')],
      heard: await hearVoiceMessage(file.data),
    },
  };
}

/** What the channel sees of a voice message that is the interaction's response: public, the member's, no text. */
function expectAttributedResponse(message: PostedVoiceMessage, handle: InteractionHandle, userId: string): void {
  expect(message.where).toBe('response');
  expect(privately(handle)).toBe(false);
  expect(handle.responses[0]?.flags).toBe(MessageFlags.IsVoiceMessage);
  const metadata = message.posted.message.interaction_metadata as { user?: { id?: string } } | undefined;
  expect(metadata?.user?.id).toBe(userId);
  expect(message.posted.message.content).toBe('');
}

/** The waveform a player would draw from the decoded audio (the scale of src/core/audio/analysis/waveform.ts). */
function levelsOf(heard: HeardVoiceMessage): number[] {
  const pcm = Int16Array.from(heard.samples, (s) => Math.round(s * 32767));
  return [...waveformValues(pcm, RATE)];
}

describe('output: voice-message', () => {
  it("posts one voice message heard at the voice's pitch and length, with its duration and a waveform that follows the audio", async () => {
    const text = 'A voice message for the channel.';
    const voice = 'voice-b-en-m-02';
    const before = h.sandbox.requests.length;
    const { reply, handle, message } = await voiceMessageFrom(
      { guildId: london.id, userId: BOB, name: 'say', options: { text, voice, output: 'voice-message' } },
      london.textChannelId,
    );

    // The interaction's own public response: Discord shows bob used /say above it; nothing else was said.
    expectAttributedResponse(message, handle, BOB);
    expect(reply.kind).toBe('edit-original');
    expect(handle.responses.filter((r) => r.kind === 'follow-up')).toHaveLength(0);
    expect(apiCalls(before)).toHaveLength(1);

    const { heard } = message;
    expect(heard.channels).toBe(1);
    expect(Math.abs((heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz(voice) ?? -1))).toBeLessThan(4);
    const expected = h.sandbox.expectedDurationSeconds(text);
    expect(message.durationSecs).toBeLessThanOrEqual(expected + 0.001);
    expect(message.durationSecs).toBeGreaterThan(expected - PART_SHORTFALL);
    // duration_secs is the file's own length, and the sound ends within 20 ms of it.
    expect(Math.abs(heard.declaredSeconds - message.durationSecs)).toBeLessThan(0.001);
    expect(Math.abs(audibleEndSeconds(heard.samples) - message.durationSecs)).toBeLessThan(0.02);

    // 1..256 bytes, one per 100 ms, each the level of the decoded audio in its bucket.
    expect(message.waveform.length).toBe(Math.ceil(message.durationSecs / 0.1));
    expect(message.waveform.length).toBeGreaterThanOrEqual(1);
    expect(message.waveform.length).toBeLessThanOrEqual(256);
    const levels = levelsOf(heard);
    expect(levels).toHaveLength(message.waveform.length);
    message.waveform.forEach((value, i) =>
      expect(Math.abs(value - (levels[i] ?? -99)), `bucket ${i}`).toBeLessThanOrEqual(2),
    );
    // A steady tone at 0.4 of full scale (about -11 dB RMS): loud bars, not the floor.
    expect(message.waveform.slice(1, -1).every((v) => v > 180)).toBe(true);
  });

  it('joins a text of two parts into one voice message', async () => {
    const parts = ['The first part of a longer reply is here.', 'And then the second part follows it closely.'];
    const before = h.sandbox.requests.length;
    const { message } = await voiceMessageFrom(
      {
        guildId: london.id,
        userId: BOB,
        name: 'say',
        options: { text: parts.join(' '), voice: 'voice-b-en-f-01', output: 'voice-message' },
      },
      london.textChannelId,
    );
    const sent = apiCalls(before);
    expect(sent.map((r) => r.text)).toEqual(parts);
    const expected = parts.reduce((sum, p) => sum + h.sandbox.expectedDurationSeconds(p), 0);
    expect(message.durationSecs).toBeGreaterThan(expected - 2 * PART_SHORTFALL);
    expect(message.durationSecs).toBeLessThanOrEqual(expected + 0.001);
    expect(Math.abs(audibleEndSeconds(message.heard.samples) - message.durationSecs)).toBeLessThan(0.02);
    expect(Math.abs((message.heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-f-01') ?? -1))).toBeLessThan(4);
  });

  it('posts the same Ogg again from the cache, with no API call', async () => {
    const input: CommandInput = {
      guildId: seoul.id,
      userId: OUTSIDE,
      name: 'say',
      options: { text: '캐시에서 다시 보내는 음성 메시지.', output: 'voice-message' },
    };
    const first = await voiceMessageFrom(input, seoul.textChannelId);
    const before = h.sandbox.requests.length;
    const second = await voiceMessageFrom(input, seoul.textChannelId);
    expect(apiCalls(before)).toHaveLength(0);
    expect(second.message.ogg.equals(first.message.ogg)).toBe(true);
    expect(second.message.durationSecs).toBe(first.message.durationSecs);
    expect(second.message.waveform).toEqual(first.message.waveform);
    expectAttributedResponse(second.message, second.handle, OUTSIDE);
  });

  /** A /say for a voice message that must come back to the member alone, as the voice message's Ogg, with why. */
  async function expectPrivateFile(userId: string, locale: string, reason: string, text: string) {
    const from = h.discord.channelMessages(london.textChannelId).length;
    const logFrom = h.logs().length;
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId,
      name: 'say',
      options: { text, voice: 'voice-b-en-m-01', output: 'voice-message' },
    });
    const reply = await handle.waitForFinal(60_000);
    // Nothing in the channel: no message, no public response, no voice message anywhere.
    expect(h.discord.channelMessages(london.textChannelId).slice(from)).toHaveLength(0);
    expect(privately(handle)).toBe(true);
    expect(voiceResponses(handle)).toHaveLength(0);
    // The member's language, naming why; the file is the voice message's Ogg.
    const mark = '\u0000';
    const [why = ''] = t(locale, `voiceMessage.fallback.${reason}` as MessageKey, {
      voice: mark,
      seconds: mark,
      format: mark,
    }).split(mark);
    expect(why.length).toBeGreaterThan(10);
    expect(reply.content?.startsWith(why)).toBe(true);
    expect(reply.files).toHaveLength(1);
    const heard = await hearVoiceMessage(reply.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-m-01') ?? -1))).toBeLessThan(4);
    expect(heard.declaredSeconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - PART_SHORTFALL);
    // One structured line for the operator.
    const lines = h
      .logs()
      .slice(logFrom)
      .split('\n')
      .filter(
        (l) => l.includes('"voice-message-fallback"') && l.includes(`"reason":"${reason}"`) && l.includes(userId),
      );
    expect(lines).toHaveLength(1);
  }

  it('gives a member who may not send messages in the channel the audio as a private file, with why', async () => {
    h.discord.setChannelOverwrites(london.id, london.textChannelId, [
      { id: BOB, type: 1, deny: PermissionFlagsBits.SendMessages },
    ]);
    await expectPrivateFile(BOB, 'ja', 'member-no-permission', 'Not allowed to talk in here.');
  });

  it('gives a member without Send Voice Messages there (a role overwrite) the audio as a private file', async () => {
    h.discord.setChannelOverwrites(london.id, london.textChannelId, [
      { id: london.id, type: 0, deny: PermissionFlagsBits.SendVoiceMessages },
    ]);
    await expectPrivateFile(CAROL, 'en-US', 'member-no-permission', 'No voice messages for everyone here.');
  });

  /** Carol's /say of `text` as a voice message. */
  const carolsVoiceMessage = (text: string) =>
    h.discord.command({
      guildId: london.id,
      userId: CAROL,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'output', value: 'voice-message' },
      ],
    });

  /** The file reached Carol alone, saying she may not post a voice message here; nothing public, nothing in the channel. */
  function expectPrivateFallback(reply: InteractionResponse, handle: InteractionHandle, from: number): void {
    expect(isPrivateResponse(reply)).toBe(true);
    const [why = ''] = t('en-US', 'voiceMessage.fallback.member-no-permission', {
      voice: '\u0000',
      seconds: '\u0000',
      format: '\u0000',
    }).split('\u0000');
    expect(reply.content?.startsWith(why)).toBe(true);
    expect(handle.responses.filter((r) => r.files.length > 0 && !isPrivateResponse(r))).toEqual([]);
    expect(h.discord.channelMessages(london.textChannelId).slice(from)).toHaveLength(0);
  }

  it('gives a barred member the file privately also when the deadline deferred the response publicly', async () => {
    h.discord.setChannelOverwrites(london.id, london.textChannelId, [
      { id: CAROL, type: 1, deny: PermissionFlagsBits.SendVoiceMessages },
    ]);
    const from = h.discord.channelMessages(london.textChannelId).length;
    slow.state.slowNext = 1;
    const before = slow.state.slowed;
    try {
      const handle = await carolsVoiceMessage('Late and barred.');
      const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
      expect(slow.state.slowed).toBe(before + 1);
      // The router's deadline deferred publicly (/say's result is for the channel)...
      expect(handle.responses[0]?.type).toBe(5);
      expect(privately(handle)).toBe(false);
      // ...and the file still reaches her alone, naming why; nothing public carries it, the channel gets nothing.
      expectPrivateFallback(reply, handle, from);
    } finally {
      slow.state.slowNext = 0;
    }
  });

  it('gives a member whose Send Voice Messages is taken away while the paid audio is made the audio as a private file', async () => {
    const from = h.discord.channelMessages(london.textChannelId).length;
    const held = () => h.sandbox.requests.some((r) => (r as { outcome?: string }).outcome === 'held');
    // The service's answer is held between its charge and SayBot while the right goes.
    h.sandbox.injectFault({ kind: 'hold-after-charge' });
    try {
      const handle = await carolsVoiceMessage('Taken while made.');
      await expect.poll(held, { timeout: 20_000 }).toBe(true);
      h.discord.setChannelOverwrites(london.id, london.textChannelId, [
        { id: CAROL, type: 1, deny: PermissionFlagsBits.SendVoiceMessages },
      ]);
      h.sandbox.resumePaused();
      const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
      // Paid for, so delivered: to her alone, naming why; nothing in the channel, no voice message anywhere.
      expectPrivateFallback(reply, handle, from);
    } finally {
      h.sandbox.resumePaused();
      h.sandbox.clearFaults();
    }
  });

  it("holds a member to the channel's slowmode: a second voice message within it comes back privately", async () => {
    h.discord.setSlowmode(london.id, london.textChannelId, 600);
    const first = await voiceMessageFrom(
      {
        guildId: london.id,
        userId: CAROL,
        name: 'say',
        options: { text: 'First in slowmode.', output: 'voice-message' },
      },
      london.textChannelId,
    );
    expectAttributedResponse(first.message, first.handle, CAROL);
    await expectPrivateFile(CAROL, 'en-US', 'slowmode', 'Second, too soon.');
  });
});

describe('/emote and /clone with output: voice-message', () => {
  it("/emote posts a voice message at the pitch of the server language's voice, louder for a stronger emotion", async () => {
    const text = 'So very excited about this!';
    const calm = await voiceMessageFrom(
      { guildId: london.id, userId: BOB, name: 'emote', options: { text, exaggeration: 0.1, output: 'voice-message' } },
      london.textChannelId,
    );
    const loud = await voiceMessageFrom(
      {
        guildId: london.id,
        userId: BOB,
        name: 'emote',
        options: { text, exaggeration: numberValue(1), output: 'voice-message' },
      },
      london.textChannelId,
    );
    for (const { message } of [calm, loud]) {
      expect(Math.abs((message.heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-f-01') ?? -1))).toBeLessThan(
        4,
      );
    }
    const middle = (bars: number[]) => bars.slice(1, -1);
    // Every bar of the stronger emotion is above every bar of the calm one: the waveform follows the loudness.
    expect(Math.min(...middle(loud.message.waveform))).toBeGreaterThan(Math.max(...middle(calm.message.waveform)) + 10);
  });

  it('/clone speaks its first line as a voice message in the new voice', async () => {
    const clip = readFileSync(new URL('../../fixtures/audio/tone-220hz-5s-48k.wav', import.meta.url));
    const from = h.discord.channelMessages(london.textChannelId).length;
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: CAROL,
      name: 'clone',
      options: { text: 'Hello, this is my cloned voice.', name: 'Carol', consent: true, output: 'voice-message' },
      attachments: [{ option: 'audio', data: clip, filename: 'carol.wav', contentType: 'audio/wav' }],
    });
    const reply = await handle.waitFor((r) => /voice message/.test(r.content ?? ''), 60_000);
    expect(reply.content).toContain('Carol');
    const [posted] = voiceMessagesSince(london.textChannelId, from);
    const heard = await hearVoiceMessage(posted?.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - 220)).toBeLessThan(4);
  });
});

describe('a voice message in the channel, where it cannot be the response', () => {
  it('/clone (acknowledged before its download) falls back to a file, with why, where SayBot itself may not send voice messages', async () => {
    h.discord.setChannelOverwrites(london.id, london.textChannelId, [
      { id: APP_ID, type: 1, deny: PermissionFlagsBits.SendVoiceMessages },
    ]);
    const clip = readFileSync(new URL('../../fixtures/audio/tone-220hz-5s-48k.wav', import.meta.url));
    const from = h.discord.channelMessages(london.textChannelId).length;
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId: CAROL,
      name: 'clone',
      options: { text: 'Hello again, in a file this time.', name: 'Carol Two', consent: true, output: 'voice-message' },
      attachments: [{ option: 'audio', data: clip, filename: 'carol.wav', contentType: 'audio/wav' }],
    });
    const mark = '\u0000';
    const [why = ''] = t('en-US', 'voiceMessage.fallback.no-permission', {
      voice: mark,
      seconds: mark,
      format: mark,
    }).split(mark);
    const reply = await handle.waitFor((r) => (r.content ?? '').startsWith(why), 60_000);
    expect(reply.files).toHaveLength(1);
    expect(voiceMessagesSince(london.textChannelId, from)).toHaveLength(0);
    const heard = await hearVoiceMessage(reply.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - 220)).toBeLessThan(4);
    expect(
      h
        .logs()
        .split('\n')
        .some((l) => l.includes('"voice-message-fallback"') && l.includes('"reason":"no-permission"')),
    ).toBe(true);
  });
});

describe('the outside-voice defaults (/output)', () => {
  /** Where a /say by this member went: 'voice-message', 'file' or 'voice'. */
  async function whereSayGoes(userId: string, text: string, output?: string): Promise<string> {
    const from = h.discord.channelMessages(london.textChannelId).length;
    const { handle } = await runCommand(h, {
      guildId: london.id,
      userId,
      name: 'say',
      options: { text, voice: 'voice-b-en-m-01', ...(output ? { output } : {}) },
    });
    const reply = await handle.waitFor(
      (r) =>
        r.kind !== 'delete' &&
        (isVoiceMessage(r.message)
          ? r.files.length > 0
          : r.content !== undefined && !/Speaking|Queued/.test(r.content)),
      20_000,
    );
    if (voiceMessagesSince(london.textChannelId, from).length > 0 || voiceResponses(handle).length > 0)
      return 'voice-message';
    if (reply.files.length > 0) return 'file';
    return /Spoke/.test(reply.content ?? '') ? 'voice' : `unexpected: ${reply.content ?? ''}`;
  }

  it("applies the option over the member's default, over the server's, over a file; in voice, voice", async () => {
    try {
      // Built-in: a file outside voice, voice inside.
      expect(await whereSayGoes(BOB, 'Built in.')).toBe('file');
      expect(await whereSayGoes(ALICE, 'In the room.')).toBe('voice');

      // Only Manage Server sets the server's default.
      const refused = await runCommand(h, {
        guildId: london.id,
        userId: BOB,
        name: 'output',
        subcommand: 'server',
        options: { outside_voice: 'voice-message' },
      });
      expect(refused.content).toBe(t('ja', 'error.permission.manageServer'));
      const set = await runCommand(h, {
        guildId: london.id,
        userId: CAROL,
        name: 'output',
        subcommand: 'server',
        options: { outside_voice: 'voice-message' },
      });
      expect(set.content).toBe(t('en-US', 'output.server.set', { output: t('en-US', 'choice.output.voice-message') }));
      expect(await whereSayGoes(BOB, 'Server default.')).toBe('voice-message');

      // The member's own default comes before the server's, for them only.
      await runCommand(h, {
        guildId: london.id,
        userId: BOB,
        name: 'output',
        subcommand: 'me',
        options: { outside_voice: 'file' },
      });
      expect(await whereSayGoes(BOB, 'My own default.')).toBe('file');
      expect(await whereSayGoes(CAROL, 'Still the server default.')).toBe('voice-message');
      const shown = await runCommand(h, { guildId: london.id, userId: BOB, name: 'output', subcommand: 'show' });
      expect(shown.content).toBe(
        t('ja', 'output.show', {
          output: t('ja', 'choice.output.file'),
          why: t('ja', 'output.why.member'),
          server: t('ja', 'choice.output.voice-message'),
          member: t('ja', 'choice.output.file'),
        }),
      );

      // The command's option comes before both.
      expect(await whereSayGoes(BOB, 'Asked for it.', 'voice-message')).toBe('voice-message');
      expect(await whereSayGoes(CAROL, 'Asked for a file.', 'file')).toBe('file');

      // In voice, voice: the defaults are for members outside it.
      await runCommand(h, {
        guildId: london.id,
        userId: ALICE,
        name: 'output',
        subcommand: 'me',
        options: { outside_voice: 'voice-message' },
      });
      expect(await whereSayGoes(ALICE, 'Still in the room.')).toBe('voice');

      // Reset: the member follows the server again; the server's reset brings back the file.
      const reset = await runCommand(h, {
        guildId: london.id,
        userId: BOB,
        name: 'output',
        subcommand: 'me',
        options: { outside_voice: 'reset' },
      });
      expect(reset.content).toBe(t('ja', 'output.me.reset', { output: t('ja', 'choice.output.voice-message') }));
      expect(await whereSayGoes(BOB, 'Following the server.')).toBe('voice-message');
      await runCommand(h, {
        guildId: london.id,
        userId: CAROL,
        name: 'output',
        subcommand: 'server',
        options: { outside_voice: 'reset' },
      });
      expect(await whereSayGoes(BOB, 'Back to files.')).toBe('file');
    } finally {
      // Whatever failed above, the other tests find no defaults set.
      await runCommand(h, {
        guildId: london.id,
        userId: CAROL,
        name: 'output',
        subcommand: 'server',
        options: { outside_voice: 'reset' },
      });
      for (const member of [BOB, ALICE, CAROL])
        await runCommand(h, {
          guildId: london.id,
          userId: member,
          name: 'output',
          subcommand: 'me',
          options: { outside_voice: 'reset' },
        });
    }
  });
});
