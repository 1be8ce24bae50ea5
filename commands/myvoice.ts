import { answerSpeechAutocomplete } from '../src/bot/autocomplete.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { slashCommand, subcommand } from '../src/bot/command-builder.ts';
import { UserError } from '../src/bot/failures.ts';
import {
  formatOption, languageOption, readAudioSettings, readVoiceSettings, speedOption, toneOption, voiceOption, volumeOption,
} from '../src/bot/options.ts';
import { showResult } from '../src/bot/replies.ts';
import { describeSettings } from '../src/bot/speech-settings.ts';
import { usableVoice } from '../src/speech/voice-access.ts';

export const data = slashCommand('myvoice')
  .addSubcommand(
    subcommand('myvoice.set')
      .addStringOption(voiceOption())
      .addStringOption(languageOption())
      .addStringOption(toneOption())
      .addStringOption(formatOption())
      .addNumberOption(speedOption())
      .addNumberOption(volumeOption()),
  )
  .addSubcommand(subcommand('myvoice.clear'));

export const execute: CommandModule['execute'] = async (interaction, { store }) => {
  const { guildId } = interaction;
  const userId = interaction.user.id;
  if (interaction.options.getSubcommand(true) === 'clear') {
    await showResult(interaction, (await store.memberDefaults.clear(guildId, userId)) ? 'myvoice.cleared' : 'myvoice.none');
    return;
  }
  const settings = { ...readVoiceSettings(interaction.options), ...readAudioSettings(interaction.options) };
  if (Object.keys(settings).length === 0) throw new UserError('error.myvoice.nothing');
  if (settings.voice !== undefined) settings.voice = (await usableVoice(store, guildId, settings.voice)).voiceId;
  const stored = await store.memberDefaults.set(guildId, userId, settings);
  await showResult(interaction, 'myvoice.set', { settings: describeSettings(interaction.locale, stored) });
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
