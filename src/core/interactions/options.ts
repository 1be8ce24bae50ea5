// A command's options: a declared setting's slash option built and read as its declaration says (setting-types.ts,
// src/core/settings/setting-declarations.ts), and the options /say, /emote, /preset save and /myvoice set share. The
// layers below those options and the voice they choose: src/core/sourcing/voice-choice.ts.
import type { ChatInputCommandInteraction, SharedSlashCommandOptions, SlashCommandStringOption } from 'discord.js';
import type { MessageKey } from '../i18n/catalogue.ts';
import {
  SENT_SETTINGS,
  SPEECH_SETTING_LIST,
  SPEECH_SETTINGS,
  type SentSettingName,
  type SpeechSettingName,
  type SpeechSettings,
} from '../settings/setting-declarations.ts';
import type { ChoiceSetting, SettingDeclaration, TextSetting } from '../settings/setting-types.ts';
import { booleanOption, integerOption, numberOption, roleOption, stringOption } from './command-builder.ts';
import { UserError } from './failures.ts';
import { echo } from './replies.ts';

/** A command's own variant of an option's description (`option.<name>.description.<variant>`): 'emote', 'preset'. */
type DescriptionVariant = {
  [K in MessageKey]: K extends `option.${string}.description.${infer V}` ? V : never;
}[MessageKey];

/** What a command says of one setting's option: required, or described by its own variant of the description. */
export interface SettingOptionSpec {
  required?: boolean;
  description?: DescriptionVariant;
}

/** An option's name and description variant, passed as one (the builders type them together per option). */
type AnyOption = 'voice';
type AnySpec = { required?: boolean; description?: 'voices' };

/** Adds the setting's option to a command or subcommand, as its declaration says. */
export function addSettingOption<B extends SharedSlashCommandOptions<B>>(
  builder: B,
  declared: SettingDeclaration,
  spec: SettingOptionSpec = {},
): B {
  const name = declared.option as AnyOption;
  const given = spec as AnySpec;
  switch (declared.kind) {
    case 'flag':
      return builder.addBooleanOption(booleanOption(name, given));
    case 'integer':
      return builder.addIntegerOption(integerOption(name, { ...given, ...declared.range }));
    case 'number':
      return builder.addNumberOption(numberOption(name, { ...given, ...declared.range }));
    case 'role':
      return builder.addRoleOption(roleOption(name, given));
    case 'choice':
    case 'text':
      return builder.addStringOption(stringSettingOption(declared, spec));
  }
}

/** A text or choice setting's string option: its length and autocomplete, or its choices. */
export function stringSettingOption(
  declared: TextSetting | ChoiceSetting<string>,
  spec: SettingOptionSpec = {},
): SlashCommandStringOption {
  const name = declared.option as AnyOption;
  const given = spec as AnySpec;
  if (declared.kind === 'choice') {
    const choices = declared.none === undefined ? declared.values : [...declared.values, declared.none];
    return stringOption(name, { ...given, choices: choices as never[] });
  }
  return stringOption(name, {
    ...given,
    maxLength: declared.maxLength,
    ...(declared.autocomplete ? { autocomplete: true } : {}),
  });
}

type Options = ChatInputCommandInteraction['options'];

/** A trimmed string option, undefined when absent or blank. */
export function readText(options: Options, name: string): string | undefined {
  return options.getString(name)?.trim() || undefined;
}

/** A value the option gives: undefined when not given, null when it clears the setting. */
type GivenValue = string | number | boolean | null | undefined;

