// "Speak" (issue 15): a message context menu that reads the chosen message aloud, cleaned as auto-read cleans it.
// Held back from the loader (src/bot/command-loader.ts, HELD_BACK) until phase 2 gives it the speech pipeline: it is
// neither registered with Discord nor routed before then, so no member can reach the branch that cannot speak yet.
import { messageMenu } from '../src/bot/command-builder.ts';
import type { MessageMenuModule } from '../src/bot/command.ts';
import type { MenuRequirements } from '../src/bot/preconditions.ts';
import { showResult } from '../src/bot/replies.ts';
import { speakableMessage, speakMessageText } from '../src/bot/speak-message.ts';

/** Nothing beyond a server: it speaks in the member's voice channel, or as a voice message when they are in none. */
export const requires: MenuRequirements = {};

export const data = messageMenu('speak', requires);

export const execute: MessageMenuModule['execute'] = async (interaction) => {
  const text = speakMessageText(speakableMessage(interaction.targetMessage), { language: interaction.guildLocale });
  if (text === '') return showResult(interaction, 'speak.nothing');
  // Phase 2 speaks `text` here with the member's voice (voice channel or voice message).
  throw new Error('Speak cannot speak a message before issue 15 phase 2; it must stay in HELD_BACK until then');
};
