import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  'error.input.exaggeration': '強さは 0 から 1 までの数値で指定してください（入力: {value}）。',
  'command.emote': '感情',
  'command.emote.description': '感情を込めてテキストを話します',
  'command.say': '話す',
  'command.say.description': 'テキストを音声で話します',
  'option.exaggeration.description.emote': '感情の強さ: 0（淡々と）から 1（強く）まで、既定 0.5',
  // Voice messages: /output, the outside-voice defaults (src/features/speaking/speech-delivery.ts chooseTarget)
  'command.output': '出力',
  'command.output.description': 'ボイスチャンネル外での受け取り方: ボイスメッセージかファイル',
  'command.output.server': 'サーバー',
  'command.output.server.description': 'ボイスチャンネル外のメンバー向けのこのサーバーの既定（サーバー管理権限が必要）',
  'command.output.me': '自分',
  'command.output.me.description': 'このサーバーでボイスチャンネル外のときの自分の既定（サーバーの既定より優先）',
  'command.output.show': '表示',
  'command.output.show.description': 'ボイスチャンネル外で自分に適用される既定',
  'option.outside_voice': 'ボイスチャンネル外',
  'option.outside_voice.description':
    'ボイスメッセージ、ファイル、またはリセット（自分: サーバーに従う、サーバー: ファイル）',
  'choice.outside_voice.voice-message': 'ボイスメッセージ',
  'choice.outside_voice.file': 'ファイル',
  'choice.outside_voice.reset': 'リセット',
  'output.server.set':
    'このサーバーでは、ボイスチャンネル外のメンバーは既定で{output}で受け取ります（メンバー自身の /出力 自分 が優先）。',
  'output.server.reset':
    'このサーバー独自の既定を消しました: ボイスチャンネル外のメンバーは、自分で選ばない限り{output}で受け取ります。',
  'output.me.set':
    'このサーバーでボイスチャンネル外のとき、/say、/emote、/clone の結果を{output}で受け取ります（コマンドの出力オプションがあればそちらが優先）。',
  'output.me.reset': 'サーバーの既定に従います: ボイスチャンネル外では{output}で受け取ります。',
  'output.show':
    'ボイスチャンネル外では{output}で受け取ります（{why}）。サーバーの既定: {server}、自分の既定: {member}。',
  'output.why.member': '自分の既定',
  'output.why.server': 'サーバーの既定',
  'output.why.builtin': '組み込みの既定',
  'output.unset': 'なし',
  'say.textTooLong':
    'このテキストは音声サービスの数え方（Unicode 正規化後）で **{characters}** 文字です。一度に読み上げられるのは {max} 文字までです。',
};
