// Voice messages end to end: the real bot, the local Discord (which checks voice messages as Discord does and
// refuses them without Send Voice Messages) and the sandbox Voice API over HTTP. What was posted is heard by
// decoding the Ogg the channel received, as a Discord client plays it.
import { readFileSync } from 'node:fs';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENCODER_PRE_SKIP } from '../../src/audio/ogg-opus-writer.ts';
import { waveformValues } from '../../src/audio/waveform.ts';
import { t } from '../../src/bot/i18n.ts';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord/state.ts';
import type { InteractionHandle, InteractionResponse, SentChannelMessage } from '@saybot/local-discord/types.ts';
import { defaultGuilds, numberValue, runCommand, startHarness, type CommandInput, type Harness } from '../support/harness.ts';
import { audibleEndSeconds, hearVoiceMessage, type HeardVoiceMessage } from '../voice-message/helpers.ts';

const WITH_VOICE_MESSAGES = DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages;
const guilds = defaultGuilds().map((g) => ({ ...g, botPermissions: WITH_VOICE_MESSAGES }));
const seoul = guilds[0] as (typeof guilds)[number];
const london = guilds[1] as (typeof guilds)[number];
const CAROL = '300000000000000013'; // London, not in voice, Manage Server, English client
london.members = [...london.members, { id: CAROL, username: 'carol', locale: 'en-US', permissions: PermissionFlagsBits.ManageGuild }];
const ALICE = '300000000000000011'; // London, in voice "general", English client
const BOB = '300000000000000012'; // London, not in voice, Japanese client
const OUTSIDE = '300000000000000002'; // Seoul, not in voice, Korean client
const RATE = 48000;
/** The player's encoder leaves out up to one 20 ms frame at a part's end, and its lookahead never comes out. */
const PART_SHORTFALL = 0.02 + ENCODER_PRE_SKIP / RATE;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ guilds, config: { maxCharsPerRequest: 60 } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  // A test may take Send Voice Messages away; every other test starts with it.
  h.discord.setBotPermissions(london.id, WITH_VOICE_MESSAGES);
  h.discord.setBotPermissions(seoul.id, WITH_VOICE_MESSAGES);
});

/** Whether the member alone saw the reply: its first response (the defer, or the reply itself) was ephemeral. */
const privately = (handle: InteractionHandle) => ((handle.responses[0]?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const apiCalls = (from: number) => h.sandbox.requests.slice(from).filter((r) => r.endpoint !== undefined);

interface PostedVoiceMessage {
  posted: SentChannelMessage;
  ogg: Buffer;
  durationSecs: number;
  waveform: number[];
  heard: HeardVoiceMessage;
}

/** The voice messages posted in a channel since `from` (an index into the channel's messages). */
function voiceMessagesSince(channelId: string, from: number): SentChannelMessage[] {
  return h.discord.channelMessages(channelId).slice(from).filter((m) => ((Number(m.message.flags) || 0) & MessageFlags.IsVoiceMessage) !== 0);
}

/** Runs a command that should answer with a voice message in the guild's channel; returns it, heard, and the reply. */
async function voiceMessageFrom(input: CommandInput, channelId: string): Promise<{ reply: InteractionResponse; handle: InteractionHandle; message: PostedVoiceMessage }> {
  const from = h.discord.channelMessages(channelId).length;
  const { handle } = await runCommand(h, input);
  const reply = await handle.waitForFinal(20_000);
  const [posted, ...more] = voiceMessagesSince(channelId, from);
  if (!posted) throw new Error(`no voice message posted; the reply said: ${reply.content ?? ''}`);
  expect(more).toHaveLength(0);
  const raw = JSON.parse(JSON.stringify(posted.raw)) as { content?: string; attachments?: Array<{ duration_secs?: number; waveform?: string }> };
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
      posted,
      ogg: file.data,
      durationSecs: meta.duration_secs ?? Number.NaN,
      waveform: [...Buffer.from(meta.waveform ?? '', 'base64')],
      heard: await hearVoiceMessage(file.data),
    },
  };
}

/** The waveform a player would draw from the decoded audio (the scale of src/audio/waveform.ts). */
function levelsOf(heard: HeardVoiceMessage): number[] {
  const pcm = Int16Array.from(heard.samples, (s) => Math.round(s * 32767));
  return [...waveformValues(pcm, RATE)];
}