/** One setting's value from its option: undefined when absent, null when cleared; a bad one refused before paying. */
export function readSettingOption(options: Options, declared: SettingDeclaration, guildId: string | null): GivenValue {
  const name = declared.option;
  switch (declared.kind) {
    case 'flag':
      return options.getBoolean(name) ?? undefined;
    case 'integer':
    case 'number': {
      const value = declared.kind === 'integer' ? options.getInteger(name) : options.getNumber(name);
      if (value === null) return undefined;
      // Discord enforces the range for its own clients; a crafted value is refused all the same.
      const { min, max } = declared.range;
      if (declared.refusal !== undefined && !(value >= min && value <= max))
        throw new UserError(declared.refusal.key, declared.refusal.params ?? { value: String(value) });
      return declared.step === undefined ? value : declared.step(value);
    }
    case 'role': {
      const role = options.getRole(name);
      // @everyone as the role means "no role".
      return role === null ? undefined : role.id === guildId ? null : role.id;
    }
    case 'choice': {
      const value = options.getString(name);
      if (value === null) return undefined;
      if (value === declared.none) return null;
      const choice = declared.values.find((known) => known === value);
      // Discord offers only the choices; a crafted value is refused, or is no choice.
      if (choice === undefined && declared.refusal !== undefined) throw new UserError(declared.refusal);
      return choice;
    }
    case 'text': {
      const typed = readText(options, name);
      if (typed === undefined) return undefined;
      const value = declared.tidy === undefined ? typed : declared.tidy(typed);
      if (declared.none !== undefined && value.toLowerCase() === declared.none) return null;
      const shape = declared.shape;
      if (shape !== undefined && (value.length > declared.maxLength || !shape.pattern.test(value)))
        throw new UserError(
          shape.refusal,
          shape.param === undefined ? {} : { [shape.param]: echo(value, declared.maxLength) },
        );
      return value;
    }
  }
}

/** The settings among `list` an interaction gives, as their declarations read them; the first refused refuses all. */
export function readSettingOptions<Name extends string>(
  options: Options,
  list: ReadonlyArray<readonly [Name, SettingDeclaration]>,
  guildId: string | null,
): Partial<Record<Name, Exclude<GivenValue, undefined>>> {
  const given: Partial<Record<Name, Exclude<GivenValue, undefined>>> = {};
  for (const [name, declared] of list) {
    const value = readSettingOption(options, declared, guildId);
    if (value !== undefined) given[name] = value;
  }
  return given;
}

/** The most characters /say and /emote speak, counted as billed: NFC may make text up to three times longer. */
export const TEXT_MAX_CHARACTERS = 4000;

/** The text to speak (/say, /emote). Discord caps a string option at 6000. */
export const textOption = () => stringOption('text', { required: true, maxLength: TEXT_MAX_CHARACTERS });

export const presetOption = () => stringOption('preset', { maxLength: 100, autocomplete: true });

/** Where the audio goes (src/features/speaking/speaking-command.ts: OutputChoice). */
export const outputOption = () => stringOption('output', { choices: OUTPUT_CHOICES });

const OUTPUT_CHOICES = ['voice', 'file', 'voice-message'] as const;

/** The `output` option; absent, or a value Discord's clients could not have sent, is no choice. */
export function readOutput(options: Options): (typeof OUTPUT_CHOICES)[number] | undefined {
  const value = options.getString('output');
  return OUTPUT_CHOICES.find((choice) => choice === value);
}

/** Which voice speaks (/voices delete describes it as one of the server's cloned voices). */
export const voiceOption = (spec: SettingOptionSpec = {}) => stringSettingOption(SPEECH_SETTINGS.voice, spec);

/** A language, as the speech setting takes it (also /voices list's filter). */
export const languageOption = () => stringSettingOption(SPEECH_SETTINGS.language);

/** Adds these speech settings' options in order; `specs` makes one required or picks its description's variant. */
export function withSpeechOptions<B extends SharedSlashCommandOptions<B>>(
  builder: B,
  names: readonly SpeechSettingName[],
  specs: Partial<Record<SpeechSettingName, SettingOptionSpec>> = {},
): B {
  return names.reduce((built, name) => addSettingOption(built, SPEECH_SETTINGS[name], specs[name] ?? {}), builder);
}

/** Every speech setting a command was given, as declared (audible steps); the first refused refuses them all. */
export function readSpeechSettings(options: Options): SpeechSettings {
  return readSettingOptions(options, SPEECH_SETTING_LIST, null) as SpeechSettings;
}

/** The settings sent to the service a command was given (only those it was given), checked as above. */
export function readVoiceSettings(options: Options): Pick<SpeechSettings, SentSettingName> {
  return readSettingOptions(options, SENT_SETTINGS, null) as Pick<SpeechSettings, SentSettingName>;
}
