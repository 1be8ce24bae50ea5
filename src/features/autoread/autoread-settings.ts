// /autoread settings derived from the declarations (setting-declarations.ts): nothing here names one setting.
import type { ChatInputCommandInteraction, SlashCommandSubcommandBuilder } from 'discord.js';
import { AUTO_READ_SETTING_LIST, type AutoReadSettingChanges, type AutoReadSettings } from './setting-declarations.ts';
import { addSettingOption, readSettingOptions } from '../../core/interactions/options.ts';
import { describeSettings as describeDeclared } from '../../core/interactions/setting-text.ts';
import { t } from '../../core/i18n/catalogue.ts';
import './strings.ts';

/** Adds each declared setting's option to /autoread settings, in declaration order. */
export function withSettingOptions(subcommand: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return AUTO_READ_SETTING_LIST.reduce((built, [, declared]) => addSettingOption(built, declared), subcommand);
}

/** The changes the options ask for; the first refused option (in declaration order) refuses them all. */
export function settingChangesOf(interaction: ChatInputCommandInteraction<'cached'>): AutoReadSettingChanges {
  return settingChangesFrom(interaction.options, interaction.guildId);
}

/** The same from any reader of options (the dashboard's form read as options). */
export function settingChangesFrom(
  options: ChatInputCommandInteraction['options'],
  guildId: string,
): AutoReadSettingChanges {
  return readSettingOptions(options, AUTO_READ_SETTING_LIST, guildId) as AutoReadSettingChanges;
}

/** The settings in the caller's language, one clause each (settings sharing a clause printed in one). */
export function describeSettings(locale: string, settings: AutoReadSettings): string {
  return describeDeclared(locale, AUTO_READ_SETTING_LIST, settings, { separator: '; ', omitUnset: false });
}

/** Settings just changed, in words: and where free_voice is on but members may not choose the free voice, the warning. */
export function settingsChanged(locale: string, settings: AutoReadSettings, freeVoiceChosen: boolean): string {
  const changed = t(locale, 'autoread.settings.updated', { settings: describeSettings(locale, settings) });
  return settings.freeVoice && !freeVoiceChosen ? `${changed} ${t(locale, 'autoread.freeVoice.cannotRead')}` : changed;
}
