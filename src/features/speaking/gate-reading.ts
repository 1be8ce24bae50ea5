// The gate's part for auto-read: SayBot sees, notices and reads back in the text channel (View Channel, Send
// Messages, Read Message History) and speaks in voice (Connect, Speak); the starter must read the channel themselves.
// Reading that resumes by itself asks SayBot's again, pausing where a right was taken away meanwhile.
import {
  PermissionFlagsBits,
  type Guild,
  type GuildBasedChannel,
  type GuildMember,
  type SendableChannels,
} from 'discord.js';

/** Reading the text channel: seeing its messages, posting the one notice of a refusal, reading back in it. */
const TEXT_RIGHTS = [
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.ReadMessageHistory,
];
/** Speaking in the voice channel. */
const VOICE_RIGHTS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.Connect, PermissionFlagsBits.Speak];
/** What the member who starts reading must be able to do in the channel read. */
const MEMBER_READS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ReadMessageHistory];
/** What SayBot needs at the least to read a channel: its messages arrive, and a refusal's notice can be posted. */
const NOTICE_RIGHTS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages];

/** Which of the two channels SayBot lacks a right in (the text channel first); undefined when it has them all. */
export type MissingReadingRight = 'text' | 'voice';

const has = (guild: Guild, channel: GuildBasedChannel | undefined, rights: readonly bigint[]): boolean => {
  const me = guild.members.me;
  // Without its own member cached there is nothing to judge by: the join or the post will say.
  if (me === null) return true;
  return channel !== undefined && channel.permissionsFor(me).has([...rights]);
};

/** The text channel as the main bot sees it (it reads chat); the voice channel as `seatGuild`'s bot does (it speaks). */
export function missingReadingRight(
  guild: Guild,
  binding: { textChannelId: string; voiceChannelId: string },
  seatGuild: Guild = guild,
): MissingReadingRight | undefined {
  if (!has(guild, guild.channels.cache.get(binding.textChannelId), TEXT_RIGHTS)) return 'text';
  if (!has(seatGuild, seatGuild.channels.cache.get(binding.voiceChannelId), VOICE_RIGHTS)) return 'voice';
  return undefined;
}

/** Who may not read `channel` aloud at /autoread start: `member` (only what they could read), `bot`; else undefined. */
export function mayNotReadAloud(channel: GuildBasedChannel, member: GuildMember): 'member' | 'bot' | undefined {
  if (!channel.permissionsFor(member).has(MEMBER_READS)) return 'member';
  if (!has(channel.guild, channel, NOTICE_RIGHTS)) return 'bot';
  return undefined;
}

/** Where the notice can go: the channel read, else the voice channel's chat; undefined when neither. */
export function noticeChannel(
  guild: Guild,
  binding: { textChannelId: string; voiceChannelId: string },
): SendableChannels | undefined {
  for (const id of [binding.textChannelId, binding.voiceChannelId]) {
    const channel = guild.channels.cache.get(id);
    if (channel?.isSendable() && has(guild, channel, NOTICE_RIGHTS)) return channel;
  }
  return undefined;
}
