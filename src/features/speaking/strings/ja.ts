import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

// Keys in en.ts's order, whose comments name the sections.
export const ja: Translation<typeof en> = {
  'error.voice.busyElsewhere':
    '今は {channel} で話しています。そのチャンネルに来るか、終わってからもう一度お試しいただくか、`output: file` でお試しください。何も消費していません。',
  'error.voice.seatLost':
    'そのボイスチャンネルで話していたボットが Discord との接続を失ったため、残りは読み上げられませんでした。もう一度お試しください。空いているボットがあればそのボットが入ります。',
  'error.voice.busyElsewhere.voiceOnly':
    '今は {channel} で話しています。そのチャンネルに来るか、終わってからもう一度お試しください。何も消費していません。',
  'error.voice.noSeat.voiceOnly':
    'このサーバーの私のボットはすべて別のチャンネル（{channels}）で使われています（聞いている人がいるか、話しているところです）。そのチャンネルに来るか、空いてからもう一度お試しください。何も消費していません。',
  'error.voice.noSeat':
    'このサーバーの私のボットはすべて別のチャンネル（{channels}）で使われています（聞いている人がいるか、話しているところです）。そのチャンネルに来るか、空いてからもう一度お試しいただくか、`output: file` でお試しください。何も消費していません。',
  'error.voice.botMuted':
    'モデレーターが私をサーバーミュートしているため、{channel} では誰にも聞こえません。何も消費していません。',
  'error.voice.botMuted.helper':
    'モデレーターが {bot} をサーバーミュートしているため、{channel} では誰にも聞こえません。何も消費していません。',
  'error.voice.botStageAudience.helper':
    'ステージ {channel} では {bot} は聴衆になり、誰にも聞こえません。そこで話せるようにしてください（そのステージでのメンバーをミュートする権限があれば自分でスピーカーになれます。または /join のあと、ステージのモデレーターが発言に招待してください）。何も消費していません。',
  'error.voice.joinFailed.helper':
    '{bot} は {channel} に参加できませんでした。そのボットの接続と発言の権限を確認して、もう一度お試しください。',
  'error.voice.botStageAudience':
    'ステージ {channel} では私は聴衆になり、誰にも聞こえません。話せるようにしてください（そのステージでメンバーをミュートする権限があれば自分でスピーカーになります。または /join のあと、ステージのモデレーターが話すよう招待してください）。何も消費していません。',
  'error.voice.stageAudienceNow':
    'ステージ {channel} で私は聴衆になっていて、今は自分でスピーカーになれないため、誰にも聞こえませんでした。そこで話せるようにしてから（そのステージでメンバーをミュートする権限、またはステージのモデレーターからの招待）、もう一度お試しください。',
  'error.voice.stageAudienceNow.helper':
    'ステージ {channel} で {bot} は聴衆になっていて、今は自分でスピーカーになれないため、誰にも聞こえませんでした。そのボットがそこで話せるようにしてから（そのステージでメンバーをミュートする権限、またはステージのモデレーターからの招待）、もう一度お試しください。',
  'error.voice.streamFailed': '音声が途中で止まりました。{detail}',
  'error.voice.audioStalled': '音声が届かなくなり、再開しませんでした。もう一度お試しください。',
  'error.discord.uploadFailed':
    'このチャンネルに音声ファイルを投稿できませんでした。ファイル添付の権限を確認してください。',
  'error.discord.uploadFailed.spent':
    'ここに音声ファイルを投稿できませんでした（Discord が受け付けませんでした）。音声サービスはすでにこれを作成して {paid} 文字を計上しており、その分は消費されています。ボットの音声キャッシュにまだ残っていれば、もう一度頼んでも文字数はかかりません。',
  'autoread.guard.move':
    'このサーバーのために {voice} で {channel} を読み上げています。移動させられるのはサーバー管理の権限を持つメンバーだけです。',
  'autoread.guard.elsewhere.voiceOnly':
    '{voice} で {channel} を読み上げているため、あなたのチャンネルには行けません。{voice} に参加してください。',
  'autoread.guard.elsewhere':
    '{voice} で {channel} を読み上げているため、あなたのチャンネルには行けません。{voice} に参加するか、output: file を選んでください。',
  'say.queued': 'キューに追加しました: {voice}、{count} パート。前の {ahead} 件が終わったら始めます。',
  'say.postedPrivately': 'このチャンネルにはファイルを投稿できないため、あなただけに送ります。',
  'say.speaking': '{channel} で {voice} の声で話しています…',
  'say.spoke': '{channel} で {voice} の声で {seconds} 秒話しました。',
  'say.spokeMoved':
    '{voice} の声で {seconds} 秒話し、{channel} で話し終えました。モデレーターが私を {from} からそこへ移動しました。',
  'say.spokeMoved.helper':
    '{voice} の声で {seconds} 秒話し、{channel} で話し終えました。モデレーターが {bot} を {from} からそこへ移動しました。',
  'say.spokePartWay': '{channel}で{voice}で一部を読み上げました。最後まで読み上げる前に止まりました。',
  'say.skipped': '{seconds} 秒でスキップしました（{voice}）。',
  'say.stopped': '停止しました（{voice}）。',
  'say.stoppedSpent':
    '音声サービスに依頼した分は、聞こえたかどうかにかかわらず使用済みとして計上されます。/usage で確認できます。',
  'say.cutOff':
    '{seconds}秒で読み上げが途切れました（{voice}）：{channel}の音声接続が切れました。もう一度 /say を使うと再参加します。',
  'say.cutOff.helper':
    '{seconds}秒で読み上げが途切れました（{voice}）：{bot} の {channel} での音声接続が切れました。もう一度 /say を使うとボットが再参加します。',
  'say.file': '{voice} の声、{seconds} 秒（{format}）のファイルです。',
  'say.fileBecauseNoVoice': 'ボイスチャンネルにいないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'say.fileTooLarge.voiceMessage':
    '{format} ファイルが {size} MB になり、ここでの Discord の上限 {limit} MB を超えるため、ボイスメッセージとして投稿しました: {voice}、{seconds} 秒。',
  'say.fileTooLarge.compressed':
    '{format} ファイルが {size} MB になり、ここでの Discord の上限 {limit} MB を超え、ボイスメッセージも投稿できないため、圧縮して送ります（Ogg Opus、{compressed} MB）: {voice}、{seconds} 秒。',
  'userInstall.file': 'ここにはボイスチャンネルがないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'userInstall.off':
    'SayBot は参加しているサーバーでのみ使えます。運営者が DM や他のサーバーでの利用を有効にしていません。',
  'userInstall.notAllowed': 'SayBot の運営者はサーバー外での利用を一部の人に限っており、あなたは含まれていません。',
  'userInstall.noAttachFiles':
    'ここではファイルを送れない（このチャンネルではアプリがファイルを添付できません）ため、SayBot は音声で答えられません。文字数は使っていません。',
  'userInstall.voiceMessageAsFile':
    'ここではボイスメッセージを返信にできなかったため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
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
  'voice.why.preset': '{voice}（プリセット「{preset}」）',
  'voice.why.member': '{voice}（あなたのデフォルト）',
  'voice.why.server': '{voice}（サーバーのデフォルトプリセット「{preset}」）',
  'voice.why.builtin': '{voice}（サーバーの言語の標準の声）',
  'voice.why.deleted': '{voice}（サーバーのデフォルト: 保存していた声「{name}」は削除されました）',
  'voice.why.builtinOutside': '{voice}（あなたの言語の標準の声）',
  'voice.fallback': '{voice}（無料の声：{reason}）',
  'voice.fallbackAfterPaid': '{voice}（有料の声で{paid}文字（計上済み）の後の無料の声：{reason}）',
  'fallback.reason.month': '今月の文字数を使い切りました',
  'fallback.reason.tooFewLeft':
    '今月の残り文字数ではこの文には足りません（残り{left, number}文字、必要{needed, number}文字）',
  'fallback.reason.server': 'サーバーの今月の予算に達しました',
  'fallback.reason.member': '今日の予算に達しました',
  'fallback.reason.engine': 'このボットの音声エンジンが読み上げられませんでした',
  'fallback.reason.service': '音声サービスが応答しません',
  'preset.list.default': '（サーバーのデフォルト）',
  'list.more': '…ほか {count} 件。',
  'sample.freeVoiceStoodIn': '{voice} が話しました。',
  'voiceMessage.freeVoiceStoodIn': '上のボイスメッセージは {voice} が話しました。',
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
  'error.api.badRequest':
    '音声サービスがこのリクエストを拒否しました: {detail}。テキストとオプションを確認して、もう一度お試しください。',
  'error.api.voiceRefused':
    '音声サービスが、声 {voice} でのこのリクエストを拒否しました: {said}。別の声を選んでください。デフォルトは /myvoice set で、プリセットは /preset save（サーバー管理）で変えられます。',
  'error.api.unauthorized':
    'ボットの Voice API キーが無効か、無効化されています。サーバーの管理者に伝えてください。文字数は消費されていません。',
  'error.api.forbidden':
    'ボットの Voice API プランには API アクセスが含まれていません。サーバーの管理者に伝えてください（Creator 以上のプランが必要です）。',
  'error.api.quota': '音声サービスの今月の文字数上限に達しました。{reset} にリセットされます。',
  'error.api.rateLimited': '音声サービスが混み合っています。数秒後にもう一度お試しください。',
  'error.api.server.said':
    '音声サービスで障害が起きています（{status}）。サービスからの説明: {said}。料金はかかっていません。しばらくしてから試してください。',
  'error.api.server': '音声サービスで障害が発生しています（{status}）。しばらくしてからお試しください。',
  'error.api.timeout': '音声サービスの応答に時間がかかりすぎました。もう一度お試しください。',
  'error.api.connection': '音声サービスに接続できませんでした。しばらくしてからお試しください。',
  'error.api.unexpected': '音声サービスから使えない応答が返りました。しばらくしてからお試しください。',
  'error.api.sharedCallFailed':
    'これは直前の同じリクエストのために作られていましたが、そのリクエストが送信後に失敗したため、これも失敗しました。音声サービスが計上したかもしれない文字数はそちらの分で、あなたの分は何も消費されていません。もう一度お試しください。',
  'error.api.undelivered':
    '音声がすべて届く前に途切れたため、このリクエストは失敗しました。直前の同じリクエストのために作られた音声で、文字数はそちらで計上されています。あなたの分は何も計上されていません。もう一度お試しください。',
  'error.api.undelivered.paid':
    '音声サービスはこのリクエストを受け付けて {paid} 文字を計上したため、その分は消費されましたが、音声がすべて届く前に途切れました。もう一度お試しください。',
  'error.api.oversized':
    '音声サービスがこのテキストに見合わないほど多くの音声を送ってきたため（サービス側の不具合）、途中で止めて何も残しませんでした。文字数は消費済みです。しばらくしてからお試しください。',
  'error.api.cloneWithoutVoiceId':
    '音声サービスはこのクローンを受け付けて文字数を計上しましたが、どの声を作ったかを伝えなかったため、SayBot には使える声の ID がありません。声はサービス側に作られている可能性があり、その文字数は消費されました。もう一度クローンすると、再び費用がかかります。',
  'error.api.aborted': 'リクエストはキャンセルされました。',
  'error.api.chargedNotAudio':
    '音声サービスはこのリクエストを受け付けて文字数を数えましたが、返ってきたのは音声ではありませんでした（手前のゲートウェイのページなど）。再生できるものはありません。その文字数は課金された可能性があるため、ここでも使用済みとして数えます。まだ必要な場合だけ、もう一度お試しください。',
  'error.api.refusedOnTheWay':
    '音声サービスまたはその手前の何かが、サービス自身の理由の説明なしにこのリクエストを拒否しました（{status}）。何も作成されず、文字数も消費されていません。オーナーに通知しました。後でもう一度お試しください。',
  'error.api.refusedOnTheWay.maybeCharged':
    '音声サービスまたはその手前の何かがこのリクエストを拒否しました（{status}）。ボットにはどちらなのか、文字数が計上されたかどうかも分からないため、ここでは使用済みとして数えます。オーナーに通知しました。まだ必要な場合だけ、もう一度お試しください。',
  'error.api.maybeCharged.service':
    '音声サービスは {status} を返し、{said}と伝えました。リクエストを受け取った後で失敗したため、文字数が数えられたかどうかはボットには分かりません。ここでは消費済みとして数えます。まだ必要な場合にだけ、もう一度お試しください。',
  'error.api.maybeCharged.gateway':
    '音声サービス自身はこのリクエストに応答しませんでした。サービス自身の言葉のない {status} が返ったため（手前のゲートウェイからなど）、処理されたかどうか分かりません。サービスが文字数を計上した可能性があるため、ここでも使用済みとして数えます。まだ必要な場合だけ、もう一度お試しください。',
  'error.api.maybeCharged.timeout':
    'リクエストを送った後、音声サービスの応答に時間がかかりすぎました。サービスはそれでも処理して文字数を計上した可能性があるため、ここでも使用済みとして数えます。まだ必要な場合だけ、もう一度お試しください。',
  'error.api.maybeCharged.connection':
    'リクエストを送った後、応答が届く前に音声サービスとの接続が切れました。サービスは処理して文字数を計上した可能性があるため、ここでも使用済みとして数えます。まだ必要な場合だけ、もう一度お試しください。',
  'error.paidPartWay.quota':
    '音声サービスはこのリクエストの一部を作成し、その {paid} 文字を計上したため、その分は消費されました。今月の残りの文字数が残りの部分には足りないため、残りは送信していません。上限は {reset} にリセットされます。',
  'error.paidPartWay.tooFewLeft':
    '音声サービスはこの一部を作成し、その {paid} 文字を数えました（消費済みです）。今月の残りは {left, number} 文字だけで、次の部分には {needed, number} 文字が必要なため、残りは送信しませんでした。上限は {reset} にリセットされます。',
  'error.paidPartWay.budget':
    '音声サービスはこのリクエストの一部を作成し、その {paid} 文字を計上したため、その分は消費されました。残りの部分はここでの文字数の予算を超えるため、送信していません。残りは /usage で確認できます。',
  'error.paidPartWay.keyRefused':
    '音声サービスはこのリクエストの一部を作成し、その {paid} 文字を計上したため、その分は消費されました。その後ボットの Voice API キーを拒否した（無効か、無効化されている）ため、残りは送信しておらず、費用もかかっていません。サーバーの管理者に伝えてください。',
  'error.paidPartWay.planRefused':
    '音声サービスはこのリクエストの一部を作成し、その {paid} 文字を計上したため、その分は消費されました。その後ボットの Voice API プランに API アクセスが含まれていないとして残りを拒否したため、残りは送信しておらず、費用もかかっていません。サーバーの管理者に伝えてください（Creator 以上のプランが必要です）。',
  'error.paidPartWay.failing':
    '音声サービスはこのリクエストの一部を作成し、その {paid} 文字を計上したため、その分は消費されました。その後サービスに障害が起きている（{status}）ため、残りは作成されておらず、費用もかかっていません。残りは後でもう一度お試しください。',
  'error.maybePaid.voiceDeleted':
    '音声 `{voice}` は作成中にこのサーバーから削除されたため、読み上げません。音声サービスがその {unconfirmed} 文字を計上した可能性があり、消費済みとしています。',
  'error.paidPartWay.voiceDeleted':
    '音声 `{voice}` は作成中にこのサーバーから削除されたため、読み上げません。音声サービスはすでにその {paid} 文字を計上しており、その分は消費されました。',
  'error.paidPartWay.refused':
    '音声サービスはこのリクエストの一部を作成し、その {paid} 文字を計上したため、その分は消費されました。ボットが今は残りを送信できないため、残りは送信しておらず、費用もかかっていません。運営者に通知しました。',
  'error.renderStopped': 'ご依頼どおり、完成前に停止しました。料金はかかっておらず、何も投稿しません。',
  'error.renderStopped.paid':
    'ご依頼どおり、完成前に停止しました。音声サービスはその一部をすでに作成して {paid} 文字を計上しており、その分は消費済みです。それ以上は送らず、何も投稿しません。',
  'error.renderStopped.closed':
    'ご依頼どおり、完成前に停止しました。音声サービスが作成中だった部分は応答前に閉じましたが、サービスがその {unconfirmed} 文字を計上した可能性があるため、ここでも使用済みとして数えます。それ以上は送らず、何も投稿しません。',
  'error.renderStopped.paidClosed':
    'ご依頼どおり、完成前に停止しました。音声サービスはその一部をすでに作成して {paid} 文字を計上しており、その分は消費済みです。そのとき作成中だった部分は応答前に閉じましたが、サービスがその {unconfirmed} 文字を計上した可能性があるため、ここでも使用済みとして数えます。それ以上は送らず、何も投稿しません。',
  'error.voice.joinFailed': '{channel} に参加できませんでした。接続と発言の権限を確認して、もう一度お試しください。',
  'error.voice.daveRequired':
    '{channel} に参加できませんでした：Discord がエンドツーエンド暗号化音声（DAVE）を必須としていますが、ボットの音声接続が対応していませんでした。ボットの運営者に通知しました。',
  'error.voice.daveRequired.helper':
    '{bot} は {channel} に参加できませんでした：Discord がエンドツーエンド暗号化音声（DAVE）を必須としていますが、そのボットの音声接続が対応していませんでした。ボットの運営者に通知しました。',
  'error.voice.rateLimited':
    'Discord が今は {channel} への音声接続を拒否しました（レート制限）。1 分ほど待ってからもう一度お試しください。',
  'error.voice.rateLimited.helper':
    'Discord が今は {bot} の {channel} への音声接続を拒否しました（レート制限）。1 分ほど待ってからもう一度お試しください。',
  'error.voice.leftWhileJoining': '{channel} に参加している途中で退出を頼まれたため、そこには残りませんでした。',
  'error.voice.leftWhileJoining.helper':
    '{bot} は {channel} に参加している途中で退出を頼まれたため、そこには残りませんでした。',
  'error.voice.callTerminated':
    'Discord が {channel} の通話を終了したため退出しました。/say か /join でもう一度頼むと新しく接続します。',
  'error.voice.callTerminated.helper':
    'Discord が {channel} の通話を終了したため、{bot} は退出しました。/say か /join でもう一度頼むと新しく接続します。',
  'error.revoked.not-in-voice': '{channel} から退出したため、そこでの代読を止めました。残りは取り消しました。',
  'error.revoked.muted':
    'モデレーターが {channel} であなたをサーバーミュートしたため、代読を止めました。残りは取り消しました。',
  'error.revoked.suppressed':
    'あなたはステージ {channel} のスピーカーではなくなったため、代読を止めました。残りは取り消しました。',
  'error.revoked.may-not-speak':
    'あなたは {channel} で発言できなくなったため、代読を止めました。残りは取り消しました。',
  'error.revoked.may-not-view':
    'あなたはもう {channel} を閲覧できないため、そこでの代読を止めました。残りは取り消しました。',
  'error.revoked.may-not-connect':
    'あなたはもう {channel} に接続できないため、そこでの代読を止めました。残りは取り消しました。',
  'error.revoked.timed-out':
    'あなたはこのサーバーでタイムアウトされたため、{channel} での代読を止めました。残りは取り消しました。',
  'error.revoked.bot-unheard':
    '{channel} では私の声がもう誰にも聞こえません（モデレーターが私をサーバーミュートしたか、話せないステージの聴衆に移しました）。そのため止めました。残りは取り消しました。',
  'error.revoked.bot-unheard.helper':
    '{channel} では {bot} の声がもう誰にも聞こえません（モデレーターがそのボットをサーバーミュートしたか、話せないステージの聴衆に移しました）。そのため止めました。残りは取り消しました。',
  'error.revoked.ignored': 'サーバーの管理者が自動読み上げであなたを読まないよう設定しました。残りは取り消しました。',
  'error.revoked.not-served': 'このサーバーではもう動作していません。残りは取り消しました。',
  'error.revoked.notStarted.not-in-voice':
    '{channel} から退出したため、リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.muted':
    'モデレーターが {channel} であなたをサーバーミュートしたため、リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.suppressed':
    'あなたはステージ {channel} のスピーカーではなくなったため、リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.may-not-speak':
    'あなたは {channel} で発言できなくなったため、リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.may-not-view':
    'あなたはもう {channel} を閲覧できないため、リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.may-not-connect':
    'あなたはもう {channel} に接続できないため、リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.timed-out':
    'あなたはこのサーバーでタイムアウトされたため、{channel} でのリクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.bot-unheard':
    '{channel} では私の声がもう誰にも聞こえません（モデレーターが私をサーバーミュートしたか、話せないステージの聴衆に移しました）。そのためリクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.bot-unheard.helper':
    '{channel} では {bot} の声がもう誰にも聞こえません（モデレーターがそのボットをサーバーミュートしたか、話せないステージの聴衆に移しました）。そのためリクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.ignored':
    'サーバーの管理者が自動読み上げであなたを読まないよう設定しました。リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.notStarted.not-served':
    'このサーバーではもう動作していません。リクエストは再生しませんでした（まだ何も再生していませんでした）。',
  'error.revoked.spent':
    '{reason}{paid, plural, =0 {音声サービスに依頼した分は} other {音声サービスが計上した # 文字は}}、聞こえたかどうかにかかわらず使用済みとして計上されます。/usage で確認できます。',
  'error.audio.unsupported': '音声サービスから再生できない形式の音声が届きました（{format}）。',
  'error.busy':
    '現在混み合っていて、時間内に処理できませんでした。少し待ってからもう一度お試しください。料金はかかっていません。',
  'error.audio.busy':
    '現在、準備中の音声（ファイル、速度、音量）が多すぎます。少し待ってからもう一度お試しください（二重に課金されてはいません）。',
  'error.audio.guildBusy':
    'このサーバーではすでに {limit} 件の音声（ファイル、速度や音量）を準備中で、1 つのサーバーの上限です。終わってからもう一度お試しください（二重に課金はされていません）。',
  'error.input.emptyText': '読み上げるテキストを入力してください。',
  'error.input.unknownVoice': '「{voice}」という音声はありません。一覧から選んでください。',
  'error.input.voiceUnlisted':
    '音声「{voice}」はこのボットの一覧にないため、保存しませんでした。一覧 (/voices list) から選ぶか、ボットの管理者に追加を頼んでください。',
  'error.input.voiceDeleted':
    '音声 `{voice}` はこのサーバーから削除されたため、この音声ではもう話しません。この依頼で文字数は使われていません。',
  'error.input.engineVoiceUnknown':
    '声「{voice}」は今は使えません。音声エンジンがこの声を提供していないか、設定されていません。一覧から選んでください。',
  'error.input.savedVoiceNotOffered':
    '声 {voice} は今は使えません。音声エンジンがこの声を提供していないか、設定されていません。別の声を選んでください。デフォルトは /myvoice set で、プリセットは /preset save（サーバー管理）で変えられます。',
  'error.input.engineVoiceNotAnswering':
    '声「{voice}」は保存しませんでした。音声エンジンが今は応答しないため、この声があるか確かめられません。応答するようになってからもう一度試すか、別の声を選んでください。',
  'error.input.freeVoiceUnavailable':
    '無料の声 `{voice}` はこの SayBot では使えません（運営者が無効にしたか、インストールしていません）。別の声を選んでください。料金はかかっていません。',
  'error.preset.unknown': 'このサーバーに「{name}」というプリセットはありません。/preset list で確認できます。',
  'buttons.notCached':
    'この音声はもう SayBot のキャッシュになく、再生するとまた文字数がかかるため、何もしませんでした。必要ならコマンドをもう一度使ってください。',
  'error.payload.missingId':
    'Discord からのリクエストに必要な ID がない（または正しくない）ため、何もしませんでした。もう一度お試しください。',
  'error.internal': 'ボット内部で問題が起きました。運営者に記録されました。もう一度お試しください。',
  'quota.exhaustedChecking':
    '音声サービスの今月の文字数上限に達しています（{marked} にサービスが通知）。いま別のリクエストが上限が戻ったかを確認中のため、送信していません。少し待ってからもう一度お試しください。キャッシュにある音声は引き続き再生できます。',
  'quota.tooFewLeft':
    '音声サービスの今月の残りは {left, number} 文字で、このリクエストには {needed, number} 文字必要なため、音声は作られていません（文字は使われていません）。短いテキストでお試しください。上限は {reset} にリセットされます。',
  'quota.tooFewLeftForMember':
    '音声サービスの今月の残り文字数が足りないため、このテキストの音声は作られていません（文字は使われていません）。短いテキストでお試しください。上限は {reset} にリセットされます。',
  'quota.tooFewLeftSaid':
    '音声サービスは {at} の時点で今月の残りを {left, number} 文字と伝えており、このリクエストには {needed, number} 文字必要です。いま別のリクエストが文字数が追加されたかを確認中のため、送信していません。少し待ってからもう一度お試しください。上限は {reset} にリセットされます。',
  'quota.tooFewLeftSaidForMember':
    '音声サービスは {at} の時点で今月の残り文字数がこのテキストには足りないと伝えていました。いま別のリクエストが文字数が追加されたかを確認中のため、送信していません。少し待ってからもう一度お試しください。上限は {reset} にリセットされます。',
  'quota.recordFailed':
    'いま音声サービスの利用量を記録できない（ボットの保存先に書き込めない）ため、記録できるようになるまで文字を消費するリクエストは送信しません。運営者に通知しました。キャッシュにある音声は引き続き再生できます。',
  'quota.storageUnavailable':
    'ボットの保存先が時間内に応答しなかったため、何も送信せず、文字も消費していません。少し待ってからもう一度お試しください。運営者に通知しました。',
  'budget.refused.outsideMonth':
    'サーバー外での利用はすべて、月間予算 {limit} 文字を共有しています。{used} 文字を使用済みで、このリクエストには {needed} 文字必要です。{reset} にリセットされます。',
  'budget.refused.guildMonth':
    'このサーバーの月間予算は {limit} 文字です。{used} 文字を使用済みで、このリクエストには {needed} 文字必要です。{reset} にリセットされます。',
  'budget.refused.memberDayOutside':
    'サーバー外でのあなたの 1 日の予算は {limit} 文字です。今日は {used} 文字使用済みで、このリクエストには {needed} 文字必要です。{reset} にリセットされます。',
  'budget.refused.memberDay':
    'このサーバーでのあなたの 1 日の予算は {limit} 文字です。今日は {used} 文字使用済みで、このリクエストには {needed} 文字必要です。{reset} にリセットされます。',
  'budget.refused.cooldownOutside':
    '{seconds} 秒後にもう一度 SayBot を使えます。サーバー外では、{limit} 秒に 1 回文字を使います。',
  'budget.refused.cooldown':
    '{seconds} 秒お待ちください。このサーバーでは、メンバーは {limit} 秒に 1 回文字を使えます。',
  'budget.refused.botMonth':
    'SayBot は運営者が全サーバー合計で決めた今月の上限に達しました。{reset} にリセットされます。',
  'queue.refused.guildClips':
    'このボイスチャンネルの音声キューがいっぱいです（待機中 {queued} 件、最大 {limit} 件）。いくつか再生されてからもう一度試すか、ファイルで依頼してください。',
  'queue.refused.guildSeconds':
    'このボイスチャンネルの音声キューがいっぱいです（約 {queued} 秒分が待機中、最大 {limit} 秒）。少し再生されてからもう一度試すか、ファイルで依頼してください。',
  'queue.refused.member':
    'このサーバーではすでに {limit} 件のリクエストが待機中で、1 人のメンバーが置ける上限です。1 件再生されてからもう一度試してください。',
  'budget.refused.freeRate':
    '1 分以内に文字数を使わないリクエストを {limit} 回行いました。1 人のメンバーの上限です。数えるのは、無料の声（eSpeak NG やこのボット自身の音声エンジン。有料の声の代わりに話したときも含みます）での読み上げ、再生し直し、別の速度や音量、作成済みの音声、シーンのプレビュー、/usage のグラフの作成です。{seconds} 秒後にもう一度お試しください。',
  'error.tooLong.freeLine':
    '無料の音声で話すと1行の上限 {max} 秒を超えるため、話しませんでした。課金はありません。短いテキストでお試しください。',
  'error.tooLong.freeLineEstimate':
    '無料の音声の1行が約 {seconds} 秒かかります。無料の音声の1行は最長 {max} 秒です。長さは話してみるまで分からないため、SayBot は見込みが {ceiling} 秒までの行だけを話します（{margin}% の余裕）。短くするか分けてください。何も作られず、課金もありません。',
  'error.tooLong.scene':
    'このシーンは1つのシーンの上限 {max} 秒を超えるため、作りませんでした。セリフを減らすか短くしてください。',
  'error.freeVoice.missing':
    'このSayBotには無料の音声がインストールされていないため、話せません。別の音声を選んでください。運営者に通知しました。',
  'error.input.guildOnly': 'このコマンドはサーバー内でのみ使えます。',
  'error.permission.manageServer':
    'サーバーのプリセットを変更するには「サーバー管理」権限が必要ですが、このサーバーではその権限がありません。サーバーの管理者に依頼してください。プリセットの一覧表示と使用は誰でもできます。',
  'error.voice.notInVoice': '先にボイスチャンネルに参加してください。',
  'refusal.nothingSpent': '何も消費していません。',
  'error.voice.memberMuted':
    'モデレーターがあなたをサーバーミュートしているため、{channel} であなたの代わりに話しません。何も消費していません。',
  'error.voice.memberSuppressed':
    'あなたはステージ {channel} の聴衆です。スピーカーになってから、そこで代わりに話します。何も消費していません。',
  'error.voice.memberMayNotView':
    'あなたは {channel} を閲覧する権限（チャンネルを見る）がないため、そこで代わりに話しません。何も消費していません。',
  'error.voice.memberMayNotConnect':
    'あなたは {channel} に接続する権限がないため、そこで代わりに話しません。何も消費していません。',
  'error.voice.memberTimedOut':
    'あなたはこのサーバーでタイムアウト中のため、代わりに話しません。何も消費していません。',
  'error.voice.authorLeft':
    '{member} さんはもうこのサーバーのメンバーではないため、そのメッセージは読み上げません。何も消費していません。',
  'error.voice.authorMayNotSpeak':
    '{member} さんは {channel} で発言できないため（サーバーミュート、タイムアウト、または発言権限なし）、そのメッセージをそこでは読み上げません。何も消費していません。',
  'error.voice.memberMayNotSpeak':
    'あなたは {channel} で発言する権限がないため、そこで代わりに話しません。何も消費していません。',
  'error.audio.failed':
    'この音声を準備できませんでした。音声処理がこのリクエストで停止したか、時間がかかりすぎました。影響はこのリクエストだけです。もう一度お試しください（二重に課金はされていません）。',
  'error.freeVoice.stopped':
    '無料の声はこのテキストを読めませんでした。eSpeak NG がこのテキストで停止しました。失敗したのはこの行だけで、この行に料金はかかっていません。',
  'error.freeVoice.timeout':
    '無料の声はこのテキストに時間がかかりすぎたため停止しました。失敗したのはこの行だけで、この行に料金はかかっていません。',
  'error.files.guildBusy':
    'このサーバーでは、すでに{limit}件のファイルまたはボイスメッセージを作成中です。1つのサーバーが同時に作れる上限です。終わってからもう一度お試しください（料金はかかっていません）。',
  'error.files.busy':
    'いま同時に作れる上限までファイルとボイスメッセージを作成中です。少し待ってからもう一度お試しください（料金はかかっていません）。',
  'error.files.memberBusy':
    'このサーバーでは、すでに{limit}件のファイルまたはボイスメッセージを作成中です。1人のメンバーが同時に作れる上限です。終わってからもう一度お試しください（料金はかかっていません）。',
  'error.files.userBusy':
    'すでにファイルやボイスメッセージを {limit} 件作成中で、サーバーの外で 1 人が同時に作れる上限です。終わってからもう一度お試しください（料金はかかっていません）。',
  'error.audio.memberBusy':
    'すでに長い音声（シーンや長いファイル）を作成中です。料金がかからない場合でも、1 人が同時に作れるのはここまでです。終わってからもう一度お試しください。',
  'scene.played': '🎬 {channel} でシーンを再生しました: {seconds} 秒。',
  'scene.stopped': 'シーンは {seconds} 秒で停止しました。作成された分だけ料金がかかりました。',
  'scene.skipped': 'シーンは {seconds} 秒でスキップされました。作成された分だけ料金がかかりました。',
  'scene.cutOff': 'シーンは {seconds} 秒で途切れました (SayBot が {channel} から退出しました)。',
  'scene.posted': '🎬 シーンを投稿しました: {seconds} 秒。',
  'scene.postedPrivately': 'このチャンネルにはファイルを投稿できないため、シーンはあなただけに送ります: {seconds} 秒。',
  'scene.freeVoiceStoodIn': '一部の行は無料の声で読み上げました: {reason}。',
  'scene.header': '🎬 {member} さんのシーン: 声 {speakers} 種類、{seconds} 秒',
  'scene.voiceLabel': '声 {speakers} 種類のシーン',
  'scene.voiceMessagePosted': '🎬 シーンをボイスメッセージとして投稿しました: {seconds} 秒。字幕はここに添付しました。',
  'outcome.failedAfterPaying': '音声サービスは {paid} 文字を計上し、その分は消費済みです。{detail}',
  'outcome.freeVoiceFailed': '{refused}代わりの無料の声でも読み上げられませんでした。{detail}',
  'outcome.partWay.standIn': 'この一部は{voice}で読み上げましたが、残りは作成できませんでした。{detail}',
  'outcome.failedMaybePaid': '音声サービスが {unconfirmed} 文字を計上した可能性があり、消費済みとしています。{detail}',
  'outcome.partWay.only': '後の部分が失敗する前に作られた部分だけが入っています。残りは入っていません。',
  'freeLine.cutAtCap': '見込みより長くなったため、無料の音声の1行の最長である {max} 秒で切りました。',
  'scene.cutAtCap':
    '見込みより長くなったため、シーンの最長の {max} 秒で切りました。{lines} 行のうち {heard} 行が入っています。切った後の行は作っておらず、料金もかかっていません。',
  'scene.tooLong':
    'このシーンは約 {seconds} 秒かかります。シーンは最長 {max} 秒です。長さは料金を払ってからでないと分からないため、SayBot は見込みが {ceiling} 秒までのシーンだけを作ります（{margin}% の余裕）。短くするか二つに分けてください。料金はかかっていません。',
  'studio.scenes.made': 'シーンを作成しました: {seconds}秒。',
  'studio.scenes.cut': '音声が{max}秒を超えたため、そこで切りました。',
  'studio.scenes.played': 'ボイスチャンネルでシーンを再生しました: {seconds}秒。',
  'studio.scenes.stopped': '{seconds}秒後にシーンが止められました。',
  'error.input.emotionEngineVoice':
    '{voice} はこのボットの音声エンジンの声で、感情を表現できません。/say で使うか、/emote にはサービスの声を選んでください。',
  'error.engine.failed':
    'このボットの音声エンジンがこの行を読み上げられませんでした（応答がないか、音声ではない答えが返りました）。この行に料金はかかっていません。あとで試すか、別の声を選んでください。',
  'error.engine.timeout':
    'このボットの音声エンジンがこの行の音声を期限内に送りきれませんでした（遅すぎるか、途中で止まりました）。この行に料金はかかっていません。あとで試すか、別の声を選んでください。',
  'error.engine.busy':
    'このボットの音声エンジンはこのサーバーのほかの行で手一杯です。この行に料金はかかっていません。少し待ってから試してください。',
  'error.input.exaggeration': '強さは 0 から 1 までの数値で指定してください（入力: {value}）。',
  'command.emote': '感情',
  'command.emote.description': '感情を込めてテキストを話します',
  'command.say': '話す',
  'command.say.description': 'テキストを音声で話します',
  'option.exaggeration.description.emote': '感情の強さ: 0（淡々と）から 1（強く）まで、既定 0.5',
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
  'say.textTooLong':
    'このテキストは音声サービスの数え方（Unicode 正規化後）で **{characters}** 文字です。一度に読み上げられるのは {max} 文字までです。',
};
