import { answerSpeechAutocomplete } from '../../../core/frontend/autocomplete.ts';
import type { CommandModule } from '../../../core/interactions/command.ts';
import { slashCommand } from '../../../core/interactions/command-builder.ts';
import {
  formatOption,
  languageOption,
  textOption,
  outputOption,
  presetOption,
  readOutput,
  readText,
  readSpeechSettings,
  speedOption,
  toneOption,
  voiceOption,
  volumeOption,
} from '../../../core/interactions/options.ts';
import { speakForCommand } from '../../../core/frontend/speech-delivery.ts';
import { settingsForCommand } from '../../../core/frontend/speech-settings.ts';
import { settingsOutsideServer, speakOutsideServer } from '../../../core/frontend/user-install.ts';
import { ttsRequest } from '../../../core/speech/settings.ts';
import '../strings.ts';

export const data = slashCommand('say')
  .addStringOption(textOption())
  .addStringOption(voiceOption())
  .addStringOption(languageOption())
  .addStringOption(formatOption())
  .addStringOption(toneOption())
  .addStringOption(outputOption())
  .addStringOption(presetOption())
  .addNumberOption(speedOption())
  .addNumberOption(volumeOption());

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  // The command's options, then the chosen preset, the member's default, the server's default, the built-in.
  const { settings, voiceLabel } = await settingsForCommand(
    interaction,
    context,
    readSpeechSettings(interaction.options),
    readText(interaction.options, 'preset'),
  );
  await speakForCommand(
    interaction,
    context,
    ttsRequest(interaction.options.getString('text', true), settings),
    readOutput(interaction.options),
    voiceLabel,
  );
};

/** In a DM, a group DM or a server without SayBot (the user install): the same speech, as a file or a voice message. */
export const executeOutsideServer: CommandModule['executeOutsideServer'] = async (interaction, context) => {
  const { settings, voiceLabel } = await settingsOutsideServer(
    interaction,
    context,
    readSpeechSettings(interaction.options),
    readText(interaction.options, 'preset'),
  );
  await speakOutsideServer(
    interaction,
    context,
    ttsRequest(interaction.options.getString('text', true), settings),
    voiceLabel,
    readOutput(interaction.options),
  );
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
