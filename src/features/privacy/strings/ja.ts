import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  'privacy.show.none': 'このサーバーで SayBot があなたについて保存しているものはありません。',
  'privacy.show.header': 'このサーバーで SayBot があなたについて保存しているもの (件数):',
  'privacy.show.footer':
    '利用記録は予算と /usage のために文字数を数えます。`/privacy delete` であなたの記録を削除し、残りからあなたの ID を消します (利用記録は合計が合うよう匿名で残ります)。',
  'privacy.trace.member_defaults': 'あなたの声のデフォルト (/myvoice)',
  'privacy.trace.member_output_defaults': 'あなたの出力のデフォルト (/output)',
  'privacy.trace.presets': 'あなたが保存したプリセット (作成者として)',
  'privacy.trace.voice_library': 'あなたがクローンした声',
  'privacy.trace.clone_name_reservations': '進行中のあなたのクローン',
  'privacy.trace.spends': '利用記録 (リクエストごとの文字数)',
  'privacy.trace.budget_holds': '進行中のリクエストのために確保した文字数',
  'privacy.trace.guild_budgets': 'あなたが設定したサーバーの予算 (作成者として)',
  'privacy.trace.auto_read': 'あなたが開始・設定した自動読み上げ (作成者として)',
  'privacy.trace.dictionary_entries': 'あなたが書いた辞書の項目 (作成者として)',
  'privacy.trace.guild_output_defaults': 'あなたが設定したサーバーの出力のデフォルト (作成者として)',
  'privacy.trace.other': 'その他の記録 ({table})',
  'privacy.deleted':
    'このサーバーで SayBot が保存していたあなたの情報を削除しました: {deleted} 件を削除、{anonymised} 件からあなたの名前を削除 (利用記録はサーバーの合計が合うよう匿名で残ります)。',
  'privacy.deleted.voices': 'あなたがクローンした声を削除し、キャッシュの音声も消しました: {names}。',
  'privacy.outside.none': 'サーバー外での利用について、SayBot はあなたの情報を何も保存していません。',
  'privacy.outside.header':
    'サーバー外（DM、グループ DM、SayBot のいないサーバー）での利用について SayBot が保存しているあなたの情報（件数）:',
  'privacy.outside.deleted':
    'サーバー外での利用について SayBot が保存していたあなたの情報を削除しました: {deleted} 件を削除、{anonymised} 件はもうあなたを示しません（利用記録は匿名で残り、今日使った文字数は引き続き1日の予算に数えられます）。',
  'privacy.server.outside':
    '`/privacy server` は SayBot のいるサーバーのデータを削除するもので、ここにはありません。あなたの情報は `/privacy delete` で削除できます。',
  'privacy.server.confirm':
    'このサーバーの SayBot のデータをすべて削除します: プリセット、クローンした声、辞書、設定、予算、自動読み上げ、全メンバーのデフォルト (利用記録は匿名で残ります)。{minutes} 分以内に `/privacy server confirm:{code}` を実行して確認してください。',
  'privacy.server.deleted':
    'このサーバーの SayBot のデータをすべて削除しました: {deleted} 件を削除、利用記録 {anonymised} 件を匿名化、クローンした声 {voices} 件を削除。',
  'error.privacy.badCode':
    '確認コードが違うか、期限切れです。コードなしで `/privacy server` を実行して新しいコードを受け取ってください。',
  'command.privacy': 'プライバシー',
  'command.privacy.description': 'このサーバーで SayBot があなたについて保存しているものとその削除',
  'command.privacy.show': '表示',
  'command.privacy.show.description': 'このサーバーで SayBot があなたについて保存しているものを表示',
  'command.privacy.delete': '削除',
  'command.privacy.delete.description': 'このサーバーで SayBot があなたについて保存しているものを削除',
  'command.privacy.server': 'サーバー',
  'command.privacy.server.description': 'このサーバーのデータをすべて削除 (サーバー管理権限、確認あり)',
  'option.confirm': '確認',
  'option.confirm.description': '最初の /privacy server が表示した確認コード',
  'privacy.trace.auto_read_voice_pool': 'あなたが自動読み上げの声のプールに追加した声 (追加した人として)',
  'privacy.trace.auto_read_member_voices': '自動読み上げの声のプールから割り当てられたあなたの声',
  'privacy.trace.auto_read_ignored': '自動読み上げが読まないメンバーのリスト (追加した人として)',
  'privacy.kept.header':
    'サーバー管理者があなたについて残した記録 (`/privacy delete` では削除されず、管理者の `/autoread unignore` または `/privacy server` で削除されます):',
  'privacy.kept.auto_read_ignored': '自動読み上げはあなたを読みません (管理者の無視リスト)',
};
