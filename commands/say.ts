import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { deliverSpeech, type OutputChoice } from '../src/bot/deliver-speech.ts';
import { UserError } from '../src/bot/failures.ts';
import { languageChoices, voiceChoices } from '../src/bot/choices.ts';
import { LANGUAGE_CODE, defaultVoiceFor, isPresetVoiceId } from '../src/voices/catalogue.ts';

export const data = new SlashCommandBuilder()
  .setName('say')
  .setNameLocalizations({ ko: '말하기', ja: '話す' })
  .setDescription('Speak text with one of the voices')
  .setDescriptionLocalizations({ ko: '텍스트를 음성으로 말합니다', ja: 'テキストを音声で話します' })
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o
      .setName('text')
      .setNameLocalizations({ ko: '텍스트', ja: 'テキスト' })
      .setDescription('What to say')
      .setDescriptionLocalizations({ ko: '말할 내용', ja: '話す内容' })
      .setRequired(true)
      .setMaxLength(4000),
  )
  .addStringOption((o) =>
    o
      .setName('voice')
      .setNameLocalizations({ ko: '음성', ja: '声' })
      .setDescription('Which voice speaks')
      .setDescriptionLocalizations({ ko: '말할 음성', ja: '話す声' })
      .setAutocomplete(true),
  )
  .addStringOption((o) =>
    o
      .setName('language')
      .setNameLocalizations({ ko: '언어', ja: '言語' })
      .setDescription('Language of the text (detected when left out)')
      .setDescriptionLocalizations({ ko: '텍스트의 언어 (비우면 자동 감지)', ja: 'テキストの言語（省略時は自動判定）' })
      .setAutocomplete(true),
  )
  .addStringOption((o) =>
    o
      .setName('format')
      .setNameLocalizations({ ko: '형식', ja: '形式' })
      .setDescription('Audio format of a posted file')
      .setDescriptionLocalizations({ ko: '파일로 보낼 때의 오디오 형식', ja: 'ファイルで送るときの音声形式' })
      .addChoices({ name: 'WAV', value: 'wav' }, { name: 'MP3', value: 'mp3' }),
  )
  .addStringOption((o) =>
    o
      .setName('tone')
      .setNameLocalizations({ ko: '톤', ja: 'トーン' })
      .setDescription('How to speak, e.g. "whispering", "cheerful"')
      .setDescriptionLocalizations({ ko: '말투 지시, 예: "속삭이듯", "밝게"', ja: '話し方の指示（例: 「ささやくように」）' })
      .setMaxLength(200),
  )
  .addStringOption((o) =>
    o
      .setName('output')
      .setNameLocalizations({ ko: '출력', ja: '出力' })
      .setDescription('Play in your voice channel, or post a file')
      .setDescriptionLocalizations({ ko: '음성 채널에서 재생하거나 파일로 보내기', ja: 'ボイスチャンネルで再生するか、ファイルで送るか' })
      .addChoices(
        { name: 'voice channel', name_localizations: { ko: '음성 채널', ja: 'ボイスチャンネル' }, value: 'voice' },
        { name: 'file', name_localizations: { ko: '파일', ja: 'ファイル' }, value: 'file' },
      ),
  );

export const execute: CommandModule['execute'] = async (interaction, context) => {
  const voice = interaction.options.getString('voice')?.trim() || defaultVoiceFor(interaction.guild.preferredLocale);
  if (!isPresetVoiceId(voice)) throw new UserError('error.input.unknownVoice', { voice: voice.slice(0, 80) });
  const language = interaction.options.getString('language')?.trim() || undefined;
  if (language !== undefined && !LANGUAGE_CODE.test(language)) throw new UserError('error.input.unknownLanguage', { language: language.slice(0, 20) });
  const tone = interaction.options.getString('tone')?.trim() || undefined;
  await deliverSpeech(
    interaction,
    {
      kind: 'tts',
      text: interaction.options.getString('text', true),
      voice,
      format: interaction.options.getString('format') === 'mp3' ? 'mp3' : 'wav',
      ...(language === undefined ? {} : { language }),
      ...(tone === undefined ? {} : { tone }),
    },
    (interaction.options.getString('output') ?? undefined) as OutputChoice,
    context,
  );
};

export const autocomplete: CommandModule['autocomplete'] = async (interaction) => {
  const focused = interaction.options.getFocused(true);
  if (focused.name === 'voice') {
    await interaction.respond(voiceChoices(focused.value, interaction.locale, interaction.options.getString('language')));
  } else if (focused.name === 'language') {
    await interaction.respond(languageChoices(focused.value, interaction.locale));
  } else {
    await interaction.respond([]);
  }
};
