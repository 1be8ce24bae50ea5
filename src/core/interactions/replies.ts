import { MessageFlags, type APIActionRowComponent, type APIButtonComponent, type AttachmentPayload } from 'discord.js';
import type { Logger } from '../log.ts';
import type { AnsweredInteraction } from './command.ts';
import { noteIfTokenGone, responseDone, responseStarted, startResponse, tokenGone } from './acknowledge.ts';
import { commandNameOf } from './command-loader.ts';
import type { DescribedFailure } from './failures.ts';
import { t, type MessageKey, type MessageParams } from '../i18n/catalogue.ts';
import { NO_MENTIONS } from './safe-text.ts';
import { replyWithoutToken } from './tokenless-reply.ts';

export { NO_MENTIONS, echo } from './safe-text.ts';

/** Public replies naming what a channel heard: a later failure never deletes them (showFailure). */
const attributing = new WeakMap<AnsweredInteraction, { key: MessageKey; params: MessageParams } | undefined>();

/** Marks the public reply as attributing what was heard: a later failure leaves it, changed to `heard` if given. */
export function keepsAttribution(
  interaction: AnsweredInteraction,
  heard?: { key: MessageKey; params: MessageParams },
): void {
  attributing.set(interaction, heard);
}

/** An attributing reply changed to what the channel heard, if it has words for that (keepsAttribution). */
async function keptAsHeard(interaction: AnsweredInteraction): Promise<void> {
  const heard = attributing.get(interaction);
  if (heard === undefined) return;
  const content = t(interaction.locale, heard.key, heard.params);
  await interaction.editReply({ content, allowedMentions: NO_MENTIONS, components: [] }).catch(() => undefined);
}

/** Rows of buttons under a reply (reply-buttons.ts); left off a reply that goes out without the token. */
export type ShownComponents = APIActionRowComponent<APIButtonComponent>[];

/** Shows the result of a command: edits the deferred reply, or replies when not yet deferred. */
export async function showResult(
  interaction: AnsweredInteraction,
  key: MessageKey,
  params: MessageParams = {},
  files: AttachmentPayload[] = [],
  components?: ShownComponents,
): Promise<void> {
  await showContent(interaction, t(interaction.locale, key, params), files, components);
}

/** As showResult for composed text; without the token a private reply goes by DM, a public one to the channel. */
export async function showContent(
  interaction: AnsweredInteraction,
  content: string,
  files: AttachmentPayload[] = [],
  components?: ShownComponents,
): Promise<void> {
  if (await replyInInteraction(interaction, content, files, components)) return;
  // Only a first response Discord took as public makes it public (discord.js sets `ephemeral` once it did).
  await replyWithoutToken(interaction, { content, files, private: interaction.ephemeral !== false });
}

/** A progress line, shown only while the token works (a DM or post for each step would be noise). */
export async function showProgress(
  interaction: AnsweredInteraction,
  key: MessageKey,
  params: MessageParams = {},
): Promise<void> {
  await replyInInteraction(interaction, t(interaction.locale, key, params), []);
}

/** Replies, or edits the reply, with the interaction's token; false when the token is gone (nothing was shown). */
async function replyInInteraction(
  interaction: AnsweredInteraction,
  content: string,
  files: AttachmentPayload[],
  components?: ShownComponents,
): Promise<boolean> {
  await responseDone(interaction);
  if (tokenGone(interaction)) return false;
  const extra = components === undefined ? {} : { components };
  try {
    if (responseStarted(interaction))
      await interaction.editReply({ content, allowedMentions: NO_MENTIONS, files, ...extra });
    else
      await startResponse(interaction, () =>
        interaction.reply({ content, allowedMentions: NO_MENTIONS, files, flags: MessageFlags.Ephemeral, ...extra }),
      );
    return true;
  } catch (error) {
    if (!noteIfTokenGone(interaction, error)) throw error;
    return false;
  }
}

/** Tells the caller what failed, privately, with one log line; a public reply is deleted unless it attributes. */
export async function showFailure(
  interaction: AnsweredInteraction,
  error: unknown,
  failure: DescribedFailure,
  log: Logger,
): Promise<void> {
  log[failure.level](
    {
      code: failure.code,
      command: commandNameOf(interaction),
      guildId: interaction.guildId,
      userId: interaction.user.id,
      interactionId: interaction.id,
      err: error,
    },
    'command failed',
  );
  const content = t(interaction.locale, failure.message.key, failure.message.params);
  await responseDone(interaction);
  if (!tokenGone(interaction)) {
    try {
      if (!responseStarted(interaction)) {
        await startResponse(interaction, () =>
          interaction.reply({ content, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral }),
        );
      } else if (interaction.ephemeral) {
        await interaction.editReply({ content, allowedMentions: NO_MENTIONS, files: [] });
      } else {
        if (!attributing.has(interaction)) await interaction.deleteReply().catch(() => undefined);
        await interaction.followUp({ content, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral });
        // The member learns what failed first; then the channel's reply stops saying it is under way.
        await keptAsHeard(interaction);
      }
      return;
    } catch (replyError) {
      if (!noteIfTokenGone(interaction, replyError)) {
        log.warn({ err: replyError, interactionId: interaction.id }, 'could not tell the user about a failure');
        return;
      }
    }
  }
  // A failure is the member's alone, whatever the command's reply was.
  await replyWithoutToken(interaction, { content, files: [], private: true }, log).catch((error: unknown) =>
    log.warn({ err: error, interactionId: interaction.id }, 'could not tell the user about a failure'),
  );
}
