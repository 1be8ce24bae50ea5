// /autoread settings from the settings' declarations (src/features/autoread/reading/setting-declarations.ts): the
// options the subcommand offers, the changes an interaction's options ask for (with their refusals), and the settings
// printed by /autoread settings and show. Nothing here names one setting: a new one is declared, not added here.
import type { ChatInputCommandInteraction, SlashCommandSubcommandBuilder } from 'discord.js';
import {
  AUTO_READ_SETTING_LIST,
  type AutoReadSettingChanges,
  type AutoReadSettingDeclaration,
  type AutoReadSettings,
} from './reading/setting-declarations.ts';
import { t, type MessageKey } from './strings.ts';
import {
  booleanOption,
  integerOption,
  numberOption,
  roleOption,
  stringOption,
} from '../../core/interactions/command-builder.ts';
import { UserError } from '../../core/interactions/failures.ts';

/** Adds each declared setting's option to /autoread settings, in declaration order. */
export function withSettingOptions(subcommand: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  for (const [, declared] of AUTO_READ_SETTING_LIST) {
    const name = declared.option;
    switch (declared.kind) {
      case 'flag':
        subcommand.addBooleanOption(booleanOption(name, {}));
        break;
      case 'integer':
        subcommand.addIntegerOption(integerOption(name, declared.range));
        break;
      case 'number':
        subcommand.addNumberOption(numberOption(name, declared.range));
        break;
      case 'role':
        subcommand.addRoleOption(roleOption(name, {}));
        break;
      case 'prefix':
        subcommand.addStringOption(stringOption(name, { maxLength: declared.maxLength }));
        break;
      case 'choice':
        subcommand.addStringOption(stringOption(name, { choices: Object.keys(declared.values) as never[] }));
        break;
    }
  }
  return subcommand;
}

type Change = AutoReadSettingChanges[keyof AutoReadSettings];
const inRange = (value: number, range: { min: number; max: number }) => value >= range.min && value <= range.max;

/** One option's change: undefined when it was not given; a refusal when its value is not one the setting takes. */
function changeOf(interaction: ChatInputCommandInteraction<'cached'>, declared: AutoReadSettingDeclaration): Change {
  const options = interaction.options;
  const name = declared.option;
  switch (declared.kind) {
    case 'flag':
      return options.getBoolean(name) ?? undefined;
    case 'integer':
    case 'number': {
      const value = declared.kind === 'integer' ? options.getInteger(name) : options.getNumber(name);
      if (value === null) return undefined;
      // Discord enforces the range for its own clients; a crafted value is refused all the same.
      if (!inRange(value, declared.range)) throw new UserError(declared.refusal.key, declared.refusal.params);
      return declared.step === undefined ? value : declared.step(value);
    }
    case 'role': {
      const role = options.getRole(name);
      // @everyone as the role means "no role required".
      return role === null ? undefined : role.id === interaction.guildId ? null : role.id;
    }
    case 'prefix': {
      const prefix = options.getString(name)?.trim();
      if (prefix === undefined) return undefined;
      if (prefix.toLowerCase() === declared.none) return null;
      if (declared.shape.test(prefix)) return prefix;
      throw new UserError(declared.refusal);
    }
    case 'choice': {
      const value = options.getString(name);
      if (value === null) return undefined;
      // Discord offers only the choices; a crafted value is refused all the same.
      if (!Object.hasOwn(declared.values, value)) throw new UserError(declared.refusal);
      return value as Change;
    }
  }
}

/** The changes the options ask for; the first refused option (in declaration order) refuses them all. */
export function settingChangesOf(interaction: ChatInputCommandInteraction<'cached'>): AutoReadSettingChanges {
  const changes: Partial<Record<keyof AutoReadSettings, Change>> = {};
  for (const [setting, declared] of AUTO_READ_SETTING_LIST) {
    const change = changeOf(interaction, declared);
    if (change !== undefined) changes[setting] = change;
  }
  return changes as AutoReadSettingChanges;
}

/** One setting's value as its clause prints it, in the caller's language. */
function shownValue(
  locale: string,
  declared: AutoReadSettingDeclaration,
  value: AutoReadSettings[keyof AutoReadSettings],
): string | number {
  const none = () => t(locale, 'autoread.value.none');
  switch (declared.shown.as) {
    case 'onOff':
      return t(locale, value === true ? 'autoread.value.on' : 'autoread.value.off');
    case 'number':
      return value as number;
    case 'countOrOff':
      return value === 0 ? t(locale, 'autoread.value.off') : (value as number);
    case 'role':
      return value === undefined ? none() : `<@&${String(value)}>`;
    case 'code':
      return value === undefined ? none() : `\`${String(value)}\``;
    case 'choice': {
      if (declared.kind !== 'choice') return String(value);
      const values: Readonly<Record<string, MessageKey>> = declared.values;
      return t(locale, values[String(value)] ?? values[declared.default] ?? 'autoread.value.none');
    }
  }
}

/** The settings in the caller's language, one clause each (settings sharing a clause printed in one). */
export function describeSettings(locale: string, settings: AutoReadSettings): string {
  const clauses = new Map<MessageKey, Record<string, string | number>>();
  for (const [setting, declared] of AUTO_READ_SETTING_LIST) {
    const params = clauses.get(declared.shown.clause) ?? {};
    params[declared.shown.param] = shownValue(locale, declared, settings[setting]);
    clauses.set(declared.shown.clause, params);
  }
  return [...clauses].map(([clause, params]) => t(locale, clause, params as never)).join('; ');
}
