import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  'budget.name.guildMonthlyChars': 'サーバーの月間文字数',
  'budget.name.memberDailyChars': 'メンバーの 1 日の文字数',
  'budget.name.memberCooldownSeconds': '待ち時間（秒）',
  'budget.aboveOperator':
    '{budget} はこのサーバーでは最大 {limit} まで設定できます。運営者の上限であり、サーバーは下げることしかできません。',
  'budget.nothing': '3 つの予算のうち少なくとも 1 つを指定してください（0 でこのサーバー独自の上限を解除します）。',
  'budget.updated': 'このサーバーの予算: {summary}。',
  'budget.line': '{name}: {value}',
  'budget.fromOperator': '{value}（運営者）',
  'budget.fromServer': '{value}（このサーバー、運営者: {operator}）',
  'budget.noLimit': '上限なし',
  'error.permission.budget':
    'サーバーの予算を変更するには「サーバー管理」権限が必要です。予算は誰でも /usage で確認できます。',
  'usage.title': '**{month} の使用量**（{reset} にリセット）',
  'usage.freeVoice':
    '今月、無料の声が {lines} 行を読み上げました。料金はかかりません（うち {fallback} 行は有料の声の代わり）。',
  'usage.freeEngines':
    'そのうち話した声の出どころ: VOICEVOX {voicevox} 行、音声サーバー {speech} 行、eSpeak NG {espeak} 行。',
  'usage.guild': 'このサーバー: {spent} 文字使用、キャッシュで {saved} 文字節約; {budget}。',
  'usage.guildBudget': '月間予算 {limit} 文字、残り {left} 文字',
  'usage.noGuildBudget': '月間予算なし',
  'usage.bot':
    'ボット全体: {limit} 文字中 {used} 文字使用{source}、残り {remaining} 文字; SayBot の送信 {spent} 文字、キャッシュで節約 {saved} 文字。',
  'usage.fromService': '（{at} 時点のサービスの集計）',
  'usage.ownCount': '（SayBot 自身の集計: 今月サービスから数値は届いていません）',
  'usage.botUsedUp':
    'ボット全体: サービスによると今月の {limit} 文字は使い切られています; SayBot の送信 {spent} 文字、キャッシュで節約 {saved} 文字。',
  'usage.botBudget':
    'ボット全体の予算 (全サーバーとユーザーインストールの合計): 月 {limit} 文字、残り {left} 文字; プランの残りは運営者自身の利用のために取っておきます。',
  'usage.noBotBudget': 'ボット全体の予算: なし (SayBot はプラン全体を使えます)。',
  'usage.member': '今日のあなた: {spent} 文字; {budget}。',
  'usage.outside.where': 'サーバー外（DM、グループ DM、SayBot のいないサーバー）での SayBot の利用:',
  'usage.outside.shared': 'サーバー外での利用はすべて1つの月間予算を共有します: {limit} 文字のうち残り {left} 文字。',
  'usage.memberBudget': '1 日の予算 {limit} 文字、残り {left} 文字、{reset} にリセット',
  'usage.noMemberBudget': '1 日の予算なし',
  'usage.cooldown': '待ち時間: 文字を使うリクエストの間に {seconds} 秒（キャッシュの音声は無料で、待ちません）。',
  'usage.queue':
    '音声キュー: サーバーごとに最大 {clips} 件・約 {seconds} 秒分、メンバーごとに待機中のリクエスト {member} 件まで。',
  'usage.exhausted':
    '音声サービスから今月の上限に達したと通知されました。上限が戻ったかを確かめるため、リクエストは一度に 1 件だけ送信します（プランのアップグレードや追加購入ですぐに解除）。遅くとも {reset} にリセットされます。',
  'usage.chart.title': '{month} の文字数 (UTC)',
  'usage.chart.perDay': '日別',
  'usage.chart.monthToDate': '今月の累計使用',
  'usage.chart.spent': '使用',
  'usage.chart.saved': 'キャッシュで節約',
  'usage.chart.budget': '月間予算',
  'usage.chart.topMembers': '上位メンバー',
  'usage.chart.noData': 'まだありません',
  'usage.chart.formerMember': '退出したメンバー',
  'usage.chart.alt':
    '{month} のこのサーバーの文字数のグラフ: 日別の使用とキャッシュによる節約、予算に対する今月の累計、上位メンバー',
  'usage.chart.freeRate':
    '今回はグラフがありません: グラフの作成は文字数を使わないリクエストとして数えられ、1 分以内に 1 人のメンバーの上限の {limit} 回に達しました。{seconds} 秒後にもう一度お試しください。',
  'command.budget': '予算',
  'command.budget.description':
    'このサーバーの文字予算を運営者の上限より低く設定（サーバー管理権限が必要）。/usage で確認',
  'command.usage': '使用量',
  'command.usage.description': '今月の文字数: このサーバー、ボット全体、今日のあなた',
  'option.server_monthly_chars': 'サーバー月間文字数',
  'option.server_monthly_chars.description': 'このサーバーが 1 か月に使える文字数（0: サーバー独自の上限を解除）',
  'option.member_daily_chars': 'メンバー1日文字数',
  'option.member_daily_chars.description': 'メンバー 1 人が 1 日（UTC）に使える文字数（0: サーバー独自の上限を解除）',
  'option.cooldown_seconds': '待ち時間秒',
  'option.cooldown_seconds.description': '文字を使うリクエストの間にメンバーが待つ秒数（0: 解除）',
};
