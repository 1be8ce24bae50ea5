// A submitted form read as a slash command's options: the settings kit's readSettingOptions (and so every
// declared setting's range, shape, choices and refusal) applies to the dashboard's form unchanged, instead of a copy
// of those rules. Only what the kit asks of the options is given.
import type { ChatInputCommandInteraction } from 'discord.js';

type Options = ChatInputCommandInteraction['options'];

/** Form fields (strings), one per option name; an empty field is an option not given. */
export function formOptions(fields: Readonly<Record<string, string>>): Options {
  const given = (name: string): string | undefined => {
    const value = fields[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const number = (name: string, integer: boolean): number | null => {
    const value = given(name);
    if (value === undefined) return null;
    const parsed = Number(value);
    // Not a number at all: outside every range, so the setting's own refusal answers it.
    if (!Number.isFinite(parsed)) return Number.NaN;
    return integer ? Math.trunc(parsed) : parsed;
  };
  const reader = {
    getString: (name: string) => given(name) ?? null,
    getBoolean: (name: string) => {
      const value = given(name);
      return value === 'true' ? true : value === 'false' ? false : null;
    },
    getInteger: (name: string) => number(name, true),
    getNumber: (name: string) => number(name, false),
    // The dashboard offers no role setting.
    getRole: () => null,
  };
  return reader as unknown as Options;
}
