import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  'clone.error.consent':
    '声のクローンには話者本人の同意が必要です。同意を得た場合のみ consent を True にしてください。',
  'clone.error.nameInvalid': "声の名前は 1〜{max} 文字の文字または数字です（間にスペース、- _ . ' を使えます）。",
  'clone.error.nameTaken':
    'このサーバーにはすでに「{name}」という声があります。別の名前にするか、先にその声を削除してください。',
  'clone.error.textTooLong': '新しい声の最初の一文は {max} 文字までです。',
  'clone.error.memberShare':
    'このサーバーのクローン音声 {limit} 件のうち {share} 件をあなたが作っています。ほかのメンバーの分を残すため、1 人が持てるのはここまでです。先に /voices delete で自分の音声を消すか、管理者に頼んでください。',
  'clone.error.libraryFull':
    'このサーバーにはすでに {limit} 件のクローン音声があります。先に /voices delete で削除してください。',
  'clone.voiceLabel': '新しい声「{name}」（{id}、{seconds} 秒のクリップから）',
  'clone.madeLineFailed':
    '新しい声「{name}」（{id}）はできあがって保存され、その文字数は消費されました。最初の一文は話せませんでした：{reason} /say で声 {name} を選んで使えます。',
  'clone.audioLost':
    '新しい声「{name}」（{id}）はできあがり、文字数も消費されましたが、最初の一文が途中で途切れたため再生できませんでした。/say で声 {name} を選んでお試しください。',
  'clone.madeStopped':
    '新しい声「{name}」（{id}）はできあがって保存され、その文字数は消費されました。ご依頼どおり停止したため、最初の一文は再生も投稿もしません。/say で声 {name} を選んで使えます。',
  'clone.stoppedClosed':
    'ご依頼どおり、音声サービスが応答する前に停止しました。リクエストは閉じ、保存された声はありません。サービスがその {characters} 文字を計上した可能性があるため、ここでも使用済みとして数えます。まだ必要な場合だけ、もう一度クローンしてください。',
  'clone.stoppedUnsent':
    'ご依頼どおり、音声サービスに何も送る前に停止しました。声は作られておらず、料金もかかっていません。',
  'voices.deleted': '声「{name}」（{id}）を削除しました。',
  'voices.deleted.presets': 'この声を使うプリセット {count} 件も削除しました: {names}。',
  'voices.deleted.members':
    'この声を自分の声 (/myvoice) にしていたメンバー {count} 人は、今後サーバーのデフォルトの声になります（次に使うときに一度だけ伝えます）。',
  'voices.deleted.more': '他 {count} 件',
  'voices.notFound': 'このサーバーに「{name}」というクローン音声はありません。',
  'error.permission.deleteVoice': 'この声を削除できるのは、作成したメンバーかサーバー管理権限を持つ人だけです。',
  // /clone のフォーム
  'clone.form.title': '声をクローン',
  'clone.form.guide':
    'よいサンプル: 一人がはっきり話す {min}〜{max} 秒の録音（10〜30 秒が最適）、静かな場所で、音楽や他の声なしで。',
  'clone.form.name': '声の名前',
  'clone.form.text': '最初のセリフ',
  'clone.form.clip': '声のクリップ',
  'clone.form.consent': '話者の同意',
  'clone.error.consentBox': '声のクローンには話者本人の同意が必要です。同意を得た場合のみチェックを入れてください。',
  'clone.error.fileType': '{name} は WAV・MP3・M4A ファイルではありません。いずれかをアップロードしてください。',
  'clone.error.noClip': '声のクリップ（WAV・MP3・M4A）をアップロードしてください。',
  'clone.error.incomplete':
    'クリップと一緒に名前・テキスト・同意も指定するか、オプションなしで /clone を実行してフォームに入力してください。',
  'voices.presetVoices': 'プリセット音声',
  'voices.engineVoices': 'このボットの音声エンジンの無料の声',
  'voices.cloned': 'このサーバーのクローン音声',
  'voices.presets': 'このサーバーのプリセット',
  'voices.none': '（なし）',
  'command.clone': '声のクローン',
  'command.clone.description': '本人の同意を得た声のクリップから、このサーバーの新しい声を作ります',
  'command.voices': '音声一覧',
  'command.voices.description': '使える声: プリセット音声、このサーバーのクローン音声とプリセット',
  'command.voices.list': '一覧',
  'command.voices.list.description': '使える声の一覧',
  'command.voices.delete': '削除',
  'command.voices.delete.description': 'このサーバーのクローン音声を削除します（作成者またはサーバー管理権限）',
  'option.audio': '音声',
  'option.audio.description': '声のサンプル: 一人が話す 3〜60 秒（WAV・MP3・M4A）',
  'option.text.description.clone': '新しい声が最初に話す内容',
  'option.name.description.clone': 'このサーバーでの声の名前',
  'option.consent': '同意',
  'option.consent.description': 'クリップの話者が声のクローンに同意したことを確認します',
  'option.voice.description.voices': 'クローン音声の名前または ID',
  // Reference clips (src/features/voices/reference-clip.ts)
  'clone.error.host':
    'クリップはコマンドに直接添付してください。Discord の添付ファイルのみダウンロードします（{host} からは取得しません）。',
  'clone.error.tooLarge':
    'クリップは {size} MB です。上限は {limit} MB です。短いクリップ（3〜60 秒）を添付してください。',
  'clone.error.download': 'クリップをダウンロードできませんでした（{detail}）。もう一度添付してください。',
  'clone.error.format':
    'クリップは WAV・MP3・M4A ではなく {found} です（ファイル名に関係なく）。いずれかの形式で添付してください。',
  'clone.error.corrupt': 'クリップが壊れているか、途中で切れています。書き出し直したファイルを添付してください。',
  'clone.error.checkBusy': '現在確認中のクリップが多すぎます。少し待ってからもう一度添付してください。',
  'clone.error.checkBusyServer':
    'このサーバーではすでに {limit} 件のクリップを確認中です。結果が出てから、もう一度添付してください。',
  'clone.error.duration': 'クリップの長さは {seconds} 秒です。{min}〜{max} 秒にしてください。',
  'clone.error.silent': 'クリップが無音です（{level} dBFS）。話している声の録音を添付してください。',
};
