// A submitted form read as a slash command's options: the settings kit's readSettingOptions (and so every
// declared setting's range, shape, choices and refusal) applies to the dashboard's form unchanged, instead of a copy
// of those rules. Only what the kit asks of the options is given.
import type { ChatInputCommandInteraction } from 'discord.js';

type Options = ChatInputCommandInteraction['options'];

/**
 * Form fields (strings), one per option name; an empty field is an option not given, and so is one still as the page
 * loaded it (changedFields).
 */
export function formOptions(submitted: Readonly<Record<string, string>>): Options {
  const fields = changedFields(submitted);
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

/** A field's value as the page showed it, sent beside the field as `was_<name>` (pages/member-pages.ts, field). */
export const LOADED_PREFIX = 'was_';

/**
 * The fields the person changed: each field sent with its value as loaded and still equal to it is left out (a
 * missing field is a setting left as it stands now), the loaded values themselves too. A field sent alone (a
 * switch's inline save) is a change.
 */
export function changedFields(fields: Readonly<Record<string, string>>): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(LOADED_PREFIX)) continue;
    const loaded = fields[LOADED_PREFIX + name];
    if (loaded !== undefined && loaded.trim() === value.trim()) continue;
    changed[name] = value;
  }
  return changed;
}