describe('output: voice-message', () => {
  it('posts one voice message heard at the voice\'s pitch and length, with its duration and a waveform that follows the audio', async () => {
    const text = 'A voice message for the channel.';
    const voice = 'voice-b-en-m-02';
    const before = h.sandbox.requests.length;
    const { reply, handle, message } = await voiceMessageFrom({ guildId: london.id, userId: BOB, name: 'say', options: { text, voice, output: 'voice-message' } }, london.textChannelId);

    // Told privately, in the member's language.
    expect(privately(handle)).toBe(true);
    expect(reply.content).toContain(t('ja', 'voiceMessage.posted', { voice: `\`${voice}\``, seconds: message.durationSecs.toFixed(1) }).slice(0, 12));
    expect(reply.files).toHaveLength(0);
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
    message.waveform.forEach((value, i) => expect(Math.abs(value - (levels[i] ?? -99)), `bucket ${i}`).toBeLessThanOrEqual(2));
    // A steady tone at 0.4 of full scale (about -11 dB RMS): loud bars, not the floor.
    expect(message.waveform.slice(1, -1).every((v) => v > 180)).toBe(true);
  });

  it('joins a text of two parts into one voice message', async () => {
    const parts = ['The first part of a longer reply is here.', 'And then the second part follows it closely.'];
    const before = h.sandbox.requests.length;
    const { message } = await voiceMessageFrom({ guildId: london.id, userId: BOB, name: 'say', options: { text: parts.join(' '), voice: 'voice-b-en-f-01', output: 'voice-message' } }, london.textChannelId);
    const sent = apiCalls(before);
    expect(sent.map((r) => r.text)).toEqual(parts);
    const expected = parts.reduce((sum, p) => sum + h.sandbox.expectedDurationSeconds(p), 0);
    expect(message.durationSecs).toBeGreaterThan(expected - 2 * PART_SHORTFALL);
    expect(message.durationSecs).toBeLessThanOrEqual(expected + 0.001);
    expect(Math.abs(audibleEndSeconds(message.heard.samples) - message.durationSecs)).toBeLessThan(0.02);
    expect(Math.abs((message.heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-f-01') ?? -1))).toBeLessThan(4);
  });

  it('posts the same Ogg again from the cache, with no API call', async () => {
    const input: CommandInput = { guildId: seoul.id, userId: OUTSIDE, name: 'say', options: { text: '캐시에서 다시 보내는 음성 메시지.', output: 'voice-message' } };
    const first = await voiceMessageFrom(input, seoul.textChannelId);
    const before = h.sandbox.requests.length;
    const second = await voiceMessageFrom(input, seoul.textChannelId);
    expect(apiCalls(before)).toHaveLength(0);
    expect(second.message.ogg.equals(first.message.ogg)).toBe(true);
    expect(second.message.durationSecs).toBe(first.message.durationSecs);
    expect(second.message.waveform).toEqual(first.message.waveform);
    expect(second.reply.content).toContain('음성 메시지');
  });

  it('falls back to the same audio as a file, and says why, where the bot may not send voice messages', async () => {
    h.discord.setBotPermissions(london.id, DEFAULT_PERMISSIONS);
    const from = h.discord.channelMessages(london.textChannelId).length;
    const text = 'No voice messages allowed in here.';
    const { handle } = await runCommand(h, { guildId: london.id, userId: BOB, name: 'say', options: { text, voice: 'voice-b-en-m-01', output: 'voice-message' } });
    const reply = await handle.waitForFinal(20_000);
    expect(h.discord.channelMessages(london.textChannelId).slice(from)).toHaveLength(0);
    expect(privately(handle)).toBe(true);
    // The member's language (Japanese), naming the permission; the file is the voice message's Ogg.
    const mark = '\u0000';
    const [why = ''] = t('ja', 'voiceMessage.fallback.no-permission', { voice: mark, seconds: mark, format: mark }).split(mark);
    expect(why.length).toBeGreaterThan(10);
    expect(reply.content?.startsWith(why)).toBe(true);
    expect(reply.content).toContain('ogg');
    expect(reply.files).toHaveLength(1);
    const heard = await hearVoiceMessage(reply.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz('voice-b-en-m-01') ?? -1))).toBeLessThan(4);
    expect(heard.declaredSeconds).toBeGreaterThan(h.sandbox.expectedDurationSeconds(text) - PART_SHORTFALL);
    // One structured line for the operator.
    const lines = h.logs().split('\n').filter((l) => l.includes('"voice-message-fallback"'));
    expect(lines.some((l) => l.includes('"reason":"no-permission"'))).toBe(true);
  });
});

describe('/emote and /clone with output: voice-message', () => {
  it('/emote posts a voice message at the emotion voice\'s pitch, louder for a stronger emotion', async () => {
    const text = 'So very excited about this!';
    const calm = await voiceMessageFrom({ guildId: london.id, userId: BOB, name: 'emote', options: { text, exaggeration: 0.1, output: 'voice-message' } }, london.textChannelId);
    const loud = await voiceMessageFrom({ guildId: london.id, userId: BOB, name: 'emote', options: { text, exaggeration: numberValue(1), output: 'voice-message' } }, london.textChannelId);
    for (const { message } of [calm, loud]) {
      expect(Math.abs((message.heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz('voice-b-ko-f-01') ?? -1))).toBeLessThan(4);
    }
    const middle = (bars: number[]) => bars.slice(1, -1);
    // Every bar of the stronger emotion is above every bar of the calm one: the waveform follows the loudness.
    expect(Math.min(...middle(loud.message.waveform))).toBeGreaterThan(Math.max(...middle(calm.message.waveform)) + 10);
  });

  it('/clone speaks its first line as a voice message in the new voice', async () => {
    const clip = readFileSync(new URL('../fixtures/audio/tone-220hz-5s-48k.wav', import.meta.url));
    const from = h.discord.channelMessages(london.textChannelId).length;
    const { handle } = await runCommand(h, {
      guildId: london.id, userId: CAROL, name: 'clone',
      options: { text: 'Hello, this is my cloned voice.', name: 'Carol', consent: true, output: 'voice-message' },
      attachments: [{ option: 'audio', data: clip, filename: 'carol.wav', contentType: 'audio/wav' }],
    });
    const reply = await handle.waitFor((r) => /voice message/.test(r.content ?? ''), 20_000);
    expect(reply.content).toContain('Carol');
    const [posted] = voiceMessagesSince(london.textChannelId, from);
    const heard = await hearVoiceMessage(posted?.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - 220)).toBeLessThan(4);
  });
});

