// A reply whose token is gone (acknowledge.ts): a private one by DM (logged if closed), a public one to the channel.
import { fetchOneChannel } from './discord-ids.ts';
import { DiscordAPIError, type AttachmentPayload } from 'discord.js';
import type { Logger } from '../log.ts';
import type { AnsweredInteraction } from './command.ts';
import { commandNameOf } from './command-loader.ts';
import { sinceReceived, tokenLogger } from './acknowledge.ts';
import { t } from '../i18n/catalogue.ts';
import { NO_MENTIONS, echo } from './safe-text.ts';

/** Discord: "Cannot send messages to this user" (DMs closed to the bot, or no shared server). */
const CANNOT_MESSAGE_USER = 50007;
const MAX_CONTENT = 2000;

interface TokenlessReply {
  content: string;
  files: AttachmentPayload[];
  /** Only the member was to see it (an ephemeral response, or one never sent): it never goes to the channel. */
  private: boolean;
}

/** Interactions already reported: one log line each, however many replies follow. */
const reported = new WeakSet<AnsweredInteraction>();
/** Interactions whose member refused a DM: their later private replies are dropped without trying again. */
const dmsClosed = new WeakSet<AnsweredInteraction>();

/** Delivers a reply whose token is gone: by DM when private, in the channel when public. */
export async function replyWithoutToken(
  interaction: AnsweredInteraction,
  reply: TokenlessReply,
  log = tokenLogger(interaction),
): Promise<void> {
  if (!reply.private) {
    report(interaction, log, 'channel');
    await postInChannel(interaction, reply.content, reply.files);
    return;
  }
  if (dmsClosed.has(interaction)) return;
  try {
    await interaction.user.send({
      content: directContent(interaction, reply.content),
      files: reply.files,
      allowedMentions: NO_MENTIONS,
    });
  } catch (error) {
    if (!(error instanceof DiscordAPIError) || error.code !== CANNOT_MESSAGE_USER) throw error;
    dmsClosed.add(interaction);
    reported.add(interaction);
    log?.warn(
      { code: 'private-reply-dropped', reason: 'dms-closed', ...who(interaction) },
      'interaction token gone and the member takes no DMs: private reply dropped',
    );
    return;
  }
  report(interaction, log, 'dm');
}

function who(interaction: AnsweredInteraction) {
  return {
    command: commandNameOf(interaction),
    guildId: interaction.guildId,
    userId: interaction.user.id,
    interactionId: interaction.id,
    ageMs: Math.round(sinceReceived(interaction)),
  };
}

function report(interaction: AnsweredInteraction, log: Logger | undefined, to: 'dm' | 'channel'): void {
  if (reported.has(interaction)) return;
  reported.add(interaction);
  log?.warn(
    { code: 'discord-token-expired', to, ...who(interaction) },
    `interaction token gone: reply sent ${to === 'dm' ? 'by DM' : 'in the channel'} instead`,
  );
}

/** The reply as a DM says which command in which server it answers (a DM has no such context). */
function directContent(interaction: AnsweredInteraction, content: string): string {
  // A menu is named as it is shown; a slash command, or its form, as /name.
  const command = interaction.isMessageContextMenuCommand()
    ? interaction.commandName
    : `/${commandNameOf(interaction)}`;
  const header = t(interaction.locale, 'reply.direct', { command, server: echo(interaction.guild?.name ?? '', 60) });
  const whole = `${header}\n${content}`;
  return [...whole].length <= MAX_CONTENT ? whole : content;
}

/** A public reply as a channel message naming the requester, pinging no one. */
async function postInChannel(
  interaction: AnsweredInteraction,
  content: string,
  files: AttachmentPayload[],
): Promise<void> {
  const channel =
    interaction.channel ?? (await fetchOneChannel(interaction.client, interaction.channelId, 'interaction channel'));
  if (!channel?.isSendable())
    throw new Error(`cannot post the reply of interaction ${interaction.id} in channel ${interaction.channelId}`);
  await channel.send({ content: `<@${interaction.user.id}> ${content}`, allowedMentions: NO_MENTIONS, files });
}
