import { answerSpeechAutocomplete } from '../src/bot/autocomplete.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { slashCommand } from '../src/bot/command-builder.ts';
import { formatOption, languageOption, textOption, outputOption, presetOption, readText, readVoiceSettings, toneOption, voiceOption } from '../src/bot/options.ts';
import { speakForCommand, type OutputChoice } from '../src/bot/speak.ts';
import { settingsForCommand } from '../src/bot/speech-settings.ts';

export const data = slashCommand('say')
  .addStringOption(textOption())
  .addStringOption(voiceOption())
  .addStringOption(languageOption())
  .addStringOption(formatOption())
  .addStringOption(toneOption())
  .addStringOption(outputOption())
  .addStringOption(presetOption());

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  // The command's options, then the chosen preset, the member's default, the server's default, the built-in.
  const { settings, voiceLabel } = await settingsForCommand(interaction, context, readVoiceSettings(interaction.options), readText(interaction.options, 'preset'));
  await speakForCommand(
    interaction,
    context,
    {
      kind: 'tts',
      text: interaction.options.getString('text', true),
      voice: settings.voice,
      format: settings.format,
      ...(settings.language === undefined ? {} : { language: settings.language }),
      ...(settings.tone === undefined ? {} : { tone: settings.tone }),
    },
    (interaction.options.getString('output') ?? undefined) as OutputChoice,
    voiceLabel,
  );
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