describe('the outside-voice defaults (/output)', () => {
  /** Where a /say by this member went: 'voice-message', 'file' or 'voice'. */
  async function whereSayGoes(userId: string, text: string, output?: string): Promise<string> {
    const from = h.discord.channelMessages(london.textChannelId).length;
    const { handle } = await runCommand(h, { guildId: london.id, userId, name: 'say', options: { text, voice: 'voice-b-en-m-01', ...(output ? { output } : {}) } });
    const reply = await handle.waitFor((r) => r.kind !== 'delete' && r.content !== undefined && !/Speaking|Queued/.test(r.content), 20_000);
    if (voiceMessagesSince(london.textChannelId, from).length > 0) return 'voice-message';
    if (reply.files.length > 0) return 'file';
    return /Spoke/.test(reply.content ?? '') ? 'voice' : `unexpected: ${reply.content ?? ''}`;
  }

  it('applies the option over the member\'s default, over the server\'s, over a file; in voice, voice', async () => {
    try {
      // Built-in: a file outside voice, voice inside.
      expect(await whereSayGoes(BOB, 'Built in.')).toBe('file');
      expect(await whereSayGoes(ALICE, 'In the room.')).toBe('voice');

      // Only Manage Server sets the server's default.
      const refused = await runCommand(h, { guildId: london.id, userId: BOB, name: 'output', subcommand: 'server', options: { outside_voice: 'voice-message' } });
      expect(refused.content).toBe(t('ja', 'error.permission.manageServer'));
      const set = await runCommand(h, { guildId: london.id, userId: CAROL, name: 'output', subcommand: 'server', options: { outside_voice: 'voice-message' } });
      expect(set.content).toBe(t('en-US', 'output.server.set', { output: t('en-US', 'choice.output.voice-message') }));
      expect(await whereSayGoes(BOB, 'Server default.')).toBe('voice-message');

      // The member's own default comes before the server's, for them only.
      await runCommand(h, { guildId: london.id, userId: BOB, name: 'output', subcommand: 'me', options: { outside_voice: 'file' } });
      expect(await whereSayGoes(BOB, 'My own default.')).toBe('file');
      expect(await whereSayGoes(CAROL, 'Still the server default.')).toBe('voice-message');
      const shown = await runCommand(h, { guildId: london.id, userId: BOB, name: 'output', subcommand: 'show' });
      expect(shown.content).toBe(t('ja', 'output.show', {
        output: t('ja', 'choice.output.file'), why: t('ja', 'output.why.member'),
        server: t('ja', 'choice.output.voice-message'), member: t('ja', 'choice.output.file'),
      }));

      // The command's option comes before both.
      expect(await whereSayGoes(BOB, 'Asked for it.', 'voice-message')).toBe('voice-message');
      expect(await whereSayGoes(CAROL, 'Asked for a file.', 'file')).toBe('file');

      // In voice, voice: the defaults are for members outside it.
      await runCommand(h, { guildId: london.id, userId: ALICE, name: 'output', subcommand: 'me', options: { outside_voice: 'voice-message' } });
      expect(await whereSayGoes(ALICE, 'Still in the room.')).toBe('voice');

      // Reset: the member follows the server again; the server's reset brings back the file.
      const reset = await runCommand(h, { guildId: london.id, userId: BOB, name: 'output', subcommand: 'me', options: { outside_voice: 'reset' } });
      expect(reset.content).toBe(t('ja', 'output.me.reset', { output: t('ja', 'choice.output.voice-message') }));
      expect(await whereSayGoes(BOB, 'Following the server.')).toBe('voice-message');
      await runCommand(h, { guildId: london.id, userId: CAROL, name: 'output', subcommand: 'server', options: { outside_voice: 'reset' } });
      expect(await whereSayGoes(BOB, 'Back to files.')).toBe('file');
    } finally {
      // Whatever failed above, the other tests find no defaults set.
      await runCommand(h, { guildId: london.id, userId: CAROL, name: 'output', subcommand: 'server', options: { outside_voice: 'reset' } });
      for (const member of [BOB, ALICE, CAROL]) await runCommand(h, { guildId: london.id, userId: member, name: 'output', subcommand: 'me', options: { outside_voice: 'reset' } });
    }
  });
});
