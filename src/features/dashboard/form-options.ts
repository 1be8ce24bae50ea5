// A submitted form read as a slash command's options, so the settings kit's rules apply to the dashboard unchanged.
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';

type Options = ChatInputCommandInteraction['options'];

/** The form's fields and their values as loaded (was_<name>): strings, bounded (the kit then reads each as its declaration says). */
export const SettingFields = z
  .record(z.string().max(40), z.string().max(200))
  .refine((fields) => Object.keys(fields).length <= 80);

/** Form fields, one per option name; an empty field, or one still as loaded, is an option not given. */
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

/** The fields changed: one still as loaded is left out; a field sent alone (a switch's inline save) is a change. */
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
