// A command's options and the settings a request is spoken with, top to bottom as a /say meets them: a declared
// setting's slash option built and read as its declaration says (setting-types.ts,
// src/core/settings/setting-declarations.ts), and the options /say, /emote, /preset save and /myvoice set share; then
// the layers below those options (the chosen preset, the member's /myvoice, the server's default preset, the built-in
// defaults) resolved field by field and the winning voice checked; then the request those settings make.
import type { ChatInputCommandInteraction, SharedSlashCommandOptions, SlashCommandStringOption } from 'discord.js';
import type { AudioEffects } from '../audio/effects/effect-types.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { SpeechInputError } from '../order-errors.ts';
import {
  quantiseEffects,
  SENT_SETTINGS,
  SPEECH_SETTING_LIST,
  SPEECH_SETTING_NAMES,
  SPEECH_SETTINGS,
  type SentSettingName,
  type SpeechEndpoint,
  type SpeechSettingName,
  type SpeechSettings,
} from '../settings/setting-declarations.ts';
import type { ChoiceSetting, SettingDeclaration, TextSetting } from '../settings/setting-types.ts';
import type { SentSettings, SpeechRequest } from '../settings/speech-request.ts';
import type { ClonedVoice } from '../store/voice-library-store.ts';
import type { Store } from '../store/types.ts';
import { defaultVoiceFor, isEngineVoice, isFreeVoice, isPresetVoiceId } from '../voice-catalogue/voices.ts';
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

/** What a front-end knows when it asks which settings apply. */
interface SettingsQuery {
  guildId: string;
  /** Whose /myvoice applies; null: nobody's (the server's own voice, e.g. auto-read's join and leave lines). */
  userId: string | null;
  /** The front-end's own settings (a command's options): the most specific layer. */
  options: SpeechSettings;
  /** The preset the member chose by name, if any. */
  presetName?: string | undefined;
  /** The server's preferred locale: picks the built-in voice. */
  guildLocale: string | null | undefined;
}

/** The settings a request is spoken with (three indexed reads), its winning voice checked (usableVoice). */
export async function chooseSettings(store: Store, query: SettingsQuery): Promise<ResolvedSettings> {
  const { guildId, presetName } = query;
  const [preset, member, server] = await Promise.all([
    presetName === undefined ? undefined : store.presets.get(guildId, presetName),
    query.userId === null ? undefined : store.memberDefaults.get(guildId, query.userId),
    store.presets.getDefault(guildId),
  ]);
  if (presetName !== undefined && !preset) throw new SpeechInputError({ code: 'unknown-preset', name: presetName });
  const settings = resolveSettings({
    options: query.options,
    preset: preset && { name: preset.name, settings: preset },
    member,
    server: server && { name: server.name, settings: server },
    guildLocale: query.guildLocale,
  });
  settings.voice = (await usableVoice(store, guildId, settings.voice)).voiceId;
  return settings;
}

/** Where one setting came from, most specific first. `preset` names the preset for the reply. */
type SettingSource =
  | { kind: 'option' }
  | { kind: 'preset'; preset: string }
  | { kind: 'member' }
  | { kind: 'server'; preset: string }
  | { kind: 'builtin' };

export interface SettingsLayers {
  /** The command's own options. */
  options: SpeechSettings;
  /** The preset the caller chose with the `preset` option. */
  preset?: { name: string; settings: SpeechSettings } | undefined;
  /** The caller's /myvoice defaults in this server. */
  member?: SpeechSettings | undefined;
  /** The server's default preset. */
  server?: { name: string; settings: SpeechSettings } | undefined;
  /** The server's preferred locale: picks the built-in voice (Korean, Japanese, else English). */
  guildLocale: string | null | undefined;
}

/** The settings declared with a built-in default (src/core/settings/setting-declarations.ts): they always resolve to a value. */
type DefaultedName = {
  [K in SpeechSettingName]: (typeof SPEECH_SETTINGS)[K] extends { default: unknown } ? K : never;
}[SpeechSettingName];

/** The settings that apply: the voice and every defaulted setting always, the others where a layer sets them. */
export type ResolvedSettings = SpeechSettings & { voice: string } & {
  [K in DefaultedName]-?: Exclude<SpeechSettings[K], undefined>;
} & {
  /** For every field, the layer it came from (`builtin` also for a field no layer set). */
  sources: Record<keyof SpeechSettings, SettingSource>;
};

type Field = keyof SpeechSettings;

