// The "Speak" message context menu (issue 15): the text to speak for the message a member picked, cleaned as
// auto-read cleans a chat message (src/text/cleanup.ts: mentions by name, URLs as "link", emoji and markdown
// gone), then the server's pronunciation dictionary. The menu's command data, routing and the speaking itself
// (voice channel or voice message) are the front-end's; this is the part that decides what is said.
//
// A message context menu gets the message in the interaction's resolved data, content included: Discord sends it
// without the privileged Message Content intent, since the member chose the message.
import { MessageReferenceType, type Message, type MessageMentions } from 'discord.js';
import { cleanMessage, DEFAULT_MAX_LENGTH, type CleanupContext } from '../text/cleanup.ts';
import { applyDictionary, type DictionaryEntry } from '../text/dictionary.ts';

/**
 * What the menu needs of a message, as plain data (every case is a table row; a discord.js Message adapts below):
 * its text, and the facts clean-up reads (mentioned names by ID, files, stickers, reply, forward).
 */
export interface SpeakableMessage extends Pick<CleanupContext, 'users' | 'roles' | 'channels' | 'attachments' | 'stickerNames' | 'replyTo' | 'forwarded'> {
  /** A forwarded message's own text (its snapshot's), not the empty content of the forward. */
  content: string;
}

export interface SpeakOptions {
  /** The server's language (Discord locale or language code): the words said for links, files, "and so on". */
  language?: string;
  /** Characters of the message's own text that are spoken: auto-read's setting, default 200 as there. */
  maxLength?: number;
  /** The server's pronunciation dictionary, applied after clean-up, as auto-read does. */
  dictionary?: readonly DictionaryEntry[];
}

/** The text to speak; empty when nothing in the message can be spoken (the front-end says so instead). */
export function speakMessageText(message: SpeakableMessage, options: SpeakOptions = {}): string {
  const { content, ...facts } = message;
  const context: CleanupContext = {
    ...facts,
    maxLength: options.maxLength ?? DEFAULT_MAX_LENGTH,
    ...(options.language === undefined ? {} : { language: options.language }),
  };
  const cleaned = cleanMessage(content, context);
  return cleaned === '' || !options.dictionary?.length ? cleaned : applyDictionary(cleaned, options.dictionary);
}

type MessageParts = Pick<Message, 'content' | 'attachments' | 'stickers'> & { mentions: MessageMentions };

/**
 * A discord.js Message (the context menu's `targetMessage`) as plain data: names for its mentions from the message's
 * own mention data, then the guild's caches; a forwarded message's snapshot in place of its empty content.
 */
export function speakableMessage(message: Message): SpeakableMessage {
  const forwarded = message.reference?.type === MessageReferenceType.Forward;
  const snapshot = forwarded ? message.messageSnapshots.first() : undefined;
  const source: MessageParts = snapshot ?? message;
  const guild = message.guild;

  const users: Record<string, string> = {};
  for (const [id, user] of source.mentions.users) users[id] = source.mentions.members?.get(id)?.displayName ?? user.displayName;
  const roles: Record<string, string> = {};
  for (const [id, role] of source.mentions.roles) roles[id] = role.name;
  const channels: Record<string, string> = {};
  for (const [id, channel] of source.mentions.channels) if ('name' in channel && channel.name) channels[id] = channel.name;
  // Mentions the message data does not resolve (suppressed pings, a snapshot's): the guild's caches may know them.
  for (const [, kind, id] of source.content.matchAll(/<(@!?|@&|#)(\d+)>/g)) {
    if (id === undefined) continue;
    if (kind === '@&') roles[id] ??= guild?.roles.cache.get(id)?.name ?? '';
    else if (kind === '#') channels[id] ??= guild?.channels.cache.get(id)?.name ?? '';
    else users[id] ??= guild?.members.cache.get(id)?.displayName ?? '';
  }
  const known = (names: Record<string, string>) => Object.fromEntries(Object.entries(names).filter(([, name]) => name !== ''));

  const replied = !forwarded && message.reference ? message.mentions.repliedUser : null;
  const replyTo = replied ? guild?.members.cache.get(replied.id)?.displayName ?? replied.displayName : undefined;
  return {
    content: source.content,
    users: known(users),
    roles: known(roles),
    channels: known(channels),
    attachments: source.attachments.map((a) => ({ filename: a.name, ...(a.contentType ? { contentType: a.contentType } : {}) })),
    stickerNames: source.stickers.map((s) => s.name),
    ...(replyTo === undefined ? {} : { replyTo }),
    ...(forwarded ? { forwarded: true } : {}),
  };
}
