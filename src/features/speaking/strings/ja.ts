import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  // Where it plays, and when it could not
  'error.voice.busyElsewhere':
    '今は {channel} で話しています。そのチャンネルに来るか、終わってからもう一度お試しください。',
  'error.voice.botStageAudience':
    'ステージ {channel} では私は聴衆になり、誰にも聞こえません。話せるようにしてください（そのステージでメンバーをミュートする権限があれば自分でスピーカーになります。または /join のあと、ステージのモデレーターが話すよう招待してください）。何も消費していません。',
  'error.voice.streamFailed': '音声が途中で止まりました（{detail}）。もう一度お試しください。',
  'error.discord.uploadFailed':
    'このチャンネルに音声ファイルを投稿できませんでした。ファイル添付の権限を確認してください。',
  'autoread.guard.move':
    'このサーバーのために {voice} で {channel} を読み上げています。移動させられるのはサーバー管理の権限を持つメンバーだけです。',
  'autoread.guard.elsewhere':
    '{voice} で {channel} を読み上げているため、あなたのチャンネルには行けません。{voice} に参加するか、output: file を選んでください。',
  // /say and playback
  'say.queued': 'キューに追加しました: {voice}、{count} パート。前の {ahead} 件が終わったら始めます。',
  'say.speaking': '{channel} で {voice} の声で話しています…',
  'say.spoke': '{channel} で {voice} の声で {seconds} 秒話しました。',
  'say.skipped': '{seconds} 秒でスキップしました（{voice}）。',
  'say.stopped': '停止しました（{voice}）。',
  'say.cutOff':
    '{seconds}秒で読み上げが途切れました（{voice}）：{channel}の音声接続が切れました。もう一度 /say を使うと再参加します。',
  'say.file': '{voice} の声、{seconds} 秒（{format}）のファイルです。',
  'say.fileBecauseNoVoice': 'ボイスチャンネルにいないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'say.fileTooLarge.voiceMessage':
    '{format} ファイルが {size} MB になり、ここでの Discord の上限 {limit} MB を超えるため、ボイスメッセージとして投稿しました: {voice}、{seconds} 秒。',
  'say.fileTooLarge.compressed':
    '{format} ファイルが {size} MB になり、ここでの Discord の上限 {limit} MB を超え、ボイスメッセージも投稿できないため、圧縮して送ります（Ogg Opus、{compressed} MB）: {voice}、{seconds} 秒。',
  // The user install (src/features/speaking/user-install.ts)
  'userInstall.file': 'ここにはボイスチャンネルがないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'userInstall.off':
    'SayBot は参加しているサーバーでのみ使えます。運営者が DM や他のサーバーでの利用を有効にしていません。',
  'userInstall.notAllowed': 'SayBot の運営者はサーバー外での利用を一部の人に限っており、あなたは含まれていません。',
  'userInstall.noAttachFiles':
    'ここではファイルを送れない（このチャンネルではアプリがファイルを添付できません）ため、SayBot は音声で答えられません。文字数は使っていません。',
  'userInstall.voiceMessageAsFile':
    'ここではボイスメッセージを返信にできなかったため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  // A reply's buttons and the soundboard
  'buttons.play': '自分のボイスチャンネルで再生',
  'buttons.again': 'もう一度',
  'buttons.sound': 'サウンドとして保存',
  'buttons.notYours': 'このボタンを使えるのは、この音声を頼んだ {member} さんだけです。',
  'buttons.expired':
    'このボタンはもう使えません（SayBot が再起動したか、返信が古すぎます）。コマンドをもう一度使ってください。',
  'buttons.played': '{channel} でもう一度再生しました（{seconds} 秒）。キャッシュからなので文字数は使っていません。',
  'buttons.voiceMessage':
    '上のボイスメッセージ: {voice}、{seconds} 秒。このボタンはあなただけに表示され、キャッシュを使うので文字数はかかりません。',
  'buttons.posted':
    'ボイスメッセージをこのチャンネルにもう一度送りました。キャッシュからなので文字数は使っていません。',
  'buttons.postedHeader': '{member} さんがこのボイスメッセージをもう一度頼みました:',
  'sound.saved': 'このサーバーのサウンドボードに「{name}」として保存しました（{seconds} 秒）。',
  'sound.tooLong':
    'サウンドボードのサウンドは最長 {max} 秒ですが、この音声は {seconds} 秒なので保存しませんでした。短いテキストで試してください。',
  'sound.tooLarge': 'サウンドボードのサウンドは最大 {max} KB ですが、この音声は {size} KB なので保存しませんでした。',
  'sound.memberPermission':
    'サウンドボードにサウンドを保存するには「エクスプレッションを作成」権限が必要ですが、ここではその権限がありません。',
  'sound.botPermission':
    'サウンドボードにサウンドを保存するには、このサーバーで私に「エクスプレッションを作成」権限が必要です。サーバー管理者に頼んでください。',
  'sound.full': 'このサーバーのサウンドボードはいっぱいです。サウンドを 1 つ削除してから、もう一度試してください。',
  'sound.refused': 'Discord がサウンドを受け付けませんでした: {reason}',
  // Which voice, and why (replies name it when the caller did not choose it)
  'voice.why.preset': '{voice}（プリセット「{preset}」）',
  'voice.why.member': '{voice}（あなたのデフォルト）',
  'voice.why.server': '{voice}（サーバーのデフォルトプリセット「{preset}」）',
  'voice.why.builtin': '{voice}（サーバーの言語の標準の声）',
  'voice.why.commandDefault': '{voice}（このコマンドの標準の声）',
  'voice.fallback': '{voice}（無料の声）: {reason}',
  'fallback.reason.month': '今月の文字数を使い切りました',
  'fallback.reason.server': 'サーバーの今月の予算に達しました',
  'fallback.reason.member': '今日の予算に達しました',
  'fallback.reason.service': '音声サービスが応答しません',
  'preset.list.default': '（サーバーのデフォルト）',
  'list.more': '…ほか {count} 件。',
  // Voice messages (src/features/speaking/voice-message-post.ts)
  'voiceMessage.posted': '下にボイスメッセージで送りました: {voice}、{seconds} 秒。',
  'voiceMessage.fallback.no-permission':
    'このチャンネルではボイスメッセージを送る権限（ボイスメッセージを送信）がないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'voiceMessage.fallback.not-allowed-here':
    'このチャンネルでは Discord がボイスメッセージを受け付けないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'voiceMessage.fallback.too-large':
    'ボイスメッセージが {size} MB になり、このチャンネルの上限 {limit} MB を超えるため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'voiceMessage.fallback.refused':
    'Discord がボイスメッセージを受け付けなかったため（運営者に通知しました）、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'voiceMessage.fallback.member-no-permission':
    'このチャンネルでボイスメッセージを送る権限（チャンネルを見る、メッセージを送信、ファイルを添付、ボイスメッセージを送信）がないため、あなただけにファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'voiceMessage.fallback.slowmode':
    'このチャンネルは低速モード中で、前のメッセージから時間が経っていないため、あなただけにファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'voiceMessage.header': '{member} さんが /{command} で頼んだボイスメッセージです:',
};
