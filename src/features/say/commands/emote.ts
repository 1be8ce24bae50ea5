import { answerSpeechAutocomplete } from '../../../core/frontend/autocomplete.ts';
import type { CommandModule } from '../../../core/interactions/command.ts';
import { slashCommand } from '../../../core/interactions/command-builder.ts';
import { UserError } from '../../../core/interactions/failures.ts';
import {
  outputOption,
  presetOption,
  readOutput,
  readText,
  readSpeechSettings,
  textOption,
  withSpeechOptions,
} from '../../../core/interactions/options.ts';
import { speakForCommand } from '../../../core/frontend/speech-delivery.ts';
import { settingsForCommand } from '../../../core/frontend/speech-settings.ts';
import { settingsOutsideServer, speakOutsideServer } from '../../../core/frontend/user-install.ts';
import { effectsOf } from '../../../core/speech/settings.ts';
import '../strings.ts';

/** The service's own default for emotion speech (voice-api.md, /v1/emotion-tts). */
const DEFAULT_EMOTION_VOICE = 'voice-b-ko-f-01';
const DEFAULT_EXAGGERATION = 0.5;

/** The text, the settings sent to the service, where the audio goes and the preset, then SayBot's audio settings. */
export const data = withSpeechOptions(
  withSpeechOptions(slashCommand('emote').addStringOption(textOption()), ['exaggeration', 'voice'], {
    exaggeration: { description: 'emote' },
  })
    .addStringOption(outputOption())
    .addStringOption(presetOption()),
  ['speed', 'volume'],
);

/** Its result is for the channel: a deferral forced by the deadline is public too. */
export const publicReply = true;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  // Voice and exaggeration: the options, the chosen preset, the member's default, the server's default preset,
  // then this command's own defaults (the service's emotion voice, 0.5).
  const { settings, voiceLabel } = await settingsForCommand(
    interaction,
    context,
    readSpeechSettings(interaction.options),
    readText(interaction.options, 'preset'),
    DEFAULT_EMOTION_VOICE,
  );
  await speakForCommand(
    interaction,
    context,
    emotionRequest(interaction, settings),
    readOutput(interaction.options),
    voiceLabel,
  );
};

/** The emotion request of the command's text, its exaggeration checked before any API call. */
function emotionRequest(
  interaction:
    Parameters<CommandModule['execute']>[0] | Parameters<NonNullable<CommandModule['executeOutsideServer']>>[0],
  settings: Awaited<ReturnType<typeof settingsForCommand>>['settings'],
) {
  const exaggeration = settings.exaggeration ?? DEFAULT_EXAGGERATION;
  // Discord enforces min/max for its own clients; a crafted request is refused here, before any API call.
  if (!(exaggeration >= 0 && exaggeration <= 1))
    throw new UserError('error.input.exaggeration', { value: String(exaggeration) });
  return {
    kind: 'emotion' as const,
    text: interaction.options.getString('text', true),
    voice: settings.voice,
    exaggeration,
    ...effectsOf(settings),
  };
}

/** In a DM, a group DM or a server without SayBot (the user install): the same speech, as a file or a voice message. */
export const executeOutsideServer: CommandModule['executeOutsideServer'] = async (interaction, context) => {
  const { settings, voiceLabel } = await settingsOutsideServer(
    interaction,
    context,
    readSpeechSettings(interaction.options),
    readText(interaction.options, 'preset'),
    DEFAULT_EMOTION_VOICE,
  );
  await speakOutsideServer(
    interaction,
    context,
    emotionRequest(interaction, settings),
    voiceLabel,
    readOutput(interaction.options),
  );
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
