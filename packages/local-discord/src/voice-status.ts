// A voice channel's status, as Discord documents it (discord-api-docs #6400): PUT /channels/{channel.id}/voice-status
// with { status } (0-500 characters; empty or null clears it), 204 No Content. The sender needs Set Voice Channel
// Status (1 << 48) in the channel and to be connected there, unless it has Manage Channels. Discord clears a status
// when its channel empties (GuildRecord.setVoiceState).
import { PermissionFlagsBits } from 'discord.js';
import type { Answer } from './interactions.ts';
import { apiError, asObject, type ApiError } from './messages.ts';
import type { GuildRecord } from './state.ts';

export const VOICE_STATUS_MAX_LENGTH = 500;

function fail(error: ApiError): Answer {
  return { status: error.status, json: error.body };
}

/** Sets (or clears) `channelId`'s status for `senderId`, or Discord's refusal. */
export function setVoiceStatus(guild: GuildRecord, channelId: string, senderId: string, json: unknown): Answer {
  const channel = guild.voiceChannel(channelId);
  if (!channel) return fail(apiError(400, 50024, 'Cannot execute action on this channel type'));
  const permissions = guild.permissionsIn(senderId, channelId);
  if ((permissions & PermissionFlagsBits.ViewChannel) === 0n) return fail(apiError(403, 50001, 'Missing Access'));
  const connected = guild.voiceStates.get(senderId)?.channelId === channelId;
  const allowed =
    (permissions & PermissionFlagsBits.ManageChannels) !== 0n ||
    (connected && (permissions & PermissionFlagsBits.SetVoiceChannelStatus) !== 0n);
  if (!allowed) return fail(apiError(403, 50013, 'Missing Permissions'));
  const status = asObject(json).status;
  if (status !== null && status !== undefined && typeof status !== 'string') {
    return fail(
      apiError(400, 50035, 'Invalid Form Body', {
        status: { _errors: [{ code: 'STRING_TYPE_CONVERT', message: 'Could not interpret as string.' }] },
      }),
    );
  }
  const text = status ?? '';
  if ([...text].length > VOICE_STATUS_MAX_LENGTH) {
    return fail(
      apiError(400, 50035, 'Invalid Form Body', {
        status: {
          _errors: [
            { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${VOICE_STATUS_MAX_LENGTH} or fewer in length.` },
          ],
        },
      }),
    );
  }
  if (text === '') guild.voiceStatuses.delete(channelId);
  else guild.voiceStatuses.set(channelId, text);
  return { status: 204 };
}
