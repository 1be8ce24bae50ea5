// Posting a Discord voice message (IS_VOICE_MESSAGE), or saying why not so the caller sends a file. Where it can, it
// is the interaction's own response (a deferral with the flag, then one edit: discord-api-docs #7158), so Discord
// shows who used the command; it cannot be edited in later (50162), so an interaction acknowledged otherwise or whose
// token is gone gets a channel message naming who asked, posted after the member's rights were checked
// (voice-message-rights.ts).
import {
  AttachmentBuilder,
  DiscordAPIError,
  MessageFlags,
  MessagePayload,
  type GuildTextBasedChannel,
  type Message,
  type MessageCreateOptions,
  type PermissionsBitField,
} from 'discord.js';
import type { Logger } from '../../core/log.ts';
import type { VoiceMessage } from '../../core/voice-message/render.ts';
import type { AnsweredInteraction } from '../../core/interactions/command.ts';
import { NO_MENTIONS } from '../../core/interactions/safe-text.ts';
import type { MemberVoiceMessageBar } from './voice-message-rights.ts';
import { botMayPostVoiceMessage } from './gate.ts';

export const VOICE_MESSAGE_FILENAME = 'voice-message.ogg';
/** Discord reads `duration_secs` and `waveform` only with an audio/ Content-Type; @discordjs/rest would say ogg. */
export const VOICE_MESSAGE_CONTENT_TYPE = 'audio/ogg';

/**
 * Why a voice message was not posted (the caller posts a file and says so): `no-permission` (app permissions, 50013,
 * 50001), `not-allowed-here` (50173), `too-large` (upload limit, 40005), `slowmode` (20016), `refused` (50159-50172,
 * or 50035 on the attachment: our fault, logged as an error); `member-no-permission` and `slowmode` also for the
 * member's own bar (voice-message-rights.ts), found before anything was paid.
 */
export type VoiceMessageFallbackReason =
  'no-permission' | 'not-allowed-here' | 'too-large' | 'refused' | MemberVoiceMessageBar;

export type VoiceMessagePostResult =
  | { kind: 'posted'; message: Message }
  | {
      kind: 'fallback';
      reason: VoiceMessageFallbackReason;
      /** Discord's JSON error code, when Discord said no. */ code?: number;
    };

/** Where the voice message goes and what is known of it before sending. */
export interface VoiceMessagePlace {
  /** The channel (a text channel, a voice channel's chat, a thread); null when the bot cannot see it. */
  channel: GuildTextBasedChannel | null;
  /** The bot's permissions in that channel: an interaction's `appPermissions`. */
  permissions: Readonly<PermissionsBitField> | null;
  /** The largest upload the channel takes, in bytes: an interaction's `attachmentSizeLimit`. */
  sizeLimit?: number;
}

/** The place of an interaction's channel, with what Discord sent about it (no API call). */
export function voiceMessagePlace(interaction: {
  channel: VoiceMessagePlace['channel'];
  appPermissions: Readonly<PermissionsBitField> | null;
  attachmentSizeLimit?: number;
}): VoiceMessagePlace {
  return {
    channel: interaction.channel,
    permissions: interaction.appPermissions,
    ...(interaction.attachmentSizeLimit === undefined ? {} : { sizeLimit: interaction.attachmentSizeLimit }),
  };
}

/** The message body: one audio attachment with duration and waveform, and the flag (Content-Type set by the poster). */
export function voiceMessagePayload(message: VoiceMessage): MessageCreateOptions {
  return {
    files: [
      new AttachmentBuilder(message.ogg, {
        name: VOICE_MESSAGE_FILENAME,
        duration: message.durationSecs,
        waveform: message.waveform,
        ...(message.description === undefined ? {} : { description: message.description }),
      }),
    ],
    flags: MessageFlags.IsVoiceMessage,
    allowedMentions: { parse: [] },
  };
}

