// The speech settings a command, a preset and a member's defaults may fix, each declared once with the core's settings
// kit (src/core/settings/): its value's type, range or choices, default, store column, slash option, the way /preset
// and /myvoice show it, and who applies it: the service (its name in each endpoint's request body, and its place in the
// cache key) or SayBot (an effect on the audio). Everything else is derived from here: the request sent and its cache
// key (src/core/settings/speech-request.ts, src/core/sourcing/part-source.ts), the store's row mapping both ways
// (src/core/store/dialect.ts, used by
// src/core/store/areas/presets.ts and src/core/store/areas/member-defaults.ts), the options /say, /emote, /preset save
// and /myvoice set offer, their reading and refusals (src/core/interactions/options.ts), the settings /preset and
// /myvoice show (src/features/speaking/speech-settings.ts), the layers' resolution and built-in defaults
// (src/core/order/order-settings.ts) and what `/myvoice clear what:voice` forgets
// (commands/myvoice.ts).
//
// A new setting touches: its field in SpeechSettings and its declaration below; its behaviour (the request sent to
// the service, src/core/order/order-settings.ts and src/core/order/pipeline.ts, or the audio, src/core/audio/); its
// strings (`option.<name>` and its description, the clause it is shown in: src/core/i18n/); a migration step adding
// its column to presets and member_defaults (src/core/store/migrations.ts, src/core/store/pg-migrations.ts) and the
// column's type in src/core/store/schema.ts (tsc holds it to SpeechSettingColumns through rows.ts); its test
// (test/core/settings/setting-declarations.test.ts). /preset save and /myvoice set offer every setting by themselves;
// /say
// and /emote name the settings they offer, in their released order, so one they should offer is named there too.
import { quantisePitch, quantiseSpeed, quantiseVolumeDb } from '../audio/effects/audible-steps.ts';
import { MAX_PITCH_SEMITONES } from '../audio/effects/pitch-shift.ts';
import { MAX_VOLUME_DB, MIN_VOLUME_DB } from '../audio/effects/gain.ts';
import { MAX_SPEED, MIN_SPEED } from '../audio/effects/time-stretch.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { ColumnsOf, DeclarationOf } from './setting-types.ts';
import { LANGUAGE_CODE } from '../voice-catalogue/preset-voices.ts';

/** The audio file the service makes: WAV or MP3. */
export type FileFormat = 'wav' | 'mp3';

/**
 * How a text is spoken: the settings a command, a preset or a member default may fix; each one left out falls
 * through to the next layer (src/core/order/order-settings.ts). Speed and volume among them: SayBot applies those two
 * to the
 * audio itself (never sent to the service, so never paid for), yet every layer resolves them in the same order.
 */
export interface SpeechSettings {
  voice?: string;
  language?: string;
  tone?: string;
  exaggeration?: number;
  format?: FileFormat;
  /** 0.5..2 times as fast, pitch kept: applied by SayBot to the audio, never sent to (nor paid at) the service. */
  speed?: number;
  /** Gain in dB, -20..+6: applied by SayBot to the audio. */
  volume?: number;
  /** Semitones higher or lower, -12..+12, the length kept: applied by SayBot to the audio. */
  pitch?: number;
}

export type SpeechSettingName = keyof SpeechSettings;

/**
 * Options the catalogue describes (`option.<name>.description`, or a command's `option.<name>.description.<variant>`).
 */
type OptionName = { [K in MessageKey]: K extends `option.${infer O}.description${string}` ? O : never }[MessageKey];

/** The Voice API's endpoints a speech request goes to. */
export type SpeechEndpoint = 'tts' | 'emotion';

/**
 * Sent to the service: the field naming it in each endpoint's request body that takes it (an endpoint without one
 * never gets it), and its place among the settings in the cache key (`keyed`, as released: requests equal in every
 * setting sent sound the same).
 */
interface SentToService {
  readonly appliedBy: 'service';
  readonly wire: { readonly [E in SpeechEndpoint]?: string };
  readonly keyed: number;
  /** The endpoint whose every request carries it (it is in that request's cache key): its type requires it there. */
  readonly requiredBy?: SpeechEndpoint;
}

