// The speech settings' declarations against what is derived from them: the columns the migrations build, the row
// mapping both ways (and a real store's), the options /say, /emote, /preset save and /myvoice set offer (each
// exactly as released, built here option by option), the options' reading and refusals, the shown settings; and the
// effects kept to the steps a listener hears: near values fold to one (one render, one cache entry).
import { DatabaseSync } from 'node:sqlite';
import type { ChatInputCommandInteraction } from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteBackend } from '../../../fixtures/store-backends.ts';
import { quantiseEffects } from '../../../src/core/sourcing/part-request.ts';
import { changesAudio } from '../../../src/core/audio/effects/effect-types.ts';
import {
  quantiseSpeed,
  quantiseVolumeDb,
  SPEECH_SETTING_COLUMNS,
  SPEECH_SETTING_LIST,
  SPEECH_SETTING_NAMES,
  type SpeechSettings,
} from '../../../src/core/settings/setting-declarations.ts';
import { numberOption, stringOption } from '../../../src/core/interactions/command-builder.ts';
import { UserError } from '../../../src/core/interactions/failures.ts';
import { readSpeechSettings, readVoiceSettings } from '../../../src/core/interactions/options.ts';
import { describeSettings } from '../../../src/features/speaking/listing.ts';
import { migrate } from '../../../src/core/store/migrations.ts';
import { SCHEMA } from '../../../src/app/store.ts';
import { speechColumnsOf, speechSettingsOf } from '../../../src/core/store/dialect.ts';
import { data as say } from '../../../commands/say.ts';
import { data as emote } from '../../../commands/emote.ts';
import { data as preset } from '../../../commands/preset.ts';
import { data as myvoice } from '../../../commands/myvoice.ts';

/** Every setting fixed, each away from any default. */
const FULL: Required<SpeechSettings> = {
  voice: 'voice-b-ko-m-01',
  language: 'ko',
  tone: 'whispering',
  exaggeration: 0.7,
  format: 'mp3',
  speed: 1.5,
  volume: 3,
  pitch: -2,
};

/** The columns of a table of a freshly migrated SQLite database. */
function columnsOf(table: string): string[] {
  const db = new DatabaseSync(':memory:');
  migrate(db, SCHEMA);
  const columns = db
    .prepare(`PRAGMA table_info(${table})`)
    .all()
    .map((row) => String(row['name']));
  db.close();
  return columns;
}

describe('speech setting declarations', () => {
  it('give every setting a column of presets and of member_defaults, each its own', () => {
    const declared = SPEECH_SETTING_LIST.map(([, d]) => d.column);
    expect(new Set(declared).size).toBe(declared.length);
    for (const table of ['presets', 'member_defaults'])
      expect(
        declared.filter((column) => !columnsOf(table).includes(column)),
        table,
      ).toEqual([]);
  });

  it('keep each default inside its range, and among its values', () => {
    for (const [name, declared] of SPEECH_SETTING_LIST) {
      if (declared.kind === 'number' && declared.default !== undefined) {
        expect(declared.default, name).toBeGreaterThanOrEqual(declared.range.min);
        expect(declared.default, name).toBeLessThanOrEqual(declared.range.max);
      }
      if (declared.kind === 'choice' && declared.default !== undefined)
        expect(declared.values, name).toContain(declared.default);
    }
  });

  it('map every setting to its column and back, alone and all together; a setting left out is NULL or left out', () => {
    expect(speechSettingsOf(speechColumnsOf(FULL, null))).toEqual(FULL);
    expect(speechColumnsOf(FULL, null)).toEqual({
      voice: 'voice-b-ko-m-01',
      language: 'ko',
      tone: 'whispering',
      exaggeration: 0.7,
      format: 'mp3',
      speed: 1.5,
      volume: 3,
      pitch: -2,
    });
    for (const name of SPEECH_SETTING_NAMES) {
      const alone: SpeechSettings = { [name]: FULL[name] };
      const row = speechColumnsOf(alone, null);
      expect(
        Object.values(row).filter((value) => value !== null),
        name,
      ).toEqual([FULL[name]]);
      expect(row[SPEECH_SETTING_COLUMNS[name]], name).toBe(FULL[name]);
      expect(speechSettingsOf(row), name).toEqual(alone);
      expect(
        Object.entries(speechColumnsOf(alone, undefined)).filter(([, v]) => v !== undefined),
        name,
      ).toEqual([[SPEECH_SETTING_COLUMNS[name], FULL[name]]]);
    }
    expect(speechSettingsOf(speechColumnsOf({}, null))).toEqual({});
  });
});

