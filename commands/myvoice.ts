import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { answerSpeechAutocomplete } from '../src/bot/autocomplete.ts';
import type { CommandModule } from '../src/bot/command.ts';
import { UserError } from '../src/bot/failures.ts';
import { formatOption, languageOption, readVoiceSettings, toneOption, voiceOption } from '../src/bot/options.ts';
import { showResult } from '../src/bot/replies.ts';
import { describeSettings } from '../src/bot/speech-settings.ts';
import { usableVoice } from '../src/speech/voice-access.ts';

export const data = new SlashCommandBuilder()
  .setName('myvoice')
  .setNameLocalizations({ ko: '내음성', ja: 'マイボイス' })
  .setDescription('Your own default voice settings in this server')
  .setDescriptionLocalizations({ ko: '이 서버에서 쓸 내 기본 음성 설정', ja: 'このサーバーでのあなたの標準の声の設定' })
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) =>
    s
      .setName('set')
      .setNameLocalizations({ ko: '설정', ja: '設定' })
      .setDescription('Set your defaults; options you leave out keep their current value')
      .setDescriptionLocalizations({ ko: '내 기본값 설정. 비운 옵션은 그대로 둡니다', ja: 'デフォルトを設定。省略した項目は今のまま' })
      .addStringOption(voiceOption)
      .addStringOption(languageOption)
      .addStringOption(toneOption)
      .addStringOption(formatOption),
  )
  .addSubcommand((s) =>
    s
      .setName('clear')
      .setNameLocalizations({ ko: '지우기', ja: '消去' })
      .setDescription('Forget your defaults in this server')
      .setDescriptionLocalizations({ ko: '이 서버에서 내 기본값 지우기', ja: 'このサーバーでのデフォルトを消去' }),
  );

export const execute: CommandModule['execute'] = async (interaction, { store }) => {
  const { guildId } = interaction;
  const userId = interaction.user.id;
  if (interaction.options.getSubcommand(true) === 'clear') {
    await showResult(interaction, (await store.clearMemberDefaults(guildId, userId)) ? 'myvoice.cleared' : 'myvoice.none');
    return;
  }
  const settings = readVoiceSettings(interaction.options);
  if (Object.keys(settings).length === 0) throw new UserError('error.myvoice.nothing');
  if (settings.voice !== undefined) settings.voice = (await usableVoice(store, guildId, settings.voice)).voiceId;
  const stored = await store.setMemberDefaults(guildId, userId, settings);
  await showResult(interaction, 'myvoice.set', { settings: describeSettings(interaction.locale, stored) });
};

export const autocomplete: CommandModule['autocomplete'] = answerSpeechAutocomplete;
