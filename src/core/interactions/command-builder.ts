import {
  ApplicationCommandType,
  type ChannelType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandAttachmentOption,
  SlashCommandBooleanOption,
  SlashCommandBuilder,
  SlashCommandChannelOption,
  SlashCommandIntegerOption,
  SlashCommandNumberOption,
  SlashCommandRoleOption,
  SlashCommandStringOption,
  SlashCommandSubcommandBuilder,
  SlashCommandUserOption,
  type SharedNameAndDescription,
} from 'discord.js';
import { localisations, t, type MessageKey } from '../i18n/catalogue.ts';
import { forAdminsByDefault, type MenuRequirements, type Requirements } from './preconditions.ts';

// Command definitions from the catalogue (src/core/i18n/): declared once by key, named and localised from there.

/** 'say', 'preset.save': every command and subcommand the catalogue describes (`command.<path>.description`). */
type CommandPath = { [K in MessageKey]: K extends `command.${infer P}.description` ? P : never }[MessageKey];
export type CommandName = Exclude<CommandPath, `${string}.${string}`>;
type SubcommandPath = Extract<CommandPath, `${string}.${string}`>;
/** 'speak': every message context menu the catalogue names (`menu.<name>`; a menu has a name and no description). */
type MenuName = { [K in MessageKey]: K extends `menu.${infer N}` ? N : never }[MessageKey];

/** Every option the catalogue names (`option.<name>`). */
export type OptionName = {
  [K in MessageKey]: K extends `option.${infer O}.description${string}` ? O : never;
}[MessageKey];
type Variant<O extends string> = {
  [K in MessageKey]: K extends `option.${O}.description.${infer V}` ? V : never;
}[MessageKey];
type ChoiceValue<O extends string> = { [K in MessageKey]: K extends `choice.${O}.${infer V}` ? V : never }[MessageKey];

/** Which description: the option's own (`option.<name>.description`), or a command's (`….description.<variant>`). */
type Described<O extends OptionName> = `option.${O}.description` extends MessageKey
  ? { description?: Variant<O> }
  : { description: Variant<O> };

interface Common {
  required?: boolean;
}

function named<B extends SharedNameAndDescription>(builder: B, name: MessageKey, description: MessageKey): B {
  return builder
    .setName(t('en-US', name))
    .setNameLocalizations(localisations(name))
    .setDescription(t('en-US', description))
    .setDescriptionLocalizations(localisations(description));
}

/** A slash command from the catalogue: servers only, Manage Server by default per its requirements. */
export function slashCommand(name: CommandName, requires?: Requirements): SlashCommandBuilder {
  const builder = named(new SlashCommandBuilder(), `command.${name}`, `command.${name}.description`).setContexts(
    InteractionContextType.Guild,
  );
  return forAdminsByDefault(requires) ? builder.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild) : builder;
}

/** A message context menu ("Speak") from `menu.<name>`: routed by its English name, as slashCommand else. */
export function messageMenu(
  name: MenuName,
  requires?: MenuRequirements,
): ContextMenuCommandBuilder & { readonly type: ApplicationCommandType.Message } {
  const key: MessageKey = `menu.${name}`;
  const builder = new ContextMenuCommandBuilder()
    .setType(ApplicationCommandType.Message)
    .setName(t('en-US', key))
    .setNameLocalizations(localisations(key))
    .setContexts(InteractionContextType.Guild);
  if (forAdminsByDefault(requires)) builder.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);
  return builder as ContextMenuCommandBuilder & { readonly type: ApplicationCommandType.Message };
}

/** A subcommand, 'preset.save' for /preset save; its options are added to what this returns. */
export function subcommand(path: SubcommandPath): SlashCommandSubcommandBuilder {
  return named(new SlashCommandSubcommandBuilder(), `command.${path}`, `command.${path}.description`);
}

function option<B extends SharedNameAndDescription & { setRequired(required: boolean): B }, O extends OptionName>(
  builder: B,
  name: O,
  spec: Common & { description?: string },
): B {
  const description = (
    spec.description === undefined ? `option.${name}.description` : `option.${name}.description.${spec.description}`
  ) as MessageKey;
  const built = named(builder, `option.${name}` as MessageKey, description);
  return spec.required === undefined ? built : built.setRequired(spec.required);
}

export function stringOption<O extends OptionName>(
  name: O,
  spec: Common & Described<O> & { maxLength?: number; autocomplete?: boolean; choices?: readonly ChoiceValue<O>[] },
): SlashCommandStringOption {
  const built = option(new SlashCommandStringOption(), name, spec);
  if (spec.maxLength !== undefined) built.setMaxLength(spec.maxLength);
  if (spec.autocomplete !== undefined) built.setAutocomplete(spec.autocomplete);
  if (spec.choices !== undefined) {
    built.addChoices(
      ...spec.choices.map((value) => {
        const key = `choice.${name}.${value}` as MessageKey;
        const translated = localisations(key);
        return {
          name: t('en-US', key),
          ...(Object.keys(translated).length === 0 ? {} : { name_localizations: translated }),
          value,
        };
      }),
    );
  }
  return built;
}

interface Range {
  min?: number;
  max?: number;
}

function ranged<B extends { setMinValue(min: number): B; setMaxValue(max: number): B }>(
  built: B,
  { min, max }: Range,
): B {
  if (min !== undefined) built.setMinValue(min);
  if (max !== undefined) built.setMaxValue(max);
  return built;
}

export function numberOption<O extends OptionName>(
  name: O,
  spec: Common & Described<O> & Range,
): SlashCommandNumberOption {
  return ranged(option(new SlashCommandNumberOption(), name, spec), spec);
}

export function integerOption<O extends OptionName>(
  name: O,
  spec: Common & Described<O> & Range,
): SlashCommandIntegerOption {
  return ranged(option(new SlashCommandIntegerOption(), name, spec), spec);
}

export function booleanOption<O extends OptionName>(name: O, spec: Common & Described<O>): SlashCommandBooleanOption {
  return option(new SlashCommandBooleanOption(), name, spec);
}

export function attachmentOption<O extends OptionName>(
  name: O,
  spec: Common & Described<O>,
): SlashCommandAttachmentOption {
  return option(new SlashCommandAttachmentOption(), name, spec);
}

/** A channel option offering only `types` (Discord's picker filters by them). */
export function channelOption<O extends OptionName>(
  name: O,
  spec: Common & Described<O> & { types: ReadonlyArray<ChannelType.GuildText | ChannelType.GuildVoice> },
): SlashCommandChannelOption {
  return option(new SlashCommandChannelOption(), name, spec).addChannelTypes(...spec.types);
}

export function roleOption<O extends OptionName>(name: O, spec: Common & Described<O>): SlashCommandRoleOption {
  return option(new SlashCommandRoleOption(), name, spec);
}

/** A member of the server (Discord resolves the user and their member data in the interaction). */
export function userOption<O extends OptionName>(name: O, spec: Common & Described<O>): SlashCommandUserOption {
  return option(new SlashCommandUserOption(), name, spec);
}
