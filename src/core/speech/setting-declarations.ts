// The speech settings a command, a preset and a member's defaults may fix, each declared once: its value's type,
// range or choices, default, store column, slash option and the way /preset and /myvoice show it. Everything else
// is derived from here: the store's row mapping both ways (src/core/store/rows.ts, used by
// src/core/store/areas/presets.ts and src/core/store/areas/member-defaults.ts), the options /say, /emote, /preset save
// and /myvoice set offer, their reading and refusals (src/core/interactions/options.ts), the settings /preset and
// /myvoice show (src/core/frontend/speech-settings.ts), the layers' resolution and built-in defaults
// (src/core/speech/settings.ts) and what `/myvoice clear what:voice` forgets
// (commands/myvoice.ts).
//
// A new setting touches: its field in SpeechSettings and its declaration below; its behaviour (the request sent to
// the service, src/core/speech/settings.ts and src/core/speech/pipeline.ts, or the audio, src/core/audio/); its
// strings (`option.<name>` and its description, the clause it is shown in: src/core/i18n/); a migration step adding
// its column to presets and member_defaults (src/core/store/migrations.ts, src/core/store/pg-migrations.ts) and the
// column's type in src/core/store/schema.ts (tsc holds it to SpeechSettingColumns through rows.ts); its test
// (test/core/speech/setting-declarations.test.ts). /preset save and /myvoice set offer every setting by themselves; /say
// and /emote name the settings they offer, in their released order, so one they should offer is named there too.
import { quantiseSpeed, quantiseVolumeDb } from '../audio/effects/audible-steps.ts';
import { MAX_VOLUME_DB, MIN_VOLUME_DB } from '../audio/effects/gain.ts';
import { MAX_SPEED, MIN_SPEED } from '../audio/effects/time-stretch.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { LANGUAGE_CODE } from '../voice-catalogue/preset-voices.ts';

export type OutputFormat = 'wav' | 'mp3';

/**
 * How a text is spoken: the settings a command, a preset or a member default may fix; each one left out falls
 * through to the next layer (src/core/speech/settings.ts). Speed and volume among them: SayBot applies those two to the
 * audio itself (never sent to the service, so never paid for), yet every layer resolves them in the same order.
 */
export interface SpeechSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: OutputFormat;
  /** 0.5..2 times as fast, pitch kept: applied by SayBot to the audio, never sent to (nor paid at) the service. */
  speed?: number;
  /** Gain in dB, -20..+6: applied by SayBot to the audio. */
  volume?: number;
}

export type SpeechSettingName = keyof SpeechSettings;

/**
 * Options the catalogue describes (`option.<name>.description`, or a command's `option.<name>.description.<variant>`).
 */
type OptionName = { [K in MessageKey]: K extends `option.${infer O}.description${string}` ? O : never }[MessageKey];

/** A command's own variant of an option's description (`option.<name>.description.<variant>`): 'emote', 'preset'. */
export type DescriptionVariant = {
  [K in MessageKey]: K extends `option.${string}.description.${infer V}` ? V : never;
}[MessageKey];

/** A type alias, not an interface: a refusal passes it on as its message's parameters. */
type Range = { readonly min: number; readonly max: number };

/**
 * How /preset and /myvoice show a setting: its value as `code`, a language's name with its code, upper case, a
 * number, or a signed number; in a clause (`settings.*`) with the value as its parameter, or alone.
 */
interface Shown {
  readonly as: 'code' | 'language' | 'upper' | 'number' | 'signed';
  readonly clause?: { readonly key: MessageKey; readonly param: string };
  /** The most characters of the value shown (a member's free text, cut and cleaned like any echo). */
  readonly echoed?: number;
}

interface Common {
  /** The column of presets and member_defaults holding it (NULL: not fixed, so the next layer's applies). */
  readonly column: string;
  /** The slash option that sets it, kept as released. */
  readonly option: OptionName;
  /** Who applies it: the service (sent with the request, part of what is paid) or SayBot (to the audio). */
  readonly appliedBy: 'service' | 'saybot';
  readonly shown: Shown;
}

/**
 * Free text, trimmed (blank: not given), as a string option of at most maxLength characters. A value not of
 * `shape` is refused with its key, the value echoed (at most maxLength) as its parameter.
 */
export interface TextSetting extends Common {
  readonly kind: 'text';
  readonly maxLength: number;
  readonly autocomplete: boolean;
  readonly shape?: { readonly pattern: RegExp; readonly refusal: MessageKey; readonly param: string };
}

/**
 * A number within a range, as a number option. With a refusal, a value outside the range (a crafted one: Discord
 * enforces it) is refused, `value` its parameter; without, it is checked where it is used. `step` rounds a value
 * to the steps a listener hears: what is stored, keyed, rendered and shown.
 */
