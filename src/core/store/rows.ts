// What every area's row mapping shares (each area maps its own rows beside its queries): Kysely types each row from
// schema.ts, so what remains is the naming (snake_case columns, camelCase fields), milliseconds to Dates, 0/1 flags,
// and leaving out what is not set.
import type { Selectable } from 'kysely';
import type { SpeechSettings } from './common-types.ts';
import {
  SPEECH_SETTING_COLUMNS,
  SPEECH_SETTING_NAMES,
  type SpeechSettingColumns,
} from '../settings/setting-declarations.ts';
import type { Database } from './schema.ts';

export type Row<T extends keyof Database> = Selectable<Database[T]>;
type Present<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

/** Only the fields that hold a value (no null, no explicit undefined), so readers see only what is set. */
export const present = <T extends object>(fields: T): Present<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as Present<T>;

/** Only the fields given (null kept: it clears a column), for an update that leaves the others as they are. */
export const given = <T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const dateOf = (ms: number | null): Date | undefined => (ms === null ? undefined : new Date(ms));
/** A 0/1 flag column (NULL: unset). */
export const flagOf = (v: number | null): boolean | undefined => (v === null ? undefined : v !== 0);

/** The settings a row of presets or member_defaults fixes (the columns SPEECH_SETTINGS declares). */
export const speechSettingsOf = (row: SpeechSettingColumns): SpeechSettings =>
  present(
    Object.fromEntries(SPEECH_SETTING_NAMES.map((name) => [name, row[SPEECH_SETTING_COLUMNS[name]]])) as {
      [K in keyof SpeechSettings]-?: SpeechSettings[K] | null;
    },
  );

/** Each setting's column: the value a setting fixes (a column holds it as it is), `unset` for one left out. */
export const speechColumnsOf = <U extends null | undefined>(
  settings: SpeechSettings,
  unset: U,
): { [C in keyof SpeechSettingColumns]: Exclude<SpeechSettingColumns[C], null> | U } =>
  Object.fromEntries(SPEECH_SETTING_NAMES.map((name) => [SPEECH_SETTING_COLUMNS[name], settings[name] ?? unset])) as {
    [C in keyof SpeechSettingColumns]: Exclude<SpeechSettingColumns[C], null> | U;
  };
