import type {
  ChatInputCommandInteraction,
  SharedSlashCommandOptions,
  SlashCommandNumberOption,
  SlashCommandStringOption,
} from 'discord.js';
import {
  SPEECH_SETTING_LIST,
  SPEECH_SETTINGS,
  type SpeechSettingDeclaration,
  type SpeechSettingName,
  type ChoiceSetting,
  type DescriptionVariant,
  type NumberSetting,
  type SpeechSettings,
  type TextSetting,
} from '../speech/setting-declarations.ts';
import { numberOption, stringOption } from './command-builder.ts';
import { UserError } from './failures.ts';
import { echo } from './replies.ts';

// The options several commands share (/say, /emote, /preset save, /myvoice set): the speech settings' options,
// built and read from their declarations (src/core/speech/setting-declarations.ts), so they are named, localised and
// checked alike everywhere; the text, the preset and the output.

/** The text to speak (/say, /emote). Discord caps a string option at 6000; long text is split into requests. */
export const textOption = () => stringOption('text', { required: true, maxLength: 4000 });

export const presetOption = () => stringOption('preset', { maxLength: 100, autocomplete: true });

/** Where the audio goes (src/core/frontend/speech-delivery.ts: OutputChoice). */
export const outputOption = () => stringOption('output', { choices: OUTPUT_CHOICES });

const OUTPUT_CHOICES = ['voice', 'file', 'voice-message'] as const;

type Options = ChatInputCommandInteraction['options'];

/** A trimmed string option, undefined when absent or blank. */
export function readText(options: Options, name: string): string | undefined {
  return options.getString(name)?.trim() || undefined;
}

/** The `output` option; absent, or a value Discord's clients could not have sent, is no choice. */
export function readOutput(options: Options): (typeof OUTPUT_CHOICES)[number] | undefined {
  const value = options.getString('output');
  return OUTPUT_CHOICES.find((choice) => choice === value);
}

/** What a command says of one setting's option: required, or described by its own variant of the description. */
export interface SettingOptionSpec {
  required?: boolean;
  description?: DescriptionVariant;
}

/**
 * The command builders type an option's name and description variant together, for one option at a time; here the
 * option is any setting's, so both are passed as one option's (test/core/speech/setting-declarations.test.ts holds every
 * option built here to the one the builders make of its own name).
 */
type DeclaredSpec = { required?: boolean; description?: 'voices' };

/** The string option of a text or choice setting, as its declaration says. */
function stringSettingOption(
  declared: TextSetting | ChoiceSetting<string>,
  spec: SettingOptionSpec,
): SlashCommandStringOption {
  const option = declared.option as 'voice';
  const given = spec as DeclaredSpec;
  if (declared.kind === 'choice') return stringOption(option, { ...given, choices: declared.values as never[] });
  return stringOption(option, {
    ...given,
    maxLength: declared.maxLength,
    ...(declared.autocomplete ? { autocomplete: true } : {}),
  });
}

/** The number option of a number setting, offering its range. */
function numberSettingOption(declared: NumberSetting, spec: SettingOptionSpec): SlashCommandNumberOption {
  return numberOption(declared.option as 'speed', { ...(spec as object), ...declared.range });
}

/** Which voice speaks (/voices delete describes it as one of the server's cloned voices). */
export const voiceOption = (spec: { required?: boolean; description?: 'voices' } = {}) =>
  stringSettingOption(SPEECH_SETTINGS.voice, spec);

/** A language, as the speech setting takes it (also /voices list's filter). */
export const languageOption = () => stringSettingOption(SPEECH_SETTINGS.language, {});

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
  let built = builder;
  for (const name of names) {
    const declared: SpeechSettingDeclaration = SPEECH_SETTINGS[name];
    const spec = specs[name] ?? {};
    built =
      declared.kind === 'number'
        ? built.addNumberOption(numberSettingOption(declared, spec))
        : built.addStringOption(stringSettingOption(declared, spec));
  }
  return built;
}

type Given = SpeechSettings[SpeechSettingName];

/** One setting's value as its option gives it: undefined when not given; a refusal when its value is refused. */
function givenValue(options: Options, declared: SpeechSettingDeclaration): Given {
  const name = declared.option;
  switch (declared.kind) {
    case 'text': {
      const value = readText(options, name);
      if (value !== undefined && declared.shape !== undefined && !declared.shape.pattern.test(value))
        throw new UserError(declared.shape.refusal, { [declared.shape.param]: echo(value, declared.maxLength) });
      return value;
    }
    case 'choice': {
      // Absent, or a value Discord's clients could not have sent, is no choice.
      const value = options.getString(name);
      return declared.values.find((choice) => choice === value);
    }
    case 'number': {
      const value = options.getNumber(name);
      if (value === null) return undefined;
      // Discord enforces the range for its own clients; a crafted value is refused here, before anything is paid.
      if (declared.refusal !== undefined && !(value >= declared.range.min && value <= declared.range.max))
        throw new UserError(declared.refusal, { value: String(value) });
      return declared.step === undefined ? value : declared.step(value);
    }
  }
}

/**
 * Every speech setting a command was given (only those it was given), as its declaration reads it: text trimmed,
 * a language of the wrong shape refused, speed and volume refused out of range and rounded to the steps a listener
 * hears (src/core/audio/effects/audible-steps.ts). The first refused setting, in declaration order, refuses them all.
 */
export function readSpeechSettings(options: Options): SpeechSettings {
  return readSettings(options, () => true);
}

/** The settings sent to the service a command was given (only those it was given), checked as above. */
export function readVoiceSettings(options: Options): Omit<SpeechSettings, 'speed' | 'volume'> {
  return readSettings(options, (declared) => declared.appliedBy === 'service');
}

function readSettings(options: Options, wanted: (declared: SpeechSettingDeclaration) => boolean): SpeechSettings {
  const settings: Partial<Record<SpeechSettingName, Given>> = {};
  for (const [name, declared] of SPEECH_SETTING_LIST) {
    if (!wanted(declared)) continue;
    const value = givenValue(options, declared);
    if (value !== undefined) settings[name] = value;
  }
  return settings as SpeechSettings;
}
