// The speech settings, each declared once: type, range or choices, default, column, slash option, display, and who
// applies it (the service, by request field and cache-key place, or SayBot as an effect, kept to the steps a listener
// hears); all else is derived (test/structure/declared-once.test.ts). A new setting: its field and declaration here,
// its behaviour, strings (src/core/i18n/), a migration (src/core/store/migrations.ts) and column
// (src/core/store/schema.ts), its test.
import { LANGUAGE_CODE } from '../voice-catalogue/voices.ts';
import { MAX_PITCH_SEMITONES } from '../audio/effects/pitch-shift.ts';
import { MAX_VOLUME_DB, MIN_VOLUME_DB } from '../audio/effects/gain.ts';
import { MAX_SPEED, MIN_SPEED } from '../audio/effects/time-stretch.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { ColumnsOf, DeclarationOf } from './setting-types.ts';

/** The audio file the service makes: WAV or MP3. */
export type FileFormat = 'wav' | 'mp3';

/** How a text is spoken; each setting left out falls to the next layer (src/core/sourcing/voice-choice.ts). */
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

/** Options the catalogue describes (`option.<name>.description`, or `.description.<variant>` per command). */
type OptionName = { [K in MessageKey]: K extends `option.${infer O}.description${string}` ? O : never }[MessageKey];

/** The Voice API's endpoints a speech request goes to. */
export type SpeechEndpoint = 'tts' | 'emotion';

/** Sent to the service: its field in each endpoint's body that takes it, and its place in the cache key (`keyed`). */
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

type SpeechSettingDeclaration = SpeechDeclarations[SpeechSettingName];

// Speed and volume in steps a listener can tell apart: every distinct value is a cache entry and a render, so values
// closer than heard (~5 % tempo, 0.5 dB, half loudness's JND) fold to one; the zero step needs no work
// (src/core/audio/effects/effect-types.ts changesAudio).
const SPEED_STEP = 0.05;
const VOLUME_STEP_DB = 0.5;

/** `value` on the nearest multiple of `step`, within min..max, as a short decimal (1.1, not 1.1000000000000001). */
function onStep(value: number, step: number, min: number, max: number): number {
  const stepped = Math.round(value / step) * step;
  // Two decimals hold every step here; `+ 0` turns -0 into 0, so it prints and keys like 0.
  return Number(Math.min(max, Math.max(min, stepped)).toFixed(2)) + 0;
}

export function quantiseSpeed(speed: number): number {
  return onStep(speed, SPEED_STEP, MIN_SPEED, MAX_SPEED);
}

export function quantiseVolumeDb(volumeDb: number): number {
  return onStep(volumeDb, VOLUME_STEP_DB, MIN_VOLUME_DB, MAX_VOLUME_DB);
}

/** A pitch shift in whole semitones (a semitone is well above what a listener notices), within an octave. */
export function quantisePitch(semitones: number): number {
  return onStep(semitones, 1, -MAX_PITCH_SEMITONES, MAX_PITCH_SEMITONES);
}

/** Every speech setting, in the order /preset save offers and /preset and /myvoice show them. */
export const SPEECH_SETTINGS = {
  voice: {
    // No default: the built-in voice depends on the server's language or the command (src/core/sourcing/voice-choice.ts).
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
    // No refusal here: /emote refuses out-of-range values once the layers are resolved; its default (0.5) is its own.
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
