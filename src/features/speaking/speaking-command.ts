// What the commands that speak their `text` option (/say, /emote) share: the same options around their own speech
// settings, and the same way from options to speech in a server and outside one (the user install). A command
// gives only what is particular to it: which settings the service takes from it and how its request is made. The
// voice is chosen alike for both (a member asking /emote where /say would speak another voice would be surprised).
import type { ChatInputCommandInteraction, SlashCommandOptionsOnlyBuilder } from 'discord.js';
import type { CommandModule, ServiceName } from '../../core/interactions/command.ts';
import { slashCommand, type CommandName } from '../../core/interactions/command-builder.ts';
import {
  outputOption,
  presetOption,
  readOutput,
  readSpeechSettings,
  readText,
  TEXT_MAX_CHARACTERS,
  textOption,
  withSpeechOptions,
  type SettingOptionSpec,
} from '../../core/interactions/options.ts';
import type { SpeechRequest } from '../../core/order/pipeline.ts';
import type { ResolvedSettings } from '../../core/order/order-settings.ts';
import { EFFECT_SETTING_NAMES, type SpeechSettingName } from '../../core/settings/setting-declarations.ts';
import { SPEAKING_USES, speakForCommand } from './speech-delivery.ts';
import { settingsForCommand } from './speech-settings.ts';
import { settingsOutsideServer, speakOutsideServer } from './user-install.ts';
import { UserError } from '../../core/interactions/failures.ts';
import { countCharacters, moreCharactersThan } from '../../core/characters.ts';
import './strings.ts';

/**
 * The command's definition: the text, the settings sent to the service (in the command's released order), where the
 * audio goes and the preset, then SayBot's audio settings.
 */
export function speakingCommand(
  name: CommandName,
  serviceSettings: readonly SpeechSettingName[],
  specs: Partial<Record<SpeechSettingName, SettingOptionSpec>> = {},
): SlashCommandOptionsOnlyBuilder {
  return withSpeechOptions(
    withSpeechOptions(slashCommand(name).addStringOption(textOption()), serviceSettings, specs)
      .addStringOption(outputOption())
      .addStringOption(presetOption()),
    EFFECT_SETTING_NAMES,
  );
}

/** The services /say and /emote use: speaking for a member, their settings, the user install, the voice list. */
export const SPEAKING_COMMAND_USES = [...SPEAKING_USES, 'config', 'voices'] as const satisfies readonly ServiceName[];
export type SpeakingCommandUses = (typeof SPEAKING_COMMAND_USES)[number];

/** How a speaking command makes its request from its text and the settings that apply; it may refuse (UserError). */
export type RequestOf = (text: string, settings: ResolvedSettings) => SpeechRequest;

/**
 * The command's handlers: its options, then the chosen preset, the member's default, the server's default and the
 * built-in (the voice of the server's language) decide the settings; the request goes to the member's
 * voice channel or comes back as a file or a voice message, and outside a server as a file or a voice message.
 */
export function speakingHandlers(
  requestOf: RequestOf,
): Required<Pick<CommandModule<SpeakingCommandUses>, 'execute' | 'executeOutsideServer'>> {
  const given = (interaction: ChatInputCommandInteraction) => ({
    settings: readSpeechSettings(interaction.options),
    preset: readText(interaction.options, 'preset'),
    text: spokenText(interaction.options.getString('text', true)),
    output: readOutput(interaction.options),
  });
  return {
    async execute(interaction, context) {
      const { settings, preset, text, output } = given(interaction);
      const chosen = await settingsForCommand(interaction, context, settings, preset);
      await speakForCommand(interaction, context, requestOf(text, chosen.settings), output, chosen.voiceLabel);
    },
    async executeOutsideServer(interaction, context) {
      const { settings, preset, text, output } = given(interaction);
      const chosen = await settingsOutsideServer(interaction, context, settings, preset);
      await speakOutsideServer(interaction, context, requestOf(text, chosen.settings), chosen.voiceLabel, output);
    },
  };
}

/** The text, or the member's answer of why not: over TEXT_MAX_CHARACTERS as the service bills them. */
function spokenText(text: string): string {
  if (moreCharactersThan(text, TEXT_MAX_CHARACTERS))
    throw new UserError('say.textTooLong', { characters: countCharacters(text), max: TEXT_MAX_CHARACTERS });
  return text;
}
