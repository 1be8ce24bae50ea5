import { answerSpeechAutocomplete } from '../src/features/speaking/index.ts';
import { describeSettings } from '../src/features/speaking/index-words.ts';
import type { CommandModule, ServiceName } from '../src/core/interactions/command.ts';
import { slashCommand, stringOption, subcommand } from '../src/core/interactions/command-builder.ts';
import { describeSettings as describeDeclared } from '../src/core/interactions/setting-text.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { t } from '../src/core/i18n/catalogue.ts';
import {
  addSettingOption,
  readSettingOptions,
  readText,
  readSpeechSettings,
  withSpeechOptions,
} from '../src/core/interactions/options.ts';
import { usableVoice } from '../src/core/sourcing/voice-choice.ts';
import { SPEECH_SETTING_NAMES } from '../src/core/settings/setting-declarations.ts';
import { showContent, showResult } from '../src/core/interactions/replies.ts';
import { MEMBER_READING_LIST, type MemberReading } from '../src/features/autoread/index.ts';
import { autoreadVoiceOf, describeAutoreadVoice } from '../src/features/autoread/index-voices.ts';
import type {
  MemberDefaults,
  MemberDefaultsChange,
  MemberDefaultsField,
} from '../src/core/store/member-defaults-store.ts';
import '../src/features/presets/index.ts';

export const uses = ['config', 'engines', 'logger', 'store', 'voices'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

export const data = slashCommand('myvoice')
  .addSubcommand(
    // Every speech setting but /emote's exaggeration (a preset carries that), then auto-read's.
    MEMBER_READING_LIST.reduce(
      (built, [name, declared]) =>
        addSettingOption(built, declared, name === 'spokenName' ? { description: 'myvoice' } : {}),
      withSpeechOptions(
        subcommand('myvoice.set'),
        SPEECH_SETTING_NAMES.filter((name) => name !== 'exaggeration'),
      ),
    ),
  )
  .addSubcommand(
    subcommand('myvoice.clear').addStringOption(stringOption('what', { choices: ['all', 'voice', 'name'] })),
  )
  .addSubcommand(subcommand('myvoice.show'));

/**
 * What `/myvoice clear what:` forgets besides everything (`all`, the default): `voice`, the speech settings
 * (auto-read's name and read_me stay); `name`, only the name auto-read says (the voice stays). read_me is set back with
 * `/myvoice set read_me:True`.
 */
const CLEARED: Readonly<Record<'voice' | 'name', readonly MemberDefaultsField[]>> = {
  // With the voice goes the word that a voice of theirs was deleted: they chose the server's.
  voice: [...SPEECH_SETTING_NAMES, 'voiceDeleted'],
  name: ['spokenName'],
};

/** `all` when the option is left out; a value that is none of the choices (a crafted request) is refused. */
function readClearWhat(options: Parameters<typeof readText>[0]): 'all' | keyof typeof CLEARED {
  const what = readText(options, 'what') ?? 'all';
  if (what === 'all' || what === 'voice' || what === 'name') return what;
  throw new UserError('error.myvoice.badWhat');
}

/** The member's defaults in their language: the voice settings, then how auto-read treats them. */
function describeMember(locale: string, stored: MemberDefaults): string {
  const reading = describeDeclared(locale, MEMBER_READING_LIST, stored, {
    separator: ' · ',
    omitUnset: true,
  });
  return [describeSettings(locale, stored), reading].filter((part) => part !== '').join(' · ');
}

export const execute: CommandModule<Uses>['execute'] = async (interaction, { config, store, voices, engines }) => {
  const { guildId } = interaction;
  const userId = interaction.user.id;
  const saving = { engines, freeVoice: config.freeVoice, listed: voices };
  if (interaction.options.getSubcommand(true) === 'show') {
    const locale = interaction.locale;
    const [stored, voice] = await Promise.all([
      store.memberDefaults.get(guildId, userId),
      autoreadVoiceOf(store, { id: guildId, preferredLocale: interaction.guild.preferredLocale }, saving, userId),
    ]);
    const own =
      stored === undefined
        ? t(locale, 'myvoice.show.none')
        : t(locale, 'myvoice.set', { settings: describeMember(locale, stored) });
    await showContent(interaction, [own, await describeAutoreadVoice(store, guildId, locale, voice)].join(' '));
    return;
  }
  if (interaction.options.getSubcommand(true) === 'clear') {
    const what = readClearWhat(interaction.options);
    if (what === 'all') {
      await showResult(
        interaction,
        (await store.memberDefaults.clear(guildId, userId)) ? 'myvoice.cleared' : 'myvoice.none',
      );
      return;
    }
    const fields = CLEARED[what];
    const before = await store.memberDefaults.get(guildId, userId);
    if (before === undefined || fields.every((field) => before[field] === undefined)) {
      await showResult(interaction, `myvoice.clear.none.${what}`);
      return;
    }
    const left = await store.memberDefaults.unset(guildId, userId, fields);
    const locale = interaction.locale;
    const lines = [
      t(locale, `myvoice.clear.${what}`),
      ...(left === undefined ? [] : [t(locale, 'myvoice.set', { settings: describeMember(locale, left) })]),
    ];
    await showContent(interaction, lines.join(' '));
    return;
  }
  const settings: MemberDefaultsChange = {
    ...readSpeechSettings(interaction.options),
    // Neither field has a clearing value, so what the options give is a value of the field.
    ...(readSettingOptions(interaction.options, MEMBER_READING_LIST, guildId) as MemberReading),
  };
  if (Object.keys(settings).length === 0) throw new UserError('error.myvoice.nothing');
  if (settings.voice !== undefined)
    settings.voice = (await usableVoice(store, guildId, settings.voice, saving)).voiceId;
  const stored = await store.memberDefaults.set(guildId, userId, settings);
  await showResult(interaction, 'myvoice.set', { settings: describeMember(interaction.locale, stored) });
};

export const autocomplete: CommandModule<Uses>['autocomplete'] = answerSpeechAutocomplete;
