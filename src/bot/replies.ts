import { MessageFlags, type AttachmentPayload } from 'discord.js';
import type { Logger } from '../log.ts';
import type { BotCommandInteraction } from './command.ts';
import { claimFirstResponse, settled } from './acknowledge.ts';
import { noteIfTokenExpired, postInChannel, tokenGone } from './expired-token.ts';
import { describeFailure } from './failures.ts';
import { t, type MessageKey, type MessageParams } from './i18n.ts';

/** Nothing SayBot writes may ping anyone, whatever the text contains. */
export const NO_MENTIONS = { parse: [] as never[] };

/**
 * What a member typed, made safe to quote back: no characters that could form a mention, a channel link or a
 * code span (`<`, `>`, `@`, backtick), no line breaks, at most `max` characters.
 */
export function echo(text: string, max: number): string {
  const plain = text.replace(/[<>@`\r\n]/g, '');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/** Shows the result of a command: edits the deferred reply, or replies when not yet deferred. */
export async function showResult(
  interaction: BotCommandInteraction,
  key: MessageKey,
  params: MessageParams = {},
  files: AttachmentPayload[] = [],
): Promise<void> {
  await showContent(interaction, t(interaction.locale, key, params), files);
}

/** As showResult, for text already composed in the caller's language (listings). */
export async function showContent(interaction: BotCommandInteraction, content: string, files: AttachmentPayload[] = []): Promise<void> {
  // A reply that waited behind a long queue may outlive the token (15 minutes): it goes to the channel instead.
  if (tokenGone(interaction)) return postInChannel(interaction, content, files, NO_MENTIONS);
  await settled(interaction);
  try {
    const replied = claimFirstResponse(interaction, () => interaction.reply({ content, allowedMentions: NO_MENTIONS, files, flags: MessageFlags.Ephemeral }));
    if (replied) await replied;
    else await interaction.editReply({ content, allowedMentions: NO_MENTIONS, files });
  } catch (error) {
    if (!noteIfTokenExpired(interaction, error)) throw error;
    await postInChannel(interaction, content, files, NO_MENTIONS);
  }
}

/**
 * Tells the caller what went wrong, ephemerally and in their language, and writes one log line for the
 * operator. A public deferred reply cannot turn ephemeral, so it is deleted and the message follows privately.
 */
export async function showFailure(
  interaction: BotCommandInteraction,
  error: unknown,
  log: Logger,
): Promise<void> {
  const failure = describeFailure(error);
  log[failure.level](
    {
      code: failure.code,
      command: interaction.commandName,
      guildId: interaction.guildId,
      userId: interaction.user.id,
      interactionId: interaction.id,
      err: error,
    },
    'command failed',
  );
  const content = t(interaction.locale, failure.message.key, failure.message.params);
  await settled(interaction);
  try {
    const replied = tokenGone(interaction)
      ? undefined
      : claimFirstResponse(interaction, () => interaction.reply({ content, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral }));
    if (tokenGone(interaction)) {
      await postInChannel(interaction, content, [], NO_MENTIONS);
    } else if (replied) {
      await replied;
    } else if (interaction.ephemeral) {
      await interaction.editReply({ content, allowedMentions: NO_MENTIONS, files: [] });
    } else {
      await interaction.deleteReply().catch(() => undefined);
      await interaction.followUp({ content, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral });
    }
  } catch (replyError) {
    if (noteIfTokenExpired(interaction, replyError)) {
      const posted = await postInChannel(interaction, content, [], NO_MENTIONS).then(() => true, () => false);
      if (posted) return;
    }
    log.warn({ err: replyError, interactionId: interaction.id }, 'could not tell the user about a failure');
  }
}