export interface NumberSetting extends Common {
  readonly kind: 'number';
  readonly range: Range;
  readonly default?: number;
  readonly refusal?: MessageKey;
  readonly step?: (value: number) => number;
}

/** One of a few values, offered as choices (`choice.<option>.<value>`); any other value is no choice. */
export interface ChoiceSetting<V extends string> extends Common {
  readonly kind: 'choice';
  readonly values: readonly V[];
  readonly default?: V;
}

/** The declaration a setting of value type V takes. */
type DeclarationOf<V> = [V] extends [number]
  ? NumberSetting
  : string extends V
    ? TextSetting
    : ChoiceSetting<V & string>;

type Declarations = { readonly [K in SpeechSettingName]-?: DeclarationOf<Exclude<SpeechSettings[K], undefined>> };

export type SpeechSettingDeclaration = Declarations[SpeechSettingName];

/**
 * Every speech setting, in the order /preset save offers them and /preset and /myvoice show them (the type makes
 * each setting declared exactly once).
 */
export const SPEECH_SETTINGS = {
  voice: {
    // No default here: the built-in voice depends on the server's language or the command (settings.ts).
    kind: 'text',
    maxLength: 100,
    autocomplete: true,
    column: 'voice',
    option: 'voice',
    appliedBy: 'service',
    shown: { as: 'code' },
  },
  language: {
    // Absent: the service detects it from the text.
    kind: 'text',
    maxLength: 20,
    autocomplete: true,
    shape: { pattern: LANGUAGE_CODE, refusal: 'error.input.unknownLanguage', param: 'language' },
    column: 'language',
    option: 'language',
    appliedBy: 'service',
    shown: { as: 'language' },
  },
  tone: {
    kind: 'text',
    maxLength: 200,
    autocomplete: false,
    column: 'tone',
    option: 'tone',
    appliedBy: 'service',
    shown: { as: 'code', clause: { key: 'settings.tone', param: 'tone' }, echoed: 60 },
  },
  exaggeration: {
    // No refusal when given: /emote refuses a value out of range once the layers are resolved (a preset's too),
    // and /emote's own default (0.5) is the command's, not every request's.
    kind: 'number',
    range: { min: 0, max: 1 },
    column: 'exaggeration',
    option: 'exaggeration',
    appliedBy: 'service',
    shown: { as: 'number', clause: { key: 'settings.exaggeration', param: 'value' } },
  },
  format: {
    kind: 'choice',
    values: ['wav', 'mp3'],
    default: 'wav',
    column: 'format',
    option: 'format',
    appliedBy: 'service',
    shown: { as: 'upper' },
  },
  speed: {
    kind: 'number',
    range: { min: MIN_SPEED, max: MAX_SPEED },
    default: 1,
    refusal: 'error.input.speed',
    step: quantiseSpeed,
    column: 'speed',
    option: 'speed',
    appliedBy: 'saybot',
    shown: { as: 'number', clause: { key: 'settings.speed', param: 'value' } },
  },
  volume: {
    kind: 'number',
    range: { min: MIN_VOLUME_DB, max: MAX_VOLUME_DB },
    default: 0,
    refusal: 'error.input.volume',
    step: quantiseVolumeDb,
    column: 'volume',
    option: 'volume',
    appliedBy: 'saybot',
    shown: { as: 'signed', clause: { key: 'settings.volume', param: 'value' } },
  },
} as const satisfies Declarations;

/** The declarations with their settings' names, in declaration order. */
export const SPEECH_SETTING_LIST = Object.entries(SPEECH_SETTINGS) as ReadonlyArray<
  [SpeechSettingName, SpeechSettingDeclaration]
>;

/** Every setting's name, in declaration order. */
export const SPEECH_SETTING_NAMES: readonly SpeechSettingName[] = SPEECH_SETTING_LIST.map(([name]) => name);

type DeclaredSettings = typeof SPEECH_SETTINGS;

/** Each setting's column, by the setting's name. */
export const SPEECH_SETTING_COLUMNS = Object.fromEntries(
  SPEECH_SETTING_LIST.map(([name, declared]) => [name, declared.column]),
) as { readonly [K in SpeechSettingName]: DeclaredSettings[K]['column'] };

/** What each setting's column holds (NULL: not fixed): text, a number, one of a choice's values. */
type ColumnOf<D> = D extends { kind: 'number' }
  ? number | null
  : D extends { kind: 'choice'; values: ReadonlyArray<infer V> }
    ? V | null
    : string | null;

/** The columns the settings declare (in presets and member_defaults alike), typed for schema.ts. */
export type SpeechSettingColumns = {
  [K in SpeechSettingName as DeclaredSettings[K]['column']]: ColumnOf<DeclaredSettings[K]>;
};
