// /output: how a member outside voice is answered when a command does not say (its `output` option):
// a voice message or a file. `/output server` sets the server's default (Manage Server), `/output me` the member's
// own, `/output show` what applies. A member's own default comes before the server's; neither: a file (the Speak
// menu: a voice message). In voice, commands speak in the member's channel whatever the defaults say.
import type { ChatInputCommandInteraction } from 'discord.js';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { slashCommand, subcommand } from '../src/core/interactions/command-builder.ts';
import { outsideVoiceOutput } from '../src/features/speaking/index-targets.ts';
import { readSettingOption, stringSettingOption } from '../src/core/interactions/options.ts';
import { shownValue } from '../src/core/interactions/setting-text.ts';
import { t } from '../src/core/i18n/catalogue.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { showResult } from '../src/core/interactions/replies.ts';
import type { OutsideVoiceOutput } from '../src/core/store/output-defaults-store.ts';
import type { ChoiceSetting } from '../src/core/settings/setting-types.ts';

export const uses = ['store'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** Anyone sets their own default; the server's changes what every member outside voice gets. */
export const requires: Requirements = { subcommands: { server: { manageGuild: true } } };

/** The output default outside voice (/output), declared with the settings kit; `reset` falls back a layer. */
const OUTSIDE_VOICE: ChoiceSetting<OutsideVoiceOutput> = {
  kind: 'choice',
  values: ['voice-message', 'file'],
  none: 'reset',
  column: 'output',
  option: 'outside_voice',
  words: { 'voice-message': 'choice.output.voice-message', file: 'choice.output.file' },
  shown: { as: 'choice' },
};

const choiceOption = () => stringSettingOption(OUTSIDE_VOICE, { required: true });

export const data = slashCommand('output', requires)
  .addSubcommand(subcommand('output.server').addStringOption(choiceOption()))
  .addSubcommand(subcommand('output.me').addStringOption(choiceOption()))
  .addSubcommand(subcommand('output.show'));

/** The value chosen: an output, or null for reset; a value Discord's clients could not send is a reset too. */
function readChoice(interaction: ChatInputCommandInteraction): OutsideVoiceOutput | null {
  return (readSettingOption(interaction.options, OUTSIDE_VOICE, interaction.guildId) ??
    null) as OutsideVoiceOutput | null;
}

const outputName = (locale: string, output: OutsideVoiceOutput) => String(shownValue(locale, OUTSIDE_VOICE, output));

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const { guildId, locale } = interaction;
  const userId = interaction.user.id;
  const store = context.store;
  switch (interaction.options.getSubcommand()) {
    case 'server': {
      const output = readChoice(interaction);
      await store.outputDefaults.setServer(guildId, output, userId);
      if (output === null)
        return showResult(interaction, 'output.server.reset', { output: outputName(locale, 'file') });
      return showResult(interaction, 'output.server.set', { output: outputName(locale, output) });
    }
    case 'me': {
      const output = readChoice(interaction);
      await store.outputDefaults.setMember(guildId, userId, output);
      if (output !== null) return showResult(interaction, 'output.me.set', { output: outputName(locale, output) });
      const defaults = await store.outputDefaults.get(guildId, userId);
      return showResult(interaction, 'output.me.reset', {
        output: outputName(locale, outsideVoiceOutput(defaults, 'file')),
      });
    }
    default: {
      const defaults = await store.outputDefaults.get(guildId, userId);
      const why =
        defaults.member !== undefined
          ? 'output.why.member'
          : defaults.server !== undefined
            ? 'output.why.server'
            : 'output.why.builtin';
      const unset = t(locale, 'setting.value.none');
      return showResult(interaction, 'output.show', {
        output: outputName(locale, outsideVoiceOutput(defaults, 'file')),
        why: t(locale, why),
        server: defaults.server === undefined ? unset : outputName(locale, defaults.server),
        member: defaults.member === undefined ? unset : outputName(locale, defaults.member),
      });
    }
  }
};