/** Applied by SayBot to the audio the service made (src/core/audio/effects/): never sent, never paid for. */
interface AppliedBySayBot {
  readonly appliedBy: 'saybot';
}

type SpeechDeclarations = {
  readonly [K in SpeechSettingName]-?: DeclarationOf<Exclude<SpeechSettings[K], undefined>, OptionName> &
    (SentToService | AppliedBySayBot);
};

export type SpeechSettingDeclaration = SpeechDeclarations[SpeechSettingName];

/**
 * Every speech setting, in the order /preset save offers them and /preset and /myvoice show them (the type makes
 * each setting declared exactly once).
 */
export const SPEECH_SETTINGS = {
  voice: {
    // No default here: the built-in voice depends on the server's language or the command
    // (src/core/order/order-settings.ts).
    kind: 'text',
    maxLength: 100,
    autocomplete: true,
    column: 'voice',
    option: 'voice',
    appliedBy: 'service',
    wire: { tts: 'voice_id', emotion: 'voice' },
    keyed: 0,
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
    wire: { tts: 'language' },
    keyed: 1,
    shown: { as: 'language' },
  },
  tone: {
    kind: 'text',
    maxLength: 200,
    autocomplete: false,
    column: 'tone',
    option: 'tone',
    appliedBy: 'service',
    wire: { tts: 'tone_instruction' },
    keyed: 3,
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
    wire: { emotion: 'exaggeration' },
    keyed: 4,
    requiredBy: 'emotion',
    shown: { as: 'number', clause: { key: 'settings.exaggeration', param: 'value' } },
  },
  format: {
    kind: 'choice',
    values: ['wav', 'mp3'],
    default: 'wav',
    column: 'format',
    option: 'format',
    appliedBy: 'service',
    wire: { tts: 'output_format' },
    keyed: 2,
    requiredBy: 'tts',
    shown: { as: 'upper' },
  },
  speed: {
    kind: 'number',
    range: { min: MIN_SPEED, max: MAX_SPEED },
    default: 1,
    refusal: { key: 'error.input.speed' },
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
    refusal: { key: 'error.input.volume' },
    step: quantiseVolumeDb,
    column: 'volume',
    option: 'volume',
    appliedBy: 'saybot',
    shown: { as: 'signed', clause: { key: 'settings.volume', param: 'value' } },
  },
  pitch: {
    kind: 'number',
    range: { min: -MAX_PITCH_SEMITONES, max: MAX_PITCH_SEMITONES },
    default: 0,
    refusal: { key: 'error.input.pitch' },
    step: quantisePitch,
    column: 'pitch',
    option: 'pitch',
    appliedBy: 'saybot',
    shown: { as: 'signed', clause: { key: 'settings.pitch', param: 'value' } },
  },
} as const satisfies SpeechDeclarations;

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

/** The columns the settings declare (in presets and member_defaults alike), typed for schema.ts. */
export type SpeechSettingColumns = ColumnsOf<DeclaredSettings>;

/** The settings sent to the service (the rest SayBot applies to the audio). */
export type SentSettingName = {
  [K in SpeechSettingName]: DeclaredSettings[K]['appliedBy'] extends 'service' ? K : never;
}[SpeechSettingName];

/** The settings every request to endpoint `E` carries (declared `requiredBy` it). */
export type RequiredSettingName<E extends SpeechEndpoint> = {
  [K in SentSettingName]: DeclaredSettings[K] extends { requiredBy: E } ? K : never;
}[SentSettingName];

/** The settings sent to the service, in their cache-key order, each with its declaration. */
export const SENT_SETTINGS = SPEECH_SETTING_LIST.flatMap(([name, declared]) =>
  declared.appliedBy === 'service' ? [[name as SentSettingName, declared] as const] : [],
).sort(([, a], [, b]) => a.keyed - b.keyed);

/** The settings SayBot applies to the audio (never sent), in declaration order. */
export const EFFECT_SETTING_NAMES: readonly SpeechSettingName[] = SPEECH_SETTING_LIST.flatMap(([name, declared]) =>
  declared.appliedBy === 'saybot' ? [name] : [],
);
