import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { answerSpeechAutocomplete } from '../src/bot/autocomplete.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { t, type MessageKey } from '../src/bot/i18n.ts';
import { fitLines } from '../src/bot/listing.ts';
import { languageOption, readVoiceSettings } from '../src/bot/options.ts';
import { showContent } from '../src/bot/replies.ts';
import { presetLine } from '../src/bot/speech-settings.ts';
import { languageName } from '../src/voices/catalogue.ts';

export const data = new SlashCommandBuilder()
  .setName('voices')
  .setNameLocalizations({ ko: '음성목록', ja: '音声一覧' })
  .setDescription("The voices on offer: preset voices, this server's cloned voices and presets")
  .setDescriptionLocalizations({ ko: '쓸 수 있는 음성: 기본 제공 음성, 이 서버의 복제 음성과 프리셋', ja: '使える声: プリセット音声、このサーバーのクローン音声とプリセット' })
  .setContexts(InteractionContextType.Guild)
  .addStringOption(languageOption);

/** Each of the three sections gets its share of Discord's 2000 characters, so a long one cannot hide the others. */
const SECTION_BUDGET = 600;

export const execute: CommandModule['execute'] = async (interaction, { store, voices }) => {
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

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
