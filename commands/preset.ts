import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction, type SlashCommandStringOption } from 'discord.js';
import { answerSpeechAutocomplete } from '../src/bot/autocomplete.ts';
import type { CommandContext, CommandModule } from '../src/bot/command.ts';
import { UserError } from '../src/bot/failures.ts';
import { t } from '../src/bot/i18n.ts';
import { fitLines } from '../src/bot/listing.ts';
import { exaggerationOption, formatOption, languageOption, readText, readVoiceSettings, toneOption, voiceOption } from '../src/bot/options.ts';
import { requireManageGuild } from '../src/bot/permissions.ts';
import { echo, showContent, showResult } from '../src/bot/replies.ts';
import { describeSettings, presetLine } from '../src/bot/speech-settings.ts';
import { usableVoice } from '../src/speech/voice-access.ts';
import { NAME_MAX_LENGTH, isValidName, tidyName } from '../src/store/names.ts';

/** Enough for any real server; keeps /preset list and autocomplete short and a runaway admin bounded. */
export const MAX_PRESETS_PER_GUILD = 100;

const nameOption = (o: SlashCommandStringOption, autocomplete: boolean) =>
  o
    .setName('name')
    .setNameLocalizations({ ko: '이름', ja: '名前' })
    .setDescription('The preset name')
    .setDescriptionLocalizations({ ko: '프리셋 이름', ja: 'プリセットの名前' })
    .setMaxLength(autocomplete ? 100 : NAME_MAX_LENGTH)
    .setAutocomplete(autocomplete);

export const data = new SlashCommandBuilder()
  .setName('preset')
  .setNameLocalizations({ ko: '프리셋', ja: 'プリセット' })
  .setDescription("This server's voice presets")
  .setDescriptionLocalizations({ ko: '이 서버의 음성 프리셋', ja: 'このサーバーの音声プリセット' })
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) =>
    s
      .setName('save')
      .setNameLocalizations({ ko: '저장', ja: '保存' })
      .setDescription('Save a preset (needs Manage Server); a preset of the same name is replaced')
      .setDescriptionLocalizations({ ko: '프리셋 저장 (서버 관리 권한 필요). 같은 이름은 덮어씁니다', ja: 'プリセットを保存（サーバー管理権限が必要）。同名は上書き' })
      .addStringOption((o) => nameOption(o, false).setRequired(true))
      .addStringOption((o) => voiceOption(o).setRequired(true))
      .addStringOption(languageOption)
      .addStringOption(toneOption)
      .addNumberOption(exaggerationOption)
      .addStringOption(formatOption),
  )
  .addSubcommand((s) =>
    s
      .setName('delete')
      .setNameLocalizations({ ko: '삭제', ja: '削除' })
      .setDescription('Delete a preset (needs Manage Server)')
      .setDescriptionLocalizations({ ko: '프리셋 삭제 (서버 관리 권한 필요)', ja: 'プリセットを削除（サーバー管理権限が必要）' })
      .addStringOption((o) => nameOption(o, true).setRequired(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('list')
      .setNameLocalizations({ ko: '목록', ja: '一覧' })
      .setDescription("List this server's presets")
      .setDescriptionLocalizations({ ko: '이 서버의 프리셋 목록', ja: 'このサーバーのプリセット一覧' }),
  )
  .addSubcommand((s) =>
    s
      .setName('default')
      .setNameLocalizations({ ko: '기본값', ja: 'デフォルト' })
      .setDescription("Set the server's default preset, or clear it when no name is given (needs Manage Server)")
      .setDescriptionLocalizations({
        ko: '서버 기본 프리셋 지정, 이름을 비우면 해제 (서버 관리 권한 필요)',
        ja: 'サーバーのデフォルトプリセットを設定。名前を省略すると解除（サーバー管理権限が必要）',
      })
      .addStringOption((o) => nameOption(o, true)),
  );

type Handler = (interaction: ChatInputCommandInteraction<'cached'>, context: CommandContext) => Promise<void>;

const save: Handler = async (interaction, { store }) => {
  requireManageGuild(interaction);
  const name = tidyName(interaction.options.getString('name', true));
  if (!isValidName(name)) throw new UserError('error.preset.badName');
  const settings = readVoiceSettings(interaction.options);
  const voice = (await usableVoice(store, interaction.guildId, settings.voice ?? '')).voiceId;
  const result = await store.savePreset(
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
  requireManageGuild(interaction);
  const name = interaction.options.getString('name', true);
  const deleted = await store.deletePreset(interaction.guildId, name);
  if (!deleted) throw new UserError('error.preset.unknown', { name: echo(name, 40) });
  await showResult(interaction, deleted.wasDefault ? 'preset.deletedDefault' : 'preset.deleted', { name: deleted.preset.name });
};

const setDefault: Handler = async (interaction, { store }) => {
  requireManageGuild(interaction);
  const name = readText(interaction.options, 'name');
  if (name === undefined) {
    await store.setDefaultPreset(interaction.guildId, null);
    await showResult(interaction, 'preset.defaultCleared');
    return;
  }
  if (!(await store.setDefaultPreset(interaction.guildId, name))) throw new UserError('error.preset.unknown', { name: echo(name, 40) });
  const preset = await store.getDefaultPreset(interaction.guildId);
  await showResult(interaction, 'preset.defaultSet', { name: preset?.name ?? name, settings: preset ? describeSettings(interaction.locale, preset) : '' });
};

const list: Handler = async (interaction, { store }) => {
  const [presets, current] = await Promise.all([store.listPresets(interaction.guildId), store.getDefaultPreset(interaction.guildId)]);
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

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const handler = HANDLERS[interaction.options.getSubcommand(true)];
  if (!handler) throw new Error(`no handler for /preset ${interaction.options.getSubcommand(true)}`);
  await handler(interaction, context);
};

/** `name` of delete/default offers this server's presets; save's options offer voices and languages. */
export const autocomplete: CommandModule['autocomplete'] = (interaction, context) => answerSpeechAutocomplete(interaction, context, ['name']);
