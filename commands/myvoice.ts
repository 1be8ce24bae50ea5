import { answerSpeechAutocomplete } from '../src/bot/frontend/autocomplete.ts';
import type { CommandModule } from '../src/bot/interactions/command.ts';
import { slashCommand, subcommand } from '../src/bot/interactions/command-builder.ts';
import { UserError } from '../src/bot/interactions/failures.ts';
import { formatOption, languageOption, readVoiceSettings, toneOption, voiceOption } from '../src/bot/interactions/options.ts';
import { showResult } from '../src/bot/interactions/replies.ts';
import { describeSettings } from '../src/bot/frontend/speech-settings.ts';
import { usableVoice } from '../src/speech/voice-access.ts';

export const data = slashCommand('myvoice')
  .addSubcommand(
    subcommand('myvoice.set')
      .addStringOption(voiceOption())
      .addStringOption(languageOption())
      .addStringOption(toneOption())
      .addStringOption(formatOption()),
  )
  .addSubcommand(subcommand('myvoice.clear'));

export const execute: CommandModule['execute'] = async (interaction, { store }) => {
  const { guildId } = interaction;
  const userId = interaction.user.id;
  if (interaction.options.getSubcommand(true) === 'clear') {
    await showResult(interaction, (await store.memberDefaults.clear(guildId, userId)) ? 'myvoice.cleared' : 'myvoice.none');
    return;
  }
  const settings = readVoiceSettings(interaction.options);
  if (Object.keys(settings).length === 0) throw new UserError('error.myvoice.nothing');
  if (settings.voice !== undefined) settings.voice = (await usableVoice(store, guildId, settings.voice)).voiceId;
  const stored = await store.memberDefaults.set(guildId, userId, settings);
  await showResult(interaction, 'myvoice.set', { settings: describeSettings(interaction.locale, stored) });
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
