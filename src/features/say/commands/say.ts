import { answerSpeechAutocomplete } from '../../../core/frontend/autocomplete.ts';
import type { CommandModule } from '../../../core/interactions/command.ts';
import { slashCommand } from '../../../core/interactions/command-builder.ts';
import {
  textOption,
  outputOption,
  presetOption,
  readOutput,
  readText,
  readSpeechSettings,
  withSpeechOptions,
} from '../../../core/interactions/options.ts';
import { speakForCommand } from '../../../core/frontend/speech-delivery.ts';
import { settingsForCommand } from '../../../core/frontend/speech-settings.ts';
import { settingsOutsideServer, speakOutsideServer } from '../../../core/frontend/user-install.ts';
import { ttsRequest } from '../../../core/speech/settings.ts';
import '../strings.ts';

/** The text, the settings sent to the service, where the audio goes and the preset, then SayBot's audio settings. */
export const data = withSpeechOptions(
  withSpeechOptions(slashCommand('say').addStringOption(textOption()), ['voice', 'language', 'format', 'tone'])
    .addStringOption(outputOption())
    .addStringOption(presetOption()),
  ['speed', 'volume'],
);

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
