import type { ChatInputCommandInteraction } from 'discord.js';
import { quantiseSpeed, quantiseVolumeDb } from '../audio/effects/audible-steps.ts';
import { MAX_VOLUME_DB, MIN_VOLUME_DB } from '../audio/effects/gain.ts';
import { MAX_SPEED, MIN_SPEED } from '../audio/effects/time-stretch.ts';
import type { SpeechSettings } from '../store/types.ts';
import { LANGUAGE_CODE } from '../voice-catalogue/catalogue.ts';
import { numberOption, stringOption } from './command-builder.ts';
import { UserError } from './failures.ts';
import { echo } from './replies.ts';

// The speech options several commands share (/say, /emote, /preset save, /myvoice set), declared and read in
// one place so they are named, localised and checked alike everywhere.

/** The text to speak (/say, /emote). Discord caps a string option at 6000; long text is split into requests. */
export const textOption = () => stringOption('text', { required: true, maxLength: 4000 });

/** Which voice speaks; /voices delete describes it as one of the server's cloned voices. */
export const voiceOption = (spec: { required?: boolean; description?: 'voices' } = {}) =>
  stringOption('voice', { ...spec, maxLength: 100, autocomplete: true });

export const languageOption = () => stringOption('language', { maxLength: 20, autocomplete: true });

export const formatOption = () => stringOption('format', { choices: ['wav', 'mp3'] });

export const toneOption = () => stringOption('tone', { maxLength: 200 });

/** How strongly /emote shows emotion: /emote's own option, and a preset's setting for it. */
export const exaggerationOption = (description: 'emote' | 'preset') =>
  numberOption('exaggeration', { description, min: 0, max: 1 });

/** How fast the voice speaks, pitch kept (/say, /emote). */
export const speedOption = () => numberOption('speed', { min: MIN_SPEED, max: MAX_SPEED });

/** Louder or quieter, in dB (/say, /emote). */
export const volumeOption = () => numberOption('volume', { min: MIN_VOLUME_DB, max: MAX_VOLUME_DB });

export const presetOption = () => stringOption('preset', { maxLength: 100, autocomplete: true });

/** Where the audio goes (bot/speak.ts: OutputChoice). */
export const outputOption = () => stringOption('output', { choices: OUTPUT_CHOICES });

const OUTPUT_CHOICES = ['voice', 'file', 'voice-message'] as const;

type Options = ChatInputCommandInteraction['options'];

/** A trimmed string option, undefined when absent or blank. */
export function readText(options: Options, name: string): string | undefined {
  return options.getString(name)?.trim() || undefined;
}

/** The `output` option; absent, or a value Discord's clients could not have sent, is no choice. */
export function readOutput(options: Options): (typeof OUTPUT_CHOICES)[number] | undefined {
  const value = options.getString('output');
  return OUTPUT_CHOICES.find((choice) => choice === value);
}

/**
 * The speed and volume a command was given (only those it was given), in the steps a listener hears
 * (src/core/audio/effects/audible-steps.ts): what is stored, keyed, rendered and shown. Discord enforces the options' ranges for its own
 * clients; a crafted value outside them is refused here, before anything is paid.
 */
export function readAudioSettings(options: Options): Pick<SpeechSettings, 'speed' | 'volume'> {
  const speed = options.getNumber('speed');
  const volume = options.getNumber('volume');
  if (speed !== null && !(speed >= MIN_SPEED && speed <= MAX_SPEED))
    throw new UserError('error.input.speed', { value: String(speed) });
  if (volume !== null && !(volume >= MIN_VOLUME_DB && volume <= MAX_VOLUME_DB))
    throw new UserError('error.input.volume', { value: String(volume) });
  return {
    ...(speed === null ? {} : { speed: quantiseSpeed(speed) }),
    ...(volume === null ? {} : { volume: quantiseVolumeDb(volume) }),
  };
}

/** Every speech setting a command was given, voice and audio alike (only those it was given), checked as below. */
export function readSpeechSettings(options: Options): SpeechSettings {
  return { ...readVoiceSettings(options), ...readAudioSettings(options) };
}

/** The settings sent to the service a command was given (only those it was given). A malformed language is refused. */
export function readVoiceSettings(options: Options): Omit<SpeechSettings, 'speed' | 'volume'> {
  const settings: Omit<SpeechSettings, 'speed' | 'volume'> = {};
  const voice = readText(options, 'voice');
  const language = readText(options, 'language');
  const tone = readText(options, 'tone');
  const format = options.getString('format');
  const exaggeration = options.getNumber('exaggeration');
  if (language !== undefined && !LANGUAGE_CODE.test(language))
    throw new UserError('error.input.unknownLanguage', { language: echo(language, 20) });
  if (voice !== undefined) settings.voice = voice;
  if (language !== undefined) settings.language = language;
  if (tone !== undefined) settings.tone = tone;
  if (format === 'wav' || format === 'mp3') settings.format = format;
  if (exaggeration !== null) settings.exaggeration = exaggeration;
  return settings;
}
