// How one setting is declared (a speech setting, an auto-read setting): type, range or choices, default, column,
// slash option and display; the kit derives the rest (src/core/interactions/options.ts, setting-text.ts, ColumnsOf).
import type { MessageKey } from '../i18n/catalogue.ts';

/** A type alias, not an interface: a refusal passes it on as its message's parameters. */
export type Range = { readonly min: number; readonly max: number };

/** How a value is shown (as is, code, language, upper case, number, signed, on/off, count, role, choice words). */
type ShownAs =
  'text' | 'code' | 'language' | 'upper' | 'number' | 'signed' | 'onOff' | 'countOrOff' | 'role' | 'choice';

export interface Shown {
  readonly as: ShownAs;
  /** The clause it is shown in (`param` its value); settings sharing a clause are shown together, in one. */
  readonly clause?: { readonly key: MessageKey; readonly param: string };
  /** The most characters of the value shown (a member's free text, cut and cleaned like any echo). */
  readonly echoed?: number;
}

/** Why a value given is refused: its key, with its parameters (default: `value`, the value given). */
interface ValueRefusal {
  readonly key: MessageKey;
  readonly params?: Readonly<Record<string, string | number>>;
}

interface Common<Option extends string> {
  /** The column holding it (NULL: not set, so the default or the next layer applies). */
  readonly column: string;
  /** The slash option that sets it, kept as released. */
  readonly option: Option;
  readonly shown: Shown;
}

/** On or off: a boolean option, a 0/1 column. */
interface FlagSetting<Option extends string = string> extends Common<Option> {
  readonly kind: 'flag';
  readonly default: boolean;
  /** Words of its own for on and off (else the core's "on" and "off"). */
  readonly words?: { readonly on: MessageKey; readonly off: MessageKey };
}

/** A number in a range: refused out of it with a refusal, else checked where used; `step` rounds to audible steps. */
interface NumberSetting<Option extends string = string> extends Common<Option> {
  readonly kind: 'number' | 'integer';
  readonly range: Range;
  readonly default?: number;
  readonly refusal?: ValueRefusal;
  readonly step?: (value: number) => number;
}

/** Free text, trimmed, at most maxLength; not of `shape` is refused (echoed as `param`); `none` clears it. */
export interface TextSetting<Option extends string = string> extends Common<Option> {
  readonly kind: 'text';
  readonly maxLength: number;
  readonly autocomplete?: boolean;
  readonly shape?: { readonly pattern: RegExp; readonly refusal: MessageKey; readonly param?: string };
  readonly none?: string;
  /** Tidies what was typed before its shape is checked (e.g. a name's spaces); trimmed by default. */
  readonly tidy?: (typed: string) => string;
}

/** One of a few values offered as choices; a crafted other value is refused with `refusal`, or is no choice. */
export interface ChoiceSetting<V extends string, Option extends string = string> extends Common<Option> {
  readonly kind: 'choice';
  readonly values: readonly V[];
  readonly default?: V;
  readonly refusal?: MessageKey;
  readonly words?: { readonly [Value in V]: MessageKey };
  /** A further choice that clears the setting (offered after the values). */
  readonly none?: string;
}

/** A role of the server; @everyone clears it. */
interface RoleSetting<Option extends string = string> extends Common<Option> {
  readonly kind: 'role';
}

export type SettingDeclaration<Option extends string = string> =
  | FlagSetting<Option>
  | NumberSetting<Option>
  | TextSetting<Option>
  | ChoiceSetting<string, Option>
  | RoleSetting<Option>;

/** The declaration a setting of value type V takes: a flag, a number, a choice, else text (or `role`). */
export type DeclarationOf<V, Option extends string = string> = [V] extends [boolean]
  ? FlagSetting<Option>
  : [V] extends [number]
    ? NumberSetting<Option>
    : string extends V
      ? TextSetting<Option> | RoleSetting<Option>
      : ChoiceSetting<V & string, Option>;

/** Declarations for every field of the settings S, each its own type's (the type makes each declared exactly once). */
export type Declarations<S, Option extends string = string> = {
  readonly [K in keyof S]-?: DeclarationOf<Exclude<S[K], undefined>, Option>;
};

/** What a declared setting's column holds (NULL: not set): 0/1 flags and numbers, a choice's values, text. */
type ColumnOf<D> = D extends { kind: 'flag' | 'integer' | 'number' }
  ? number | null
  : D extends { kind: 'choice'; values: ReadonlyArray<infer V> }
    ? V | null
    : string | null;

/** The columns some declarations declare, each typed as it holds its setting (for the schema's Database). */
export type ColumnsOf<D extends Record<string, { column: string }>> = {
  [K in keyof D as D[K]['column']]: ColumnOf<D[K]>;
};
