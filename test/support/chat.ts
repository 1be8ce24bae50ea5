import { expect } from 'vitest';
import type { ChatAuthor, ChatMessage } from '@saybot/local-discord/message-create.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { runCommand, type Harness } from './harness.ts';

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

/** `userId` starts auto-read in `guildId`; fails unless the reply says it reads `textChannelId` in `voiceChannelId`. */
export async function startAutoRead(
  h: Harness,
  guildId: string,
  userId: string,
  channels: { text: string; voice: string },
): Promise<void> {
  const { content } = await runCommand(h, { guildId, userId, name: 'autoread', subcommand: 'start' });
  expect(content).toContain(`Reading <#${channels.text}> aloud in <#${channels.voice}>`);
}

/** `managerId` has auto-read ignore `memberId` (/autoread ignore); fails unless the reply says it was added. */
export async function ignoreForAutoRead(h: Harness, guildId: string, managerId: string, memberId: string) {
  const { content } = await runCommand(h, {
    guildId,
    userId: managerId,
    name: 'autoread',
    subcommand: 'ignore',
    options: { member: { type: 6, value: memberId } },
  });
  expect(content).toBe(t('en-US', 'autoread.ignore.added', { member: `<@${memberId}>` }));
}

/** The texts the Voice API was asked to speak since `from` (an index into the sandbox's requests). */
export function spoken(h: Harness, from = 0): string[] {
  return h.sandbox.requests
    .slice(from)
    .filter((r) => r.endpoint === 'tts')
    .map((r) => r.text ?? '');
}