/**
 * Which settings apply: the command's options, the chosen preset, the member's default, the server's default preset,
 * the built-in defaults; each field on its own (a preset fixing only a voice lets the member's tone through).
 */
export function resolveSettings(layers: SettingsLayers): ResolvedSettings {
  const ordered: Array<[SpeechSettings | undefined, SettingSource]> = [
    [layers.options, { kind: 'option' }],
    [layers.preset?.settings, layers.preset ? { kind: 'preset', preset: layers.preset.name } : { kind: 'builtin' }],
    [layers.member, { kind: 'member' }],
    [layers.server?.settings, layers.server ? { kind: 'server', preset: layers.server.name } : { kind: 'builtin' }],
  ];
  const values: SpeechSettings = {};
  const sources = {} as Record<Field, SettingSource>;
  for (const field of SPEECH_SETTING_NAMES) {
    const hit = ordered.find(([settings]) => settings?.[field] !== undefined);
    if (hit) (values as Record<Field, unknown>)[field] = hit[0]?.[field];
    sources[field] = hit?.[1] ?? { kind: 'builtin' };
  }
  const defaults = Object.fromEntries(
    SPEECH_SETTING_LIST.flatMap(([name, declared]) => ('default' in declared ? [[name, declared.default]] : [])),
  ) as Pick<ResolvedSettings, DefaultedName>;
  return {
    ...defaults,
    ...values,
    voice: values.voice ?? defaultVoiceFor(layers.guildLocale),
    sources,
  } as ResolvedSettings;
}

type UsableVoice =
  | { kind: 'preset'; voiceId: string }
  | { kind: 'free'; voiceId: string }
  | { kind: 'cloned'; voiceId: string; voice: ClonedVoice };

/**
 * The one check of a voice before it is used or saved. A preset-shaped ID passes unlisted (the service has 41,
 * documents 6), and so does a free voice; else a clone of *this* server, by ID or name: another server's is refused
 * exactly like an unknown one, so its existence does not leak.
 */
export async function usableVoice(
  store: Store,
  guildId: string,
  idOrName: string,
  /** Where a voice is saved: whether a free voice is offered now (offeredNow), so it is refused at once, not at each use. */
  offered?: (voiceId: string) => boolean,
): Promise<UsableVoice> {
  if (isPresetVoiceId(idOrName)) return { kind: 'preset', voiceId: idOrName };
  const code = isEngineVoice(idOrName) ? 'engine-voice-unknown' : 'free-voice-unavailable';
  if (isFreeVoice(idOrName) && offered?.(idOrName) === false) throw new SpeechInputError({ code, voice: idOrName });
  if (isFreeVoice(idOrName)) return { kind: 'free', voiceId: idOrName };
  const cloned =
    (await store.voiceLibrary.get(guildId, idOrName)) ?? (await store.voiceLibrary.findByName(guildId, idOrName));
  if (cloned) return { kind: 'cloned', voiceId: cloned.voiceId, voice: cloned };
  throw new SpeechInputError({ code: 'unknown-voice', voice: idOrName });
}

/** Whether a free voice is offered now: an engine's while its engine offers it, eSpeak NG's where members may choose it. */
export const offeredNow =
  (engineOffers: (voiceId: string) => boolean, freeVoice: { chosen: boolean }) => (voiceId: string) =>
    isEngineVoice(voiceId) ? engineOffers(voiceId) : freeVoice.chosen;

/** A text-to-speech request for `text` with the settings that apply. */
export function ttsRequest(text: string, settings: ResolvedSettings): SpeechRequest {
  return { kind: 'tts', text, ...sentSettingsOf(settings, 'tts'), format: settings.format, ...effectsOf(settings) };
}

/** The settings an endpoint is sent, of those that apply (each declared with its wire name there). */
export function sentSettingsOf(settings: ResolvedSettings, endpoint: SpeechEndpoint): { voice: string } & SentSettings {
  const sent = SENT_SETTINGS.filter(([, declared]) => declared.wire[endpoint] !== undefined);
  return { ...Object.fromEntries(sent.map(([name]) => [name, settings[name]])), voice: settings.voice };
}

/** Speed, volume and pitch as `effects`, in audible steps, left out when they change nothing. */
export function effectsOf(settings: Pick<ResolvedSettings, 'speed' | 'volume' | 'pitch'>): { effects?: AudioEffects } {
  const effects = quantiseEffects({ speed: settings.speed, volumeDb: settings.volume, pitch: settings.pitch });
  if (effects.speed === 1 && effects.volumeDb === 0 && effects.pitch === undefined) return {};
  return { effects };
}
