import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { answerSpeechAutocomplete } from '../src/bot/autocomplete.ts';
import { MAX_CHOICES } from '../src/bot/choices.ts';
import type { CommandContext, CommandModule } from '../src/bot/command.ts';
import { UserError } from '../src/bot/failures.ts';
import { t, type MessageKey } from '../src/bot/i18n.ts';
import { fitLines } from '../src/bot/listing.ts';
import { languageOption, readVoiceSettings } from '../src/bot/options.ts';
import { echo, showContent, showResult } from '../src/bot/replies.ts';
import { presetLine } from '../src/bot/speech-settings.ts';
import { languageName } from '../src/voices/catalogue.ts';

export const data = new SlashCommandBuilder()
  .setName('voices')
  .setNameLocalizations({ ko: '음성목록', ja: '音声一覧' })
  .setDescription("The voices on offer: preset voices, this server's cloned voices and presets")
  .setDescriptionLocalizations({ ko: '쓸 수 있는 음성: 기본 제공 음성, 이 서버의 복제 음성과 프리셋', ja: '使える声: プリセット音声、このサーバーのクローン音声とプリセット' })
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((c) =>
    c
      .setName('list')
      .setNameLocalizations({ ko: '목록', ja: '一覧' })
      .setDescription("The voices on offer: preset voices, this server's cloned voices and presets")
      .setDescriptionLocalizations({ ko: '쓸 수 있는 음성 목록', ja: '使える声の一覧' })
      .addStringOption(languageOption),
  )
  .addSubcommand((c) =>
    c
      .setName('delete')
      .setNameLocalizations({ ko: '삭제', ja: '削除' })
      .setDescription("Delete one of this server's cloned voices (its creator, or Manage Server)")
      .setDescriptionLocalizations({ ko: '이 서버의 복제 음성을 삭제합니다 (만든 사람 또는 서버 관리 권한)', ja: 'このサーバーのクローン音声を削除します（作成者またはサーバー管理権限）' })
      .addStringOption((o) =>
        o
          .setName('voice')
          .setNameLocalizations({ ko: '음성', ja: '声' })
          .setDescription('The cloned voice, by name or ID')
          .setDescriptionLocalizations({ ko: '복제 음성의 이름이나 ID', ja: 'クローン音声の名前または ID' })
          .setRequired(true)
          .setMaxLength(100)
          .setAutocomplete(true),
      ),
  );

/** Each of the three sections gets its share of Discord's 2000 characters, so a long one cannot hide the others. */
const SECTION_BUDGET = 600;

export const execute: CommandModule['execute'] = async (interaction, context) => {
  if (interaction.options.getSubcommand() === 'delete') await deleteVoice(interaction, context);
  else await listVoices(interaction, context);
};

/** Its creator may delete a cloned voice; so may anyone who manages the server. */
async function deleteVoice(interaction: ChatInputCommandInteraction<'cached'>, { store, speech }: CommandContext): Promise<void> {
  const wanted = interaction.options.getString('voice', true).trim();
  const voice = (await store.getClonedVoice(interaction.guildId, wanted)) ?? (await store.findClonedVoiceByName(interaction.guildId, wanted));
  if (!voice) throw new UserError('voices.notFound', { name: echo(wanted, 40) });
  if (voice.createdBy !== interaction.user.id && !interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild)) {
    throw new UserError('error.permission.deleteVoice');
  }
  await store.deleteClonedVoice(interaction.guildId, voice.voiceId);
  // Its audio goes too: nothing of a deleted voice stays on disk, and no one can hear it again from the cache.
  await speech.purgeVoice(voice.voiceId);
  await showResult(interaction, 'voices.deleted', { name: voice.name, id: voice.voiceId });
}

async function listVoices(interaction: ChatInputCommandInteraction<'cached'>, { store, voices }: CommandContext): Promise<void> {
  const { language } = readVoiceSettings(interaction.options);
  const locale = interaction.locale;
  const [cloned, presets, current] = await Promise.all([
    store.listClonedVoices(interaction.guildId),
    store.listPresets(interaction.guildId, language === undefined ? {} : { language }),
    store.getDefaultPreset(interaction.guildId),
  ]);
  const section = (title: MessageKey, lines: string[]) => [
    `**${t(locale, title)}**`,
    ...(lines.length === 0 ? [t(locale, 'voices.none')] : fitLines(lines, locale, SECTION_BUDGET)),
  ];
  const content = [
    ...section(
      'voices.presetVoices',
      voices.filter((v) => language === undefined || v.language === language).map((v) => `\`${v.id}\` ${languageName(v.language, locale)} · ${v.character}`),
    ),
    ...section('voices.cloned', cloned.map((v) => `\`${v.voiceId}\` **${v.name}** · ${v.clipSeconds.toFixed(1)} s`)),
    ...section(
      'voices.presets',
      presets.map((p) => presetLine(locale, p, current?.name)),
    ),
  ].join('\n');
  await showContent(interaction, content);
};

export const autocomplete: CommandModule['autocomplete'] = async (interaction, context) => {
  if (interaction.options.getSubcommand() !== 'delete') return answerSpeechAutocomplete(interaction, context);
  const typed = interaction.options.getFocused();
  const cloned = await context.store.listClonedVoices(interaction.guildId, { contains: typed, limit: MAX_CHOICES });
  await interaction.respond(cloned.map((v) => ({ name: `${v.name} (${v.voiceId})`.slice(0, 100), value: v.voiceId })));
};
