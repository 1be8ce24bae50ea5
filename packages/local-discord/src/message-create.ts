// MESSAGE_CREATE as Discord sends it to a bot: only with the GuildMessages intent, and with content, embeds,
// attachments, components and poll emptied unless the bot has the privileged MessageContent intent (Discord keeps
// them for messages that mention the bot and for the bot's own messages). The 4014 close for a privileged intent
// the application lacks is in gateway.ts's IDENTIFY already.
import type { Gateway } from './gateway.ts';
import type { ChatMessage } from './types.ts';
import { GatewayIntent } from './state.ts';

export const GUILD_MESSAGES_INTENT = 1 << 9;

export type { ChatAuthor, ChatMessage } from './types.ts';

/** The dispatch payload the connection with `intents` receives for `message`. */
export function messageCreatePayload(message: ChatMessage, intents: number, botId: string): Record<string, unknown> {
  const mentions = message.mentions ?? [];
  const readable =
    (intents & GatewayIntent.MessageContent) !== 0 ||
    message.author.id === botId ||
    mentions.some((user) => user.id === botId);
  return {
    id: message.id,
    channel_id: message.channelId,
    guild_id: message.guildId,
    author: { global_name: null, bot: false, discriminator: '0', avatar: null, ...message.author },
    ...(message.member
      ? { member: { nick: null, joined_at: new Date(0).toISOString(), deaf: false, mute: false, ...message.member } }
      : {}),
    content: readable ? message.content : '',
    embeds: readable ? (message.embeds ?? []) : [],
    attachments: readable ? (message.attachments ?? []) : [],
    components: [],
    sticker_items: message.stickers ?? [],
    mentions: mentions.map((user) => ({ global_name: null, bot: false, ...user })),
    mention_roles: message.mentionRoles ?? [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    type: message.reference ? 19 : 0,
    flags: message.flags ?? 0,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    ...(message.webhookId !== undefined ? { webhook_id: message.webhookId } : {}),
    ...(message.reference ? { message_reference: message.reference } : {}),
  };
}

/**
 * Posts `message` to every bot's session for its guild, each as its intents let it see it; false when no session
 * has the GuildMessages intent.
 */
export function dispatchMessageCreate(gateway: Gateway, message: ChatMessage): boolean {
  return gateway.dispatchToGuild(
    message.guildId,
    'MESSAGE_CREATE',
    (session) => messageCreatePayload(message, session.intents, session.application.user.id),
    GUILD_MESSAGES_INTENT,
  );
}

/**
 * The message as a message context menu's interaction carries it in `data.resolved.messages`: content, attachments
 * and embeds always (the member chose the message, so no Message Content intent is needed), and, as Discord sends
 * it there, no guild_id or member.
 */
export function resolvedMessagePayload(message: ChatMessage): Record<string, unknown> {
  const {
    guild_id: _guildId,
    member: _member,
    ...payload
  } = messageCreatePayload(message, GatewayIntent.MessageContent, '');
  return payload;
}