/** Posts it in the channel, or answers why not; other failures throw. `header`: who asked, posted just before. */
export async function postVoiceMessage(
  place: VoiceMessagePlace,
  message: VoiceMessage,
  log: Logger,
  header?: string,
): Promise<VoiceMessagePostResult> {
  const channel = place.channel;
  if (channel === null || !botMayPostVoiceMessage(place.permissions, channel.isThread())) {
    log.info(
      { code: 'voice-message-fallback', reason: 'no-permission' },
      'voice message not allowed here: posting a file',
    );
    return { kind: 'fallback', reason: 'no-permission' };
  }
  const tooLarge = overLimit(message, place.sizeLimit, log);
  if (tooLarge) return tooLarge;
  let headerMessage: Message | undefined;
  try {
    if (header !== undefined) headerMessage = await channel.send({ content: header, allowedMentions: NO_MENTIONS });
    const payload = MessagePayload.create(channel, voiceMessagePayload(message));
    payload.files = [{ data: message.ogg, name: VOICE_MESSAGE_FILENAME, contentType: VOICE_MESSAGE_CONTENT_TYPE }];
    return { kind: 'posted', message: await channel.send(payload) };
  } catch (error) {
    // A name over nothing would mislead the channel.
    await headerMessage?.delete().catch(() => undefined);
    return fallbackFor(error, log);
  }
}

/** Makes it the deferred response (acknowledgeAsVoiceMessage) or answers why not (the caller then removes it). */
export async function replyWithVoiceMessage(
  interaction: AnsweredInteraction,
  message: VoiceMessage,
  log: Logger,
): Promise<VoiceMessagePostResult> {
  const tooLarge = overLimit(message, interaction.attachmentSizeLimit, log);
  if (tooLarge) return tooLarge;
  try {
    const payload = MessagePayload.create(interaction, voiceMessagePayload(message));
    payload.files = [{ data: message.ogg, name: VOICE_MESSAGE_FILENAME, contentType: VOICE_MESSAGE_CONTENT_TYPE }];
    return { kind: 'posted', message: await interaction.editReply(payload) };
  } catch (error) {
    return fallbackFor(error, log);
  }
}

function overLimit(
  message: VoiceMessage,
  sizeLimit: number | undefined,
  log: Logger,
): VoiceMessagePostResult | undefined {
  if (sizeLimit === undefined || message.ogg.length <= sizeLimit) return undefined;
  log.info(
    { code: 'voice-message-fallback', reason: 'too-large', bytes: message.ogg.length, limit: sizeLimit },
    'voice message too large: posting a file',
  );
  return { kind: 'fallback', reason: 'too-large' };
}

function fallbackFor(error: unknown, log: Logger): VoiceMessagePostResult {
  const refusal = voiceMessageRefusal(error);
  if (!refusal) throw error;
  const fields = { code: 'voice-message-fallback', reason: refusal.reason, discordCode: refusal.code, err: error };
  if (refusal.reason === 'refused') log.error(fields, 'Discord refused the voice message: posting a file');
  else log.info(fields, 'Discord did not take the voice message: posting a file');
  return { kind: 'fallback', ...refusal };
}

/** What Discord's refusal of a voice message means for the member; undefined for other failures. */
export function voiceMessageRefusal(error: unknown): { reason: VoiceMessageFallbackReason; code: number } | undefined {
  if (!(error instanceof DiscordAPIError) || typeof error.code !== 'number') return undefined;
  const code = error.code;
  const reason = REFUSALS[code];
  if (reason !== undefined) return { reason, code };
  // 50159 to 50172: the voice message's own faults; 50035 (Invalid Form Body) on its attachment.
  if (code >= 50159 && code < 50173) return { reason: 'refused', code };
  if (code === 50035 && JSON.stringify(error.rawError).includes('attachments')) return { reason: 'refused', code };
  return undefined;
}

/** Discord's JSON error codes (Opcodes and Status Codes) that say why it did not take the voice message. */
const REFUSALS: Readonly<Record<number, VoiceMessageFallbackReason>> = {
  50001: 'no-permission', // Missing Access
  50013: 'no-permission', // Missing Permissions
  20016: 'slowmode', // Slowmode rate limit
  50173: 'not-allowed-here', // Voice messages are not allowed here
  40005: 'too-large', // Request entity too large
};
