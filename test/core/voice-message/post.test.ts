// Posting voice messages through discord.js to the local Discord, which checks them as Discord does (flag, one
// audio attachment, no content, duration_secs and waveform, a playable Ogg Opus): what it accepted is decoded
// from the uploaded bytes; what it refused comes back as the reason the member is told.
import { DiscordAPIError, PermissionFlagsBits, type Client, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMonoOpus } from '../../support/mono-opus.ts';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';
import { silentLogger } from '../../../src/core/log.ts';
import {
  postVoiceMessage,
  voiceMessagePlace,
  voiceMessageRefusal,
  VOICE_MESSAGE_FILENAME,
  type VoiceMessagePlace,
} from '../../../src/features/speaking/voice-message-post.ts';
import { renderVoiceMessage, type VoiceMessage } from '../../../src/core/voice-message/render.ts';
import { FakeDiscord } from '@saybot/local-discord';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord/state.ts';
import { APP_ID, TOKEN, guildSpec, loginClient } from '../../packages/local-discord/helpers.ts';
import { hearVoiceMessage } from './helpers.ts';

const ALLOWED = guildSpec(1); // the bot may send voice messages
const DENIED = guildSpec(2); // Discord's defaults without Send Voice Messages

let fake: FakeDiscord;
let client: Client;
let message: VoiceMessage;

beforeAll(async () => {
  fake = await FakeDiscord.start({
    token: TOKEN,
    applicationId: APP_ID,
    log: () => undefined,
    guilds: [{ ...ALLOWED, botPermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages }, DENIED],
  });
  client = await loginClient(fake);
  message = await renderVoiceMessage([
    encodeMonoOpus(toneSamples({ pitchHz: 250, seconds: 1.5, amplitude: 0.5, sampleRate: 48000 })).packets,
  ]);
});
afterAll(async () => {
  await client.destroy();
  await fake.close();
});

/** A channel as an interaction shows it: the channel and the bot's permissions there, as Discord resolved them. */
function placeIn(spec: typeof ALLOWED): VoiceMessagePlace & { channel: TextChannel } {
  const channel = client.channels.cache.get(spec.textChannelId) as TextChannel;
  const me = channel.guild.members.me;
  if (!me) throw new Error('the bot is not a member of its guild');
  return {
    ...voiceMessagePlace({
      channel,
      appPermissions: channel.permissionsFor(me),
      attachmentSizeLimit: 10 * 1024 * 1024,
    }),
    channel,
  };
}

describe('postVoiceMessage', () => {
  it('posts a voice message the local Discord accepts, and what was uploaded is heard', async () => {
    const result = await postVoiceMessage(placeIn(ALLOWED), message, silentLogger);
    expect(result.kind).toBe('posted');
    const sent = fake.channelMessages(ALLOWED.textChannelId).at(-1);
    expect(sent?.message.flags).toBe(8192);
    expect(sent?.message.content).toBe('');
    expect(sent?.files).toHaveLength(1);
    const file = sent?.files[0];
    expect(file?.name).toBe(VOICE_MESSAGE_FILENAME);
    expect(file?.contentType).toMatch(/^audio\//);
    expect(sent?.raw).toMatchObject({
      attachments: [{ duration_secs: message.durationSecs, waveform: message.waveform }],
      allowed_mentions: { parse: [] },
    });

    const heard = await hearVoiceMessage(file?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - 250)).toBeLessThan(3);
    expect(Math.abs(heard.seconds - 1.5)).toBeLessThan(0.02);
  });

  it('falls back to a file when the bot may not send voice messages here, without asking Discord', async () => {
    const before = fake.channelMessages().length;
    const place = placeIn(DENIED);
    expect(place.permissions?.has(PermissionFlagsBits.SendMessages)).toBe(true);
    expect(await postVoiceMessage(place, message, silentLogger)).toEqual({ kind: 'fallback', reason: 'no-permission' });
    expect(fake.channelMessages()).toHaveLength(before);
  });

  it("falls back with Discord's 50173 when the bot was allowed by the interaction but not when it posts", async () => {
    const before = fake.channelMessages().length;
    // Permissions as an interaction said them a moment before a server admin took Send Voice Messages away.
    const place = { ...placeIn(DENIED), permissions: placeIn(ALLOWED).permissions };
    expect(await postVoiceMessage(place, message, silentLogger)).toEqual({
      kind: 'fallback',
      reason: 'not-allowed-here',
      code: 50173,
    });
    expect(fake.channelMessages()).toHaveLength(before);
  });

  it('falls back when the channel cannot be seen, or the file is over its upload limit', async () => {
    const before = fake.channelMessages().length;
    expect(await postVoiceMessage({ channel: null, permissions: null }, message, silentLogger)).toEqual({
      kind: 'fallback',
      reason: 'no-permission',
    });
    expect(
      await postVoiceMessage({ ...placeIn(ALLOWED), sizeLimit: message.ogg.length - 1 }, message, silentLogger),
    ).toEqual({ kind: 'fallback', reason: 'too-large' });
    expect(fake.channelMessages()).toHaveLength(before);
  });

  it.each([
    ['metadata Discord refuses (an empty waveform)', (m: VoiceMessage) => ({ ...m, waveform: '' }), 50161],
    [
      'a file Discord cannot play',
      (m: VoiceMessage) => ({ ...m, ogg: Buffer.concat([m.ogg.subarray(0, 200), Buffer.alloc(50, 7)]) }),
      50035,
    ],
  ])('gives the reason "refused" for %s', async (_name, spoil, code) => {
    const before = fake.channelMessages().length;
    const logged: unknown[] = [];
    const log = { ...silentLogger, error: (fields: unknown) => logged.push(fields) } as unknown as typeof silentLogger;
    expect(await postVoiceMessage(placeIn(ALLOWED), spoil(message), log)).toEqual({
      kind: 'fallback',
      reason: 'refused',
      code,
    });
    expect(fake.channelMessages()).toHaveLength(before);
    expect(logged).toMatchObject([{ code: 'voice-message-fallback', reason: 'refused', discordCode: code }]);
  });
});

describe('voiceMessageRefusal', () => {
  const refusal = (code: number, status = 400, errors?: object) =>
    new DiscordAPIError(
      { code, message: 'refused', ...(errors === undefined ? {} : { errors: errors as Record<string, never> }) },
      code,
      status,
      'POST',
      '/channels/1/messages',
      {},
    );

  it.each([
    [50013, 'no-permission'],
    [50001, 'no-permission'],
    [50173, 'not-allowed-here'],
    [40005, 'too-large'],
    [50159, 'refused'],
    [50160, 'refused'],
    [50161, 'refused'],
    [50162, 'refused'],
  ] as const)('maps Discord code %i to %s', (code, reason) => {
    expect(voiceMessageRefusal(refusal(code))).toEqual({ reason, code });
  });

  it('maps an invalid form body only when it is about the attachment', () => {
    expect(voiceMessageRefusal(refusal(50035, 400, { attachments: { _errors: [{ code: 'AUDIO_INVALID' }] } }))).toEqual(
      { reason: 'refused', code: 50035 },
    );
    expect(voiceMessageRefusal(refusal(50035, 400, { content: { _errors: [] } }))).toBeUndefined();
  });

  it('leaves other failures alone', () => {
    expect(voiceMessageRefusal(refusal(10003, 404))).toBeUndefined();
    expect(voiceMessageRefusal(new Error('socket hang up'))).toBeUndefined();
  });
});