describe('speech settings in a store', () => {
  const backend = sqliteBackend();
  afterAll(() => backend.stop());
  const GUILD = '200000000000000001';
  const MEMBER = '300000000000000002';

  it('keeps every setting of a preset and of a member, and forgets each when unset', async () => {
    const store = await backend.open();
    try {
      const saved = await store.presets.save({ ...FULL, guildId: GUILD, name: 'full', createdBy: MEMBER });
      expect(saved.status === 'full' ? undefined : saved.preset).toMatchObject(FULL);
      expect(await store.presets.get(GUILD, 'full')).toMatchObject(FULL);
      await store.presets.save({ guildId: GUILD, name: 'full', voice: FULL.voice, createdBy: MEMBER });
      const bare = await store.presets.get(GUILD, 'full');
      expect(SPEECH_SETTING_NAMES.filter((name) => bare?.[name] !== undefined)).toEqual(['voice']);

      expect(await store.memberDefaults.set(GUILD, MEMBER, FULL)).toMatchObject(FULL);
      for (const name of SPEECH_SETTING_NAMES) {
        await store.memberDefaults.set(GUILD, MEMBER, { ...FULL, spokenName: 'Kim' });
        const left = await store.memberDefaults.unset(GUILD, MEMBER, [name]);
        expect(left?.[name], name).toBeUndefined();
        expect(left, name).toMatchObject(Object.fromEntries(Object.entries(FULL).filter(([field]) => field !== name)));
      }
      expect(await store.memberDefaults.unset(GUILD, MEMBER, [...SPEECH_SETTING_NAMES, 'spokenName'])).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

/** The options of a command, or of one of its subcommands, as deployed. */
function optionsOf(command: { toJSON(): unknown }, subcommand?: string): unknown[] {
  const json = command.toJSON() as { options?: Array<{ name: string; options?: unknown[] }> };
  const options = json.options ?? [];
  return subcommand === undefined ? options : (options.find((option) => option.name === subcommand)?.options ?? []);
}

/** Each speech setting's option as released, built by hand, option by option. */
const RELEASED = {
  voice: (required?: boolean) =>
    stringOption('voice', { ...(required === undefined ? {} : { required }), maxLength: 100, autocomplete: true }),
  language: () => stringOption('language', { maxLength: 20, autocomplete: true }),
  tone: () => stringOption('tone', { maxLength: 200 }),
  exaggeration: (description: 'emote' | 'preset') => numberOption('exaggeration', { description, min: 0, max: 1 }),
  format: () => stringOption('format', { choices: ['wav', 'mp3'] }),
  speed: () => numberOption('speed', { min: 0.5, max: 2 }),
  volume: () => numberOption('volume', { min: -20, max: 6 }),
  // Added after the first release, offered after the others (a speech setting SayBot applies).
  pitch: () => numberOption('pitch', { min: -12, max: 12 }),
};

describe('the speech settings options', () => {
  const names = (options: unknown[]) => options.map((option) => (option as { name: string }).name);

  it('are offered by /say, /emote, /preset save and /myvoice set exactly as released, in their order', () => {
    const json = (option: { toJSON(): unknown }) => option.toJSON();
    const sayOptions = optionsOf(say);
    expect(names(sayOptions)).toEqual([
      'text',
      'voice',
      'language',
      'format',
      'tone',
      'output',
      'preset',
      'speed',
      'volume',
      'pitch',
    ]);
    expect(sayOptions.filter((_, i) => ![0, 5, 6].includes(i))).toEqual(
      [
        RELEASED.voice(),
        RELEASED.language(),
        RELEASED.format(),
        RELEASED.tone(),
        RELEASED.speed(),
        RELEASED.volume(),
        RELEASED.pitch(),
      ].map(json),
    );

    const emoteOptions = optionsOf(emote);
    expect(names(emoteOptions)).toEqual([
      'text',
      'exaggeration',
      'voice',
      'output',
      'preset',
      'speed',
      'volume',
      'pitch',
    ]);
    expect(emoteOptions.filter((_, i) => ![0, 3, 4].includes(i))).toEqual(
      [RELEASED.exaggeration('emote'), RELEASED.voice(), RELEASED.speed(), RELEASED.volume(), RELEASED.pitch()].map(
        json,
      ),
    );

    const presetOptions = optionsOf(preset, 'save');
    expect(presetOptions.slice(1)).toEqual(
      [
        RELEASED.voice(true),
        RELEASED.language(),
        RELEASED.tone(),
        RELEASED.exaggeration('preset'),
        RELEASED.format(),
        RELEASED.speed(),
        RELEASED.volume(),
        RELEASED.pitch(),
      ].map(json),
    );

    const myvoiceOptions = optionsOf(myvoice, 'set');
    expect(names(myvoiceOptions)).toEqual([
      'voice',
      'language',
      'tone',
      'format',
      'speed',
      'volume',
      'pitch',
      'name',
      'read_me',
    ]);
    expect(myvoiceOptions.slice(0, 7)).toEqual(
      [
        RELEASED.voice(),
        RELEASED.language(),
        RELEASED.tone(),
        RELEASED.format(),
        RELEASED.speed(),
        RELEASED.volume(),
        RELEASED.pitch(),
      ].map(json),
    );
  });
});

/** Options carrying these values, as discord.js reads them (null when not given). */
function optionsWith(values: Record<string, number | string>): ChatInputCommandInteraction['options'] {
  const get = (name: string) => values[name] ?? null;
  return { getNumber: get, getString: get } as unknown as ChatInputCommandInteraction['options'];
}

/** The refusal's message key and parameters, or what was read. */
function readOrRefusal(values: Record<string, number | string>): unknown {
  try {
    return readSpeechSettings(optionsWith(values));
  } catch (error) {
    return error instanceof UserError ? error.userMessage : error;
  }
}

describe('the speech settings read from options', () => {
  it('reads each given option, trimmed and rounded to the audible steps, and leaves the others out', () => {
    expect(readSpeechSettings(optionsWith({}))).toEqual({});
    expect(
      readSpeechSettings(
        optionsWith({
          voice: ' voice-b-ko-m-01 ',
          language: 'ko',
          tone: '  ',
          exaggeration: 0.7,
          format: 'mp3',
          speed: 1.52,
          volume: -3.3,
        }),
      ),
    ).toEqual({ voice: 'voice-b-ko-m-01', language: 'ko', exaggeration: 0.7, format: 'mp3', speed: 1.5, volume: -3.5 });
    // The settings sent to the service leave SayBot's audio settings out.
    expect(readVoiceSettings(optionsWith({ language: 'ja', speed: 2, volume: 1 }))).toEqual({ language: 'ja' });
  });

  it('refuses a malformed language and a crafted speed or volume, the first in declaration order; ignores an unknown format', () => {
    expect(readOrRefusal({ language: 'not a code' })).toEqual({
      key: 'error.input.unknownLanguage',
      params: { language: 'not a code' },
    });
    expect(readOrRefusal({ speed: 3 })).toEqual({ key: 'error.input.speed', params: { value: '3' } });
    expect(readOrRefusal({ volume: -21 })).toEqual({ key: 'error.input.volume', params: { value: '-21' } });
    expect(readOrRefusal({ speed: 0.4, volume: 7 })).toEqual({ key: 'error.input.speed', params: { value: '0.4' } });
    expect(readOrRefusal({ language: '!!', speed: 9 })).toMatchObject({ key: 'error.input.unknownLanguage' });
    expect(readOrRefusal({ format: 'ogg' })).toEqual({});
    // /emote refuses an exaggeration out of range once the layers are resolved, a preset's too.
    expect(readOrRefusal({ exaggeration: 2 })).toEqual({ exaggeration: 2 });
  });
});

describe('the speech settings shown', () => {
  it('shows each setting fixed, in declaration order, in its clause', () => {
    expect(describeSettings('en-US', FULL)).toBe(
      '`voice-b-ko-m-01` · Korean (ko) · tone `whispering` · exaggeration 0.7 · MP3 · speed 1.5× · volume +3 dB · pitch -2 semitones',
    );
    expect(describeSettings('en-US', { volume: -6, tone: 'a`<b>@c' })).toBe('tone `abc` · volume -6 dB');
    expect(describeSettings('en-US', { volume: 0 })).toBe('volume 0 dB');
    expect(describeSettings('en-US', {})).toBe('');
  });
});

describe('audible steps', () => {
  it('folds speed to 0.05 and volume to 0.5 dB, as short decimals, within their ranges', () => {
    expect([1.234, 1.1, 0.5, 2, 1.024, 1.026].map(quantiseSpeed)).toEqual([1.25, 1.1, 0.5, 2, 1, 1.05]);
    expect([-1.001, -1.03, -1.26, 5.9, -19.99].map(quantiseVolumeDb)).toEqual([-1, -1, -1.5, 6, -20]);
    expect(Object.is(quantiseVolumeDb(-0.2), 0)).toBe(true);
    expect(quantiseEffects({ speed: 0.999, volumeDb: 0.1 })).toEqual({ speed: 1, volumeDb: 0 });
  });

  it('keeps a pitch shift in whole semitones within an octave, and none at all when it rounds to 0', () => {
    expect(quantiseEffects({ speed: 1, volumeDb: 0, pitch: 2.6 })).toEqual({ speed: 1, volumeDb: 0, pitch: 3 });
    expect(quantiseEffects({ speed: 1, volumeDb: 0, pitch: -20 })).toEqual({ speed: 1, volumeDb: 0, pitch: -12 });
    expect(quantiseEffects({ speed: 1, volumeDb: 0, pitch: 0.3 })).toEqual({ speed: 1, volumeDb: 0 });
  });

  it('counts only effects off the zero step of speed, volume or pitch as changing the audio', () => {
    expect(changesAudio(undefined)).toBe(false);
    expect(changesAudio({ speed: 1, volumeDb: 0 })).toBe(false);
    expect(changesAudio({ speed: 1, volumeDb: 0, pitch: 0 })).toBe(false);
    expect(changesAudio({ speed: 1.05, volumeDb: 0 })).toBe(true);
    expect(changesAudio({ speed: 1, volumeDb: -0.5 })).toBe(true);
    expect(changesAudio({ speed: 1, volumeDb: 0, pitch: -1 })).toBe(true);
  });
});
