import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  'error.voice.notConnected': 'このサーバーのボイスチャンネルにいません。',
  'join.joined': '{channel} に参加しました。',
  'join.credits': 'ここで使える無料の声: {credits}。',
  'join.already': 'すでに {channel} にいます。',
  'join.joinedAs': '{bot} が {channel} に参加しました。',
  'join.alreadyAs': '{bot} はすでに {channel} にいます。',
  'leave.left': '{channel} から退出しました。',
  'leave.othersQueued':
    '{channel} で他の人のリクエストが再生中またはキューにあるため、退出せず何も停止していません。今退出させるにはメンバーをミュート、メンバーを移動、またはサーバー管理の権限が必要です。自分のリクエストは /stop で停止できます。',
  'skip.skipped': '再生中のクリップをスキップしました。',
  'skip.nothing': '何も再生していません。',
  'stop.stopped': '停止して、キューの {count} 件を消去しました。',
  'player.notInChannel':
    '私が話している {channel} にあなたはいないため、何も変えていません。そのチャンネルのメンバーは自分のリクエストだけを停止・スキップできます。他の人のリクエストにはメンバーをミュート、メンバーを移動、またはサーバー管理の権限が必要です。',
  'stop.own':
    'あなたのリクエストを停止し、キューのあなたのクリップ {count} 件を消去しました。他の人のリクエストは続きます。それを停止するにはメンバーをミュート、メンバーを移動、またはサーバー管理の権限が必要です。',
  'stop.files':
    '作成中のあなたのファイルまたはボイスメッセージ {count} 件を停止しました。これ以上音声サービスには送らず、投稿もしません。それぞれの費用は各応答でお知らせします。',
  'stop.clones':
    '作成中のあなたの声のクローン {count} 件を停止しました。音声サービスでまだ待っていたリクエストは閉じました（サービスが文字数を計上した可能性があるため、使用済みとして数えます）。すでに作成された声は保存し、最初の一文は再生も投稿もしません。',
  'stop.nothing': 'ボイスチャンネルで再生中またはキューにあるものがないため、何も停止していません。',
  'stop.nothingOwn':
    '再生中またはキューにあなたのリクエストがないため、何も停止していません。他の人のリクエストを停止するにはメンバーをミュート、メンバーを移動、またはサーバー管理の権限が必要です。',
  'skip.notYours':
    '再生中のクリップはあなたのものではないため、そのまま再生します。他の人のリクエストをスキップするにはメンバーをミュート、メンバーを移動、またはサーバー管理の権限が必要です。',
  'command.join': '参加',
  'command.join.description': 'あなたのボイスチャンネルに参加します',
  'command.leave': '退出',
  'command.leave.description': '話すのをやめてボイスチャンネルから退出します',
  'command.skip': 'スキップ',
  'command.skip.description': '再生中のクリップをスキップします（キューは続きます）',
  'command.stop': '停止',
  'command.stop.description': '話すのをやめてキューを空にします',
  'autoread.guard.leave':
    'このサーバーのために {voice} で {channel} を読み上げています。退出させられるのはサーバー管理の権限を持つメンバーだけです。',
  'autoread.pausedByLeave':
    '{voice} から退出しました。{channel} の読み上げは設定を残して一時停止中です。ほかのチャンネルで使用中でないボットがあれば {voice} での /join（サーバー管理）か /autoread start で再開し、/autoread stop で終了します。',
  'autoread.resumed': '{voice} に参加し、{channel} の読み上げを再開しました。',
};
