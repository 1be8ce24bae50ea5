// The gate's part for auto-read (gate.ts is the rest): the rights a channel read aloud needs. Reading is an effect
// of its own: SayBot sees the text channel's messages, posts its one notice of a refusal there and reads back in it
// (View Channel, Send Messages, Read Message History), and speaks in the voice channel (Connect, Speak); the member
// who starts it must be able to read that channel themselves (View Channel, Read Message History). /autoread start
// asks both; reading that comes back by itself (a restart, an auto-join, a manager's /join) asks SayBot's again,
// since a moderator may have taken one away meanwhile: SayBot then pauses rather than read a channel it may no
// longer see or join one where it may not speak.
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

export function missingReadingRight(
  guild: Guild,
  binding: { textChannelId: string; voiceChannelId: string },
): MissingReadingRight | undefined {
  if (!has(guild, guild.channels.cache.get(binding.textChannelId), TEXT_RIGHTS)) return 'text';
  if (!has(guild, guild.channels.cache.get(binding.voiceChannelId), VOICE_RIGHTS)) return 'voice';
  return undefined;
}

/**
 * Who may not read `channel` aloud at /autoread start: `member` (SayBot reads aloud only what the member could read
 * there themselves), `bot` (without View Channel no message arrives; without Send Messages a refusal's one notice
 * cannot be posted); undefined when both may.
 */
export function mayNotReadAloud(channel: GuildBasedChannel, member: GuildMember): 'member' | 'bot' | undefined {
  if (!channel.permissionsFor(member).has(MEMBER_READS)) return 'member';
  if (!has(channel.guild, channel, NOTICE_RIGHTS)) return 'bot';
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
    if (channel?.isSendable() && has(guild, channel, NOTICE_RIGHTS)) return channel;
  }
  return undefined;
}
