import type { ChatInputCommandInteraction, SharedSlashCommandOptions } from 'discord.js';
import {
  SENT_SETTINGS,
  SPEECH_SETTING_LIST,
  SPEECH_SETTINGS,
  type SentSettingName,
  type SpeechSettingName,
  type SpeechSettings,
} from '../settings/setting-declarations.ts';
import {
  addSettingOption,
  readSettingOptions,
  stringSettingOption,
  type SettingOptionSpec,
} from './setting-options.ts';
import { stringOption } from './command-builder.ts';

export { readText, type SettingOptionSpec } from './setting-options.ts';

// The options several commands share (/say, /emote, /preset save, /myvoice set): the speech settings' options,
// built and read from their declarations (src/core/settings/setting-declarations.ts), so they are named, localised and
// checked alike everywhere; the text, the preset and the output.

/**
 * The most characters /say and /emote speak, counted as the service bills them (countCharacters): Discord's
 * max_length counts the text as written, which NFC may make up to three times longer. Long text is split into
 * requests.
 */
export const TEXT_MAX_CHARACTERS = 4000;

/** The text to speak (/say, /emote). Discord caps a string option at 6000. */
export const textOption = () => stringOption('text', { required: true, maxLength: TEXT_MAX_CHARACTERS });

export const presetOption = () => stringOption('preset', { maxLength: 100, autocomplete: true });

/** Where the audio goes (src/features/speaking/target-choice.ts: OutputChoice). */
export const outputOption = () => stringOption('output', { choices: OUTPUT_CHOICES });

const OUTPUT_CHOICES = ['voice', 'file', 'voice-message'] as const;

type Options = ChatInputCommandInteraction['options'];

/** The `output` option; absent, or a value Discord's clients could not have sent, is no choice. */
export function readOutput(options: Options): (typeof OUTPUT_CHOICES)[number] | undefined {
  const value = options.getString('output');
  return OUTPUT_CHOICES.find((choice) => choice === value);
}

/** Which voice speaks (/voices delete describes it as one of the server's cloned voices). */
export const voiceOption = (spec: SettingOptionSpec = {}) => stringSettingOption(SPEECH_SETTINGS.voice, spec);

/** A language, as the speech setting takes it (also /voices list's filter). */
export const languageOption = () => stringSettingOption(SPEECH_SETTINGS.language);

/**
 * Adds the options of these speech settings, in this order, to a command or subcommand, each built as its
 * declaration says; `specs` makes one required or picks its description's variant (exaggeration has no description
 * of its own: /emote's and /preset's).
 */
export function withSpeechOptions<B extends SharedSlashCommandOptions<B>>(
  builder: B,
  names: readonly SpeechSettingName[],
  specs: Partial<Record<SpeechSettingName, SettingOptionSpec>> = {},
): B {
  return names.reduce((built, name) => addSettingOption(built, SPEECH_SETTINGS[name], specs[name] ?? {}), builder);
}

/**
 * Every speech setting a command was given (only those it was given), as its declaration reads it: text trimmed,
 * a language of the wrong shape refused, speed and volume refused out of range and rounded to the steps a listener
 * hears (src/core/audio/effects/audible-steps.ts). The first refused setting, in declaration order, refuses them all.
 */
export function readSpeechSettings(options: Options): SpeechSettings {
  return readSettingOptions(options, SPEECH_SETTING_LIST, null) as SpeechSettings;
}

/** The settings sent to the service a command was given (only those it was given), checked as above. */
export function readVoiceSettings(options: Options): Pick<SpeechSettings, SentSettingName> {
  return readSettingOptions(options, SENT_SETTINGS, null) as Pick<SpeechSettings, SentSettingName>;
}
