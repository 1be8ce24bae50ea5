import type { ChatInputCommandInteraction, SlashCommandNumberOption, SlashCommandStringOption } from 'discord.js';
import type { VoiceSettings } from '../store/types.ts';
import { LANGUAGE_CODE } from '../voices/catalogue.ts';
import { UserError } from './failures.ts';
import { echo } from './replies.ts';

// The speech options several commands share (/say, /preset save, /myvoice set, later /emote), built and read in
// one place so they are named, localised and checked alike everywhere.

/** The text to speak (/say, /emote). Discord caps a string option at 6000; long text is split into requests. */
export const textOption = (o: SlashCommandStringOption) =>
  o
    .setName('text')
    .setNameLocalizations({ ko: '텍스트', ja: 'テキスト' })
    .setDescription('What to say')
    .setDescriptionLocalizations({ ko: '말할 내용', ja: '話す内容' })
    .setRequired(true)
    .setMaxLength(4000);

export const voiceOption = (o: SlashCommandStringOption) =>
  o
    .setName('voice')
    .setNameLocalizations({ ko: '음성', ja: '声' })
    .setDescription('Which voice speaks')
    .setDescriptionLocalizations({ ko: '말할 음성', ja: '話す声' })
    .setMaxLength(100)
    .setAutocomplete(true);

export const languageOption = (o: SlashCommandStringOption) =>
  o
    .setName('language')
    .setNameLocalizations({ ko: '언어', ja: '言語' })
    .setDescription('Language of the text (detected when left out)')
    .setDescriptionLocalizations({ ko: '텍스트의 언어 (비우면 자동 감지)', ja: 'テキストの言語（省略時は自動判定）' })
    .setMaxLength(20)
    .setAutocomplete(true);

export const formatOption = (o: SlashCommandStringOption) =>
  o
    .setName('format')
    .setNameLocalizations({ ko: '형식', ja: '形式' })
    .setDescription('Audio format of a posted file')
    .setDescriptionLocalizations({ ko: '파일로 보낼 때의 오디오 형식', ja: 'ファイルで送るときの音声形式' })
    .addChoices({ name: 'WAV', value: 'wav' }, { name: 'MP3', value: 'mp3' });

export const toneOption = (o: SlashCommandStringOption) =>
  o
    .setName('tone')
    .setNameLocalizations({ ko: '톤', ja: 'トーン' })
    .setDescription('How to speak, e.g. "whispering", "cheerful"')
    .setDescriptionLocalizations({ ko: '말투 지시, 예: "속삭이듯", "밝게"', ja: '話し方の指示（例: 「ささやくように」）' })
    .setMaxLength(200);

export const exaggerationOption = (o: SlashCommandNumberOption) =>
  o
    .setName('exaggeration')
    .setNameLocalizations({ ko: '감정강도', ja: '感情の強さ' })
    .setDescription('How strongly /emote shows emotion, 0 to 1')
    .setDescriptionLocalizations({ ko: '/emote 의 감정 표현 강도, 0~1', ja: '/emote の感情の強さ（0〜1）' })
    .setMinValue(0)
    .setMaxValue(1);

export const presetOption = (o: SlashCommandStringOption) =>
  o
    .setName('preset')
    .setNameLocalizations({ ko: '프리셋', ja: 'プリセット' })
    .setDescription("One of this server's voice presets")
    .setDescriptionLocalizations({ ko: '이 서버의 음성 프리셋', ja: 'このサーバーの音声プリセット' })
    .setMaxLength(100)
    .setAutocomplete(true);

/** Where the audio goes (deliver-speech.ts: OutputChoice). */
export const outputOption = (o: SlashCommandStringOption) =>
  o
    .setName('output')
    .setNameLocalizations({ ko: '출력', ja: '出力' })
    .setDescription('Play in your voice channel, or post a file')
    .setDescriptionLocalizations({ ko: '음성 채널에서 재생하거나 파일로 보내기', ja: 'ボイスチャンネルで再生するか、ファイルで送るか' })
    .addChoices(
      { name: 'voice channel', name_localizations: { ko: '음성 채널', ja: 'ボイスチャンネル' }, value: 'voice' },
      { name: 'file', name_localizations: { ko: '파일', ja: 'ファイル' }, value: 'file' },
    );

type Options = ChatInputCommandInteraction['options'];

/** A trimmed string option, undefined when absent or blank. */
export function readText(options: Options, name: string): string | undefined {
  return options.getString(name)?.trim() || undefined;
}

/** The speech settings a command was given (only those it was given). A malformed language is refused. */
export function readVoiceSettings(options: Options): VoiceSettings {
  const settings: VoiceSettings = {};
  const voice = readText(options, 'voice');
  const language = readText(options, 'language');
  const tone = readText(options, 'tone');
  const format = options.getString('format');
  const exaggeration = options.getNumber('exaggeration');
  if (language !== undefined && !LANGUAGE_CODE.test(language)) throw new UserError('error.input.unknownLanguage', { language: echo(language, 20) });
  if (voice !== undefined) settings.voice = voice;
  if (language !== undefined) settings.language = language;
  if (tone !== undefined) settings.tone = tone;
  if (format === 'wav' || format === 'mp3') settings.format = format;
  if (exaggeration !== null) settings.exaggeration = exaggeration;
  return settings;
}
