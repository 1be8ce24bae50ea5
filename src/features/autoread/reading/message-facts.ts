// A discord.js Message as the plain facts the reader decides on (decide.ts); a forward speaks its snapshot's text.
import { MessageFlags, MessageReferenceType, type GuildMember, type Message, type MessageMentions } from 'discord.js';
import type { MessageContent, MessageFacts } from './decide.ts';

type MessageParts = Pick<Message, 'content' | 'attachments' | 'stickers'> & { mentions: MessageMentions };

/** A message's own text (a forward's snapshot's) and what clean-up reads: mention names, files, stickers, reply. */
export function messageContent(message: Message): MessageContent {
  const forwarded = message.reference?.type === MessageReferenceType.Forward;
  const snapshot = forwarded ? message.messageSnapshots.first() : undefined;
  const source: MessageParts = snapshot ?? message;
  const guild = message.guild;

  const users: Record<string, string> = {};
  for (const [id, user] of source.mentions.users)
    users[id] = source.mentions.members?.get(id)?.displayName ?? user.displayName;
  const roles: Record<string, string> = {};
  for (const [id, role] of source.mentions.roles) roles[id] = role.name;
  const channels: Record<string, string> = {};
  for (const [id, channel] of source.mentions.channels)
    if ('name' in channel && channel.name) channels[id] = channel.name;
  // Mentions the message data does not resolve (a suppressed ping, a snapshot's): the guild's caches may know them.
  for (const [, kind, id] of source.content.matchAll(/<(@!?|@&|#)(\d+)>/g)) {
    if (id === undefined) continue;
    if (kind === '@&') roles[id] ??= guild?.roles.cache.get(id)?.name ?? '';
    else if (kind === '#') channels[id] ??= guild?.channels.cache.get(id)?.name ?? '';
    else users[id] ??= guild?.members.cache.get(id)?.displayName ?? '';
  }
  const known = (names: Record<string, string>) =>
    Object.fromEntries(Object.entries(names).filter(([, name]) => name !== ''));

  const replied = !forwarded && message.reference ? message.mentions.repliedUser : null;
  const replyTo = replied ? (guild?.members.cache.get(replied.id)?.displayName ?? replied.displayName) : undefined;
  return {
    content: source.content,
    cleanup: {
      users: known(users),
      roles: known(roles),
      channels: known(channels),
      attachments: source.attachments.map((a) => ({
        filename: a.name,
        ...(a.contentType ? { contentType: a.contentType } : {}),
      })),
      stickerNames: source.stickers.map((s) => s.name),
      replyTo,
      ...(forwarded ? { forwarded: true } : {}),
    },
  };
}

/** A message's facts; with `readInto` and `barred`, whether its author may speak in that voice channel. */
export function messageFacts(
  message: Message<true>,
  readInto?: string,
  barred?: (member: GuildMember, voiceChannelId: string) => boolean,
): MessageFacts {
  const guild = message.guild;
  const webhook = message.webhookId !== null;
  const member = webhook ? null : message.member;
  return {
    guildId: message.guildId,
    channelId: message.channelId,
    authorId: message.author.id,
    authorName: member?.displayName ?? message.author.displayName,
    bot: message.author.bot && !webhook,
    webhook,
    self: message.author.id === message.client.user.id,
    system: message.system,
    silent: message.flags.has(MessageFlags.SuppressNotifications),
    roleIds: member ? [...member.roles.cache.keys()] : [],
    voiceChannelId: member?.voice.channelId ?? guild.voiceStates.cache.get(message.author.id)?.channelId ?? null,
    at: message.createdTimestamp,
    ...(member && readInto !== undefined && barred ? { mayNotSpeak: barred(member, readInto) } : {}),
    ...messageContent(message),
  };
}
