import type { ChatInputCommandInteraction } from 'discord.js';
import { answerSpeechAutocomplete } from '../src/features/speaking/index.ts';
import { describeSettings, fitLines, presetLine } from '../src/features/speaking/index-words.ts';
import type { CommandModule, ServiceName, Services } from '../src/core/interactions/command.ts';
import { slashCommand, stringOption, subcommand } from '../src/core/interactions/command-builder.ts';
import { UserError } from '../src/core/interactions/failures.ts';
import { t } from '../src/core/i18n/catalogue.ts';
import { readText, readSpeechSettings, withSpeechOptions } from '../src/core/interactions/options.ts';
import { usableVoice } from '../src/core/sourcing/voice-choice.ts';
import { SPEECH_SETTING_NAMES } from '../src/core/settings/setting-declarations.ts';
import type { Requirements } from '../src/core/interactions/preconditions.ts';
import { echo, showContent, showResult } from '../src/core/interactions/replies.ts';
import { NAME_MAX_LENGTH, isValidName, tidyName } from '../src/core/store/names.ts';
import { MAX_PRESETS_PER_GUILD } from '../src/features/presets/index.ts';

export const uses = ['config', 'engines', 'logger', 'store', 'voices'] as const satisfies readonly ServiceName[];
type Uses = (typeof uses)[number];

/** Saving names a new preset; delete and default pick one of this server's (autocomplete). */
const nameOption = (existing: boolean, required: boolean) =>
  stringOption('name', {
    description: 'preset',
    required,
    maxLength: existing ? 100 : NAME_MAX_LENGTH,
    autocomplete: existing,
  });

/** Anyone may list and use presets; changing them changes what the whole server hears. */
export const requires: Requirements = {
  subcommands: { save: { manageGuild: true }, delete: { manageGuild: true }, default: { manageGuild: true } },
};

export const data = slashCommand('preset', requires)
  .addSubcommand(
    // Every speech setting a preset holds; a preset always names its voice.
    withSpeechOptions(subcommand('preset.save').addStringOption(nameOption(false, true)), SPEECH_SETTING_NAMES, {
      voice: { required: true },
      exaggeration: { description: 'preset' },
    }),
  )
  .addSubcommand(subcommand('preset.delete').addStringOption(nameOption(true, true)))
  .addSubcommand(subcommand('preset.list'))
  .addSubcommand(subcommand('preset.default').addStringOption(nameOption(true, false)));

type Handler = (interaction: ChatInputCommandInteraction<'cached'>, context: Services<Uses>) => Promise<void>;

const save: Handler = async (interaction, { config, store, engines, voices }) => {
  const name = tidyName(interaction.options.getString('name', true));
  if (!isValidName(name)) throw new UserError('error.preset.badName');
  const settings = readSpeechSettings(interaction.options);
  const saving = { engines, freeVoice: config.freeVoice, listed: voices };
  const voice = (await usableVoice(store, interaction.guildId, settings.voice ?? '', saving)).voiceId;
  const result = await store.presets.save(
    { ...settings, voice, guildId: interaction.guildId, name, createdBy: interaction.user.id },
    { maxPerGuild: MAX_PRESETS_PER_GUILD },
  );
  if (result.status === 'full') throw new UserError('error.preset.full', { limit: result.limit });
  await showResult(interaction, result.status === 'created' ? 'preset.saved' : 'preset.updated', {
    name: result.preset.name,
    settings: describeSettings(interaction.locale, result.preset),
  });
};

const remove: Handler = async (interaction, { store }) => {
  const name = interaction.options.getString('name', true);
  const deleted = await store.presets.delete(interaction.guildId, name);
  if (!deleted) throw new UserError('error.preset.unknown', { name: echo(name, 40) });
  await showResult(interaction, deleted.wasDefault ? 'preset.deletedDefault' : 'preset.deleted', {
    name: deleted.preset.name,
  });
};

const setDefault: Handler = async (interaction, { store }) => {
  const name = readText(interaction.options, 'name');
  if (name === undefined) {
    await store.presets.setDefault(interaction.guildId, null);
    await showResult(interaction, 'preset.defaultCleared');
    return;
  }
  if (!(await store.presets.setDefault(interaction.guildId, name)))
    throw new UserError('error.preset.unknown', { name: echo(name, 40) });
  const preset = await store.presets.getDefault(interaction.guildId);
  await showResult(interaction, 'preset.defaultSet', {
    name: preset?.name ?? name,
    settings: preset ? describeSettings(interaction.locale, preset) : '',
  });
};

const list: Handler = async (interaction, { store }) => {
  const [presets, current] = await Promise.all([
    store.presets.list(interaction.guildId),
    store.presets.getDefault(interaction.guildId),
  ]);
  if (presets.length === 0) {
    await showResult(interaction, 'preset.list.empty');
    return;
  }
  const locale = interaction.locale;
  const lines = presets.map((p) => `• ${presetLine(locale, p, current?.name)}`);
  const header = t(locale, 'preset.list.header', { count: presets.length });
  await showContent(interaction, [header, ...fitLines(lines, locale)].join('\n'));
};

const HANDLERS: Record<string, Handler> = { save, delete: remove, default: setDefault, list };

export const execute: CommandModule<Uses>['execute'] = async (interaction, context) => {
  const handler = HANDLERS[interaction.options.getSubcommand(true)];
  if (!handler) throw new Error(`no handler for /preset ${interaction.options.getSubcommand(true)}`);
  await handler(interaction, context);
};

/** `name` of delete/default offers this server's presets; save's options offer voices and languages. */
export const autocomplete: CommandModule<Uses>['autocomplete'] = (interaction, context) =>
  answerSpeechAutocomplete(interaction, context, ['name']);
