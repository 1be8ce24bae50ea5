import { asWritten, echoCode } from '../../core/interactions/safe-text.ts';
import type { ChatInputCommandInteraction } from 'discord.js';
import { chooseSettings, type ResolvedSettings } from '../../core/order/order-settings.ts';
import type { Preset } from '../../core/store/preset-store.ts';
import type { SpeechSettings } from '../../core/store/common-types.ts';
import type { Services } from '../../core/interactions/command.ts';
import { t } from './strings.ts';
import type { EnginePort } from '../../core/sourcing/engine-port.ts';
import { SPEECH_SETTING_LIST } from '../../core/settings/setting-declarations.ts';
import { describeSettings as describeDeclared } from '../../core/interactions/setting-text.ts';

export interface ChosenSettings {
  settings: ResolvedSettings;
  /** The voice for replies, with why it was used when the caller did not name it. */
  voiceLabel: string;
}

/** A slash command's settings (src/core/order/order-settings.ts), with the voice's words in the member's language. */
export async function settingsForCommand(
  interaction: ChatInputCommandInteraction<'cached'>,
  context: Services<'store' | 'voices' | 'engines'>,
  options: SpeechSettings,
  presetName: string | undefined,
): Promise<ChosenSettings> {
  const settings = await chooseSettings(context.store, {
    guildId: interaction.guildId,
    userId: interaction.user.id,
    options,
    presetName,
    guildLocale: interaction.guild.preferredLocale,
  });
  const credit = voiceCredit(context.engines, settings.voice);
  return { settings, voiceLabel: voiceLabel(interaction.locale, settings, 'server', credit) };
}

/** `voice-b-ko-m-01` and where it came from unless named; outside a server the language's voice, not the server's. */
export function voiceLabel(
  locale: string,
  settings: ResolvedSettings,
  where: 'server' | 'outside',
  credit?: string,
): string {
  const voice = namedVoice(settings.voice, credit);
  const source = settings.sources.voice;
  switch (source.kind) {
    case 'option':
      return voice;
    case 'preset':
      return t(locale, 'voice.why.preset', { voice, preset: source.preset });
    case 'member':
      return t(locale, 'voice.why.member', { voice });
    case 'server':
      return t(locale, 'voice.why.server', { voice, preset: source.preset });
    case 'builtin':
      return t(locale, where === 'server' ? 'voice.why.builtin' : 'voice.why.builtinOutside', { voice });
  }
}

/**
 * A voice as replies name it: its ID as code nothing in it can close (a clone's ID is the service's), with the credit
 * its engine's terms ask for where there is one (VOICEVOX:<speaker>).
 */
export function namedVoice(voice: string, credit?: string): string {
  const id = echoCode(voice, 80);
  return credit === undefined ? id : `${id} (${asWritten(credit)})`;
}

/** The credit an engine's terms ask for where `voiceId` is its voice (`VOICEVOX:<speaker>`); undefined otherwise. */
export function voiceCredit(engines: EnginePort | undefined, voiceId: string): string | undefined {
  return engines?.voice(voiceId)?.credit;
}

/** One line for a set of settings, in declaration order: `voice` · language · tone · MP3 · speed 1.5×. */
export function describeSettings(locale: string, settings: SpeechSettings): string {
  return describeDeclared(locale, SPEECH_SETTING_LIST, settings, { separator: ' · ', omitUnset: true });
}

/** A preset as one listing line, marked when it is the server's default. */
export function presetLine(locale: string, preset: Preset, defaultName: string | undefined): string {
  const mark = preset.name === defaultName ? ` ${t(locale, 'preset.list.default')}` : '';
  return `**${preset.name}**: ${describeSettings(locale, preset)}${mark}`;
}
