import type { ChatAuthor, ChatMessage } from '@saybot/local-discord/message-create.ts';
import type { Harness } from './harness.ts';

/** Discord's epoch: a snowflake's timestamp counts from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
let sequence = 0n;

/** A message ID whose timestamp (Discord's snowflake) is `at`: how the reader knows when a message was sent. */
export function snowflakeAt(at: number = Date.now()): string {
  sequence = (sequence + 1n) & 0xfffn;
  return (((BigInt(at) - DISCORD_EPOCH_MS) << 22n) | sequence).toString();
}

/**
 * `author` (a member with no roles) posts `content` in a text channel, as Discord's MESSAGE_CREATE, its ID sent
 * now unless `extra` gives one; resolves with whether the bot's session was sent the message.
 */
export function postChat(
  h: Harness,
  where: { guildId: string; channelId: string },
  author: ChatAuthor,
  content: string,
  extra: Partial<ChatMessage> = {},
): Promise<boolean> {
  return h.discord.postMessage({ id: snowflakeAt(), ...where, author, member: { roles: [] }, content, ...extra });
}
