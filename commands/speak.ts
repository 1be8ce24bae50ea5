// "Speak": a message menu reading the message aloud as auto-read cleans it, in the member's voice; in their voice
// channel, else a voice message (or a file, by their or the server's /output default).
import { messageMenu } from '../src/core/interactions/command-builder.ts';
import type { MessageMenuModule } from '../src/core/interactions/command.ts';
import type { MenuRequirements } from '../src/core/interactions/preconditions.ts';
import { showResult } from '../src/core/interactions/replies.ts';
import {
  speakableMessage,
  speakMessageWords,
  storedDictionary,
  DictionaryUnavailableError,
} from '../src/features/autoread/index-dictionary.ts';
import { chooseTarget } from '../src/features/speaking/index-targets.ts';
import { requesterOf, speakAndReply, SPEAKING_USES, voiceLabel } from '../src/features/speaking/index.ts';
import { chooseSettings } from '../src/core/sourcing/voice-choice.ts';
import { ttsRequest } from '../src/core/sourcing/part-request.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { snowflakeOf } from '../src/core/interactions/discord-ids.ts';

export const uses = SPEAKING_USES;
type Uses = (typeof uses)[number];

/** Nothing beyond a server: it speaks in the member's voice channel, or as a voice message when they are in none. */
export const requires: MenuRequirements = {};

export const data = messageMenu('speak', requires);

/** What the spends of a Speak are recorded under (the `command` column). */
export const SPEAK_COMMAND = 'speak-message';

export const execute: MessageMenuModule<Uses>['execute'] = async (interaction, context) => {
  const { guildId } = interaction;
  // Held to its author's rights: a message without its author is not read (src/core/interactions/discord-ids.ts).
  const authorId = snowflakeOf((interaction.targetMessage.author as { id?: unknown } | null | undefined)?.id);
  if (authorId === undefined) throw new UserError('speak.noAuthor');
  // The dictionary's entries are read only when they changed since the last message (storedDictionary).
  const [autoread, dictionary] = await Promise.all([
    context.store.autoRead.get(guildId),
    storedDictionary(context.store, guildId),
  ]);
  const text = await speakMessageWords(speakableMessage(interaction.targetMessage), {
    language: interaction.guildLocale,
    maxLength: autoread.settings.maxLength,
    dictionary,
  }).catch((error: unknown) => {
    throw error instanceof DictionaryUnavailableError
      ? new UserError('speak.dictionaryBusy', {}, { cause: error })
      : error;
  });
  if (text === '') return showResult(interaction, 'speak.nothing');
  // Free checks first: where it can go (refused at once if the bot may not speak there), then whose voice.
  const target = await chooseTarget(interaction, undefined, context, 'voice-message', false);
  const settings = await chooseSettings(context.store, {
    guildId,
    userId: interaction.user.id,
    options: {},
    presetName: undefined,
    guildLocale: interaction.guild.preferredLocale,
    engines: context.engines,
  });
  await speakAndReply(
    interaction,
    context,
    {
      request: ttsRequest(text, settings),
      requester: requesterOf(interaction, SPEAK_COMMAND),
    },
    target,
    voiceLabel(interaction.locale, settings, 'server'),
    // The words are the message author's: they are held to the rules for a member's words there, as announcements are.
    {
      private: true,
      author: { memberId: authorId, member: interaction.targetMessage.member },
    },
  );
  // Named in that answer (a refusal before it is thrown: told next time), so not again.
  if (settings.voiceDeleted !== undefined)
    await context.store.memberDefaults.unset(guildId, interaction.user.id, ['voiceDeleted']);
};
