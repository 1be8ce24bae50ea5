import { InteractionContextType, SlashCommandBuilder } from 'discord.js';
import type { CommandModule } from '../src/bot/command.ts';
import { deliverSpeech, type OutputChoice } from '../src/bot/deliver-speech.ts';
import { UserError } from '../src/bot/failures.ts';
import { voiceChoices } from '../src/bot/choices.ts';
import { isPresetVoiceId } from '../src/voices/catalogue.ts';

/** The service's own default for emotion speech (voice-api.md, /v1/emotion-tts). */
const DEFAULT_EMOTION_VOICE = 'voice-b-ko-f-01';
const DEFAULT_EXAGGERATION = 0.5;

export const data = new SlashCommandBuilder()
  .setName('emote')
  .setNameLocalizations({ ko: '감정', ja: '感情' })
  .setDescription('Speak text with emotion')
  .setDescriptionLocalizations({ ko: '감정을 담아 텍스트를 말합니다', ja: '感情を込めてテキストを話します' })
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
  .addNumberOption((o) =>
    o
      .setName('exaggeration')
      .setNameLocalizations({ ko: '강도', ja: '強さ' })
      .setDescription('How strong the emotion is, from 0 (flat) to 1 (intense); default 0.5')
      .setDescriptionLocalizations({ ko: '감정의 강도: 0(담담하게)부터 1(강하게)까지, 기본 0.5', ja: '感情の強さ: 0（淡々と）から 1（強く）まで、既定 0.5' })
      .setMinValue(0)
      .setMaxValue(1),
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
  const voice = interaction.options.getString('voice')?.trim() || DEFAULT_EMOTION_VOICE;
  if (!isPresetVoiceId(voice)) throw new UserError('error.input.unknownVoice', { voice: voice.slice(0, 80) });
  const exaggeration = interaction.options.getNumber('exaggeration') ?? DEFAULT_EXAGGERATION;
  // Discord enforces min/max for its own clients; a crafted request is refused here, before any API call.
  if (!(exaggeration >= 0 && exaggeration <= 1)) throw new UserError('error.input.exaggeration', { value: String(exaggeration) });
  await deliverSpeech(
    interaction,
    { kind: 'emotion', text: interaction.options.getString('text', true), voice, exaggeration },
    (interaction.options.getString('output') ?? undefined) as OutputChoice,
    context,
  );
};

export const autocomplete: CommandModule['autocomplete'] = async (interaction) => {
  const focused = interaction.options.getFocused(true);
  await interaction.respond(focused.name === 'voice' ? voiceChoices(focused.value, interaction.locale) : []);
};
