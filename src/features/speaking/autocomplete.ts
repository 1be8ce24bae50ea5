import { LANGUAGE_CODE, ESPEAK_VOICES } from '../../core/voice-catalogue/voices.ts';
import type { ApplicationCommandOptionChoiceData, AutocompleteInteraction } from 'discord.js';
import { MAX_CHOICES, languageChoices, presetChoices, voiceChoices } from '../../core/interactions/choices.ts';
import type { Services } from '../../core/interactions/command.ts';

/** Answers the shared speech options' autocomplete; each store read one indexed query of 25 rows, its time logged. */
export async function answerSpeechAutocomplete(
  interaction: AutocompleteInteraction<'cached'>,
  context: Services<'config' | 'logger' | 'voices' | 'store' | 'engines'>,
  presetOptions: readonly string[] = ['preset'],
): Promise<void> {
  const started = performance.now();
  const focused = interaction.options.getFocused(true);
  const choices = await speechChoices(interaction, context, focused.name, focused.value, presetOptions);
  context.logger.debug(
    { option: focused.name, choices: choices.length, ms: +(performance.now() - started).toFixed(2) },
    'autocomplete choices built',
  );
  await interaction.respond(choices);
}

async function speechChoices(
  interaction: AutocompleteInteraction<'cached'>,
  context: Services<'config' | 'logger' | 'voices' | 'store' | 'engines'>,
  option: string,
  typed: string,
  presetOptions: readonly string[],
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  // The language option may hold a half-typed value; it narrows the list only once it is a whole code.
  const chosen = option === 'language' ? undefined : interaction.options.getString('language')?.trim();
  const language = chosen !== undefined && LANGUAGE_CODE.test(chosen) ? chosen : undefined;
  const { store } = context;
  if (option === 'voice') {
    const cloned = await store.voiceLibrary.list(interaction.guildId, { contains: typed, limit: MAX_CHOICES });
    const free = context.config.freeVoice.chosen ? ESPEAK_VOICES : [];
    const engines = context.engines?.voices() ?? [];
    return voiceChoices(typed, interaction.locale, language, context.voices, cloned, free, engines);
  }
  if (option === 'language') return languageChoices(typed, interaction.locale);
  if (presetOptions.includes(option)) {
    const presets = await store.presets.list(interaction.guildId, { contains: typed, limit: MAX_CHOICES, language });
    return presetChoices(presets, interaction.locale);
  }
  return [];
}
