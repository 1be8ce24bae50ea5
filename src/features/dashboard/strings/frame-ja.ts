import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './frame-en.ts';

/** The dashboard's frame and shared components in Japanese (./frame-en.ts is the source). */
export const ja: Translation<typeof en> = {
  'dashboard.frame.menu': 'メニュー',
  'dashboard.frame.theme.auto': 'テーマ: システムに合わせる',
  'dashboard.frame.theme.light': 'テーマ: ライト',
  'dashboard.frame.theme.dark': 'テーマ: ダーク',
  'dashboard.frame.saving': '保存しています…',
  'dashboard.frame.saveFailed': '保存できませんでした: ダッシュボードが応答しませんでした。もう一度お試しください。',
  'dashboard.frame.owner': 'オーナー',
  'dashboard.frame.manager': '管理者',
  'dashboard.frame.member': 'メンバー',
  'dashboard.frame.previous': '前へ',
  'dashboard.frame.next': '次へ',
  'dashboard.frame.pageOf': '{page} / {pages} ページ',
  'dashboard.frame.pages': 'ページ',
  'dashboard.frame.overview': '概要',
  'dashboard.frame.serverIntro': 'メニューからページを選んでください。各ページでできること:',
  'dashboard.frame.about.voices': 'このサーバーで使えるすべての声を聞き、自分の声を選びます。',
  'dashboard.frame.about.myvoice': '自分の声と速さ、自動読み上げでの扱い。',
  'dashboard.frame.about.mydata': 'SayBot がこのサーバーで保存しているあなたの情報と、その削除。',
  'dashboard.frame.about.scenes': '複数の声でシーンを書き、聞いて、ファイルにします。',
  'dashboard.frame.about.month': '今月使った文字数を日別・メンバー別に。',
  'dashboard.frame.about.dictionary': '自動読み上げの読み方: 読み、パターン、インポートとエクスポート。',
  'dashboard.frame.about.autoread': '自動読み上げが読む場所、設定、声、無視するメンバー。',
  'dashboard.frame.notFoundHint': 'サーバーの一覧に戻り、そこからページを選んでください。',
  'dashboard.frame.serversHint':
    'SayBot をサーバーに招待するか、SayBot がいるサーバーに参加してから、もう一度ログインしてください。',
  'dashboard.frame.use': '使う',
  'dashboard.frame.moreFor': '{name} のその他',
  'dashboard.frame.searchVoices': '名前で検索',
  'dashboard.frame.shown': '{total} 件中 {shown} 件の声',
  'dashboard.frame.entries': '{total} 件中 {from}–{to} 件',
  'dashboard.frame.noVoiceHint': '検索や絞り込みを解除するか、/clone で声を複製してください。',
};
