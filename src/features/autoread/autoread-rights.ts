// SayBot's own rights where auto-read reads and speaks. /autoread start checks them once; reading that comes back by
// itself (a restart, an auto-join, a manager's /join) checks them again, since a moderator may have taken one away
// meanwhile: SayBot then pauses rather than read a channel it may no longer see or join one where it may not speak.
import { PermissionFlagsBits, type Guild, type GuildBasedChannel, type SendableChannels } from 'discord.js';

/** Reading the text channel: seeing its messages, posting the one notice of a refusal, reading back in it. */
const TEXT_RIGHTS = [
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.ReadMessageHistory,
];
/** Speaking in the voice channel. */
const VOICE_RIGHTS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.Connect, PermissionFlagsBits.Speak];

/** Which of the two channels SayBot lacks a right in (the text channel first); undefined when it has them all. */
export type MissingReadingRight = 'text' | 'voice';

const has = (guild: Guild, channel: GuildBasedChannel | undefined, rights: readonly bigint[]): boolean => {
  const me = guild.members.me;
  // Without its own member cached there is nothing to judge by: the join or the post will say.
  if (me === null) return true;
  return channel !== undefined && channel.permissionsFor(me).has([...rights]);
};

export function missingReadingRight(
  guild: Guild,
  binding: { textChannelId: string; voiceChannelId: string },
): MissingReadingRight | undefined {
  if (!has(guild, guild.channels.cache.get(binding.textChannelId), TEXT_RIGHTS)) return 'text';
  if (!has(guild, guild.channels.cache.get(binding.voiceChannelId), VOICE_RIGHTS)) return 'voice';
  return undefined;
}

/**
 * Where the notice can go: the channel read, else the voice channel's own chat; undefined when SayBot may post in
 * neither.
 */
export function noticeChannel(
  guild: Guild,
  binding: { textChannelId: string; voiceChannelId: string },
): SendableChannels | undefined {
  for (const id of [binding.textChannelId, binding.voiceChannelId]) {
    const channel = guild.channels.cache.get(id);
    if (
      channel?.isSendable() &&
      has(guild, channel, [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages])
    )
      return channel;
  }
  return undefined;
}
