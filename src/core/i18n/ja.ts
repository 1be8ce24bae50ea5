import type { Translation } from './catalogue.ts';
import type { en } from './en.ts';

export const ja: Translation<typeof en> = {
  'error.api.badRequest':
    '音声サービスがこのリクエストを拒否しました: {detail}。テキストとオプションを確認して、もう一度お試しください。',
  'error.api.unauthorized':
    'ボットの Voice API キーが無効か、無効化されています。サーバーの管理者に伝えてください。文字数は消費されていません。',
  'error.api.forbidden':
    'ボットの Voice API プランには API アクセスが含まれていません。サーバーの管理者に伝えてください（Creator 以上のプランが必要です）。',
  'error.api.quota': '音声サービスの今月の文字数上限に達しました。{reset} にリセットされます。',
  'error.api.rateLimited': '音声サービスが混み合っています。数秒後にもう一度お試しください。',
  'error.api.server': '音声サービスで障害が発生しています（{status}）。しばらくしてからお試しください。',
  'error.api.timeout': '音声サービスの応答に時間がかかりすぎました。もう一度お試しください。',
  'error.api.connection': '音声サービスに接続できませんでした。しばらくしてからお試しください。',
  'error.api.unexpected': '音声サービスから使えない応答が返りました。しばらくしてからお試しください。',
  'error.api.undelivered':
    '音声サービスはこのリクエストを受け付けて文字数を数えましたが、音声が届く前に途切れたため何も再生できませんでした。その文字数は消費済みです。もう一度お試しください。',
  'error.api.oversized':
    '音声サービスがこのテキストに見合わないほど多くの音声を送ってきたため（サービス側の不具合）、途中で止めて何も残しませんでした。文字数は消費済みです。しばらくしてからお試しください。',
  'error.api.aborted': 'リクエストはキャンセルされました。',
  'error.voice.joinFailed': '{channel} に参加できませんでした。接続と発言の権限を確認して、もう一度お試しください。',
  'error.voice.daveRequired':
    '{channel} に参加できませんでした：Discord がエンドツーエンド暗号化音声（DAVE）を必須としていますが、ボットの音声接続が対応していませんでした。ボットの運営者に通知しました。',
  'error.voice.rateLimited':
    'Discord が今は {channel} への音声接続を拒否しました（レート制限）。1 分ほど待ってからもう一度お試しください。',
  'error.voice.callTerminated':
    'Discord が {channel} の通話を終了したため退出しました。/say か /join でもう一度頼むと新しく接続します。',
  'error.voice.notInVoice': '先にボイスチャンネルに参加してください。',
  'error.voice.memberMuted':
    'モデレーターがあなたをサーバーミュートしているため、{channel} であなたの代わりに話しません。何も消費していません。',
  'error.voice.memberSuppressed':
    'あなたはステージ {channel} の聴衆です。スピーカーになってから、そこで代わりに話します。何も消費していません。',
  'error.voice.memberMayNotSpeak':
    'あなたは {channel} で発言する権限がないため、そこで代わりに話しません。何も消費していません。',
  // Rights taken away while speech waited (src/core/speech/revocation.ts): the rest of it was dropped.
  'error.revoked.not-in-voice': '{channel} から退出したため、そこでの代読を止めました。残りは取り消しました。',
  'error.revoked.muted':
    'モデレーターが {channel} であなたをサーバーミュートしたため、代読を止めました。残りは取り消しました。',
  'error.revoked.suppressed':
    'あなたはステージ {channel} のスピーカーではなくなったため、代読を止めました。残りは取り消しました。',
  'error.revoked.may-not-speak':
    'あなたは {channel} で発言できなくなったため、代読を止めました。残りは取り消しました。',
  'error.revoked.ignored': 'サーバーの管理者が自動読み上げであなたを読まないよう設定しました。残りは取り消しました。',
  'error.revoked.not-served': 'このサーバーではもう動作していません。残りは取り消しました。',
  'error.audio.unsupported': '音声サービスから再生できない形式の音声が届きました（{format}）。',
  'error.input.emptyText': '読み上げるテキストを入力してください。',
  'error.input.unknownVoice': '「{voice}」という音声はありません。一覧から選んでください。',
  'error.input.voiceDeleted':
    '音声 `{voice}` はこのサーバーから削除されたため、この音声ではもう話しません。この依頼で文字数は使われていません。',
  'error.input.freeVoiceUnavailable':
    '無料の声 `{voice}` はこの SayBot では使えません（運営者が無効にしたか、インストールしていません）。別の声を選んでください。料金はかかっていません。',
  'error.input.guildOnly': 'このコマンドはサーバー内でのみ使えます。',
  'error.input.speed': '速度は 0.5 から 2 までの数値で指定してください（入力: {value}）。',
  'error.input.volume': '音量は -20 から 6 までの dB で指定してください（入力: {value}）。',
  'error.input.pitch': 'ピッチは -12 から 12 までの半音で指定してください（入力: {value}）。',
  'error.audio.busy':
    '現在、準備中の音声（ファイル、速度、音量）が多すぎます。少し待ってからもう一度お試しください（二重に課金されてはいません）。',
  'error.audio.failed':
    'この音声を準備できませんでした。音声処理がこのリクエストで停止したか、時間がかかりすぎました。影響はこのリクエストだけです。もう一度お試しください（二重に課金はされていません）。',
  'error.freeVoice.stopped':
    '無料の声はこのテキストを読めませんでした。eSpeak NG がこのテキストで停止しました。失敗したのはこの行だけで、料金はかかっていません。',
  'error.freeVoice.timeout':
    '無料の声はこのテキストに時間がかかりすぎたため停止しました。失敗したのはこの行だけで、料金はかかっていません。',
  'error.audio.memberBusy':
    'すでに長い音声（シーンや長いファイル）を作成中です。料金がかからない場合でも、1 人が同時に作れるのはここまでです。終わってからもう一度お試しください。',
  'error.audio.guildBusy':
    'このサーバーではすでに {limit} 件の音声（ファイル、速度や音量）を準備中で、1 つのサーバーの上限です。終わってからもう一度お試しください（二重に課金はされていません）。',
  'error.input.unknownLanguage': '「{language}」は言語コードではありません。一覧から選んでください（例: ja, en, ko）。',
  'error.internal': 'ボット内部で問題が起きました。運営者に記録されました。もう一度お試しください。',
  'error.shuttingDown': 'ボットを再起動しています。少ししてからもう一度お試しください。',
  'error.guildNotAllowed': 'SayBot の運営者がこのサーバーを選んでいないため、ここでは SayBot は動作しません。',
  // A private reply sent by DM once the interaction's token is gone: which command in which server it answers.
  'reply.direct': '{server} での {command} への返信です:',
  'buttons.notCached':
    'この音声はもう SayBot のキャッシュになく、再生するとまた文字数がかかるため、何もしませんでした。必要ならコマンドをもう一度使ってください。',
  'setting.value.on': 'オン',
  'setting.value.off': 'オフ',
  'setting.value.none': 'なし',
  'settings.tone': 'トーン {tone}',
  'settings.exaggeration': '感情の強さ {value}',
  'settings.speed': '速さ {value}倍',
  'settings.volume': '音量 {value} dB',
  'settings.pitch': 'ピッチ {value} 半音',
  'choices.cloned': 'クローン音声',
  'choices.free': '無料の声、文字数を消費しません',
  'error.preset.unknown': 'このサーバーに「{name}」というプリセットはありません。/preset list で確認できます。',
  'error.permission.manageServer':
    'サーバーのプリセットを変更するには「サーバー管理」権限が必要ですが、このサーバーではその権限がありません。サーバーの管理者に依頼してください。プリセットの一覧表示と使用は誰でもできます。',
  'quota.exhaustedChecking':
    '音声サービスの今月の文字数上限に達しています（{marked} にサービスが通知）。いま別のリクエストが上限が戻ったかを確認中のため、送信していません。少し待ってからもう一度お試しください。キャッシュにある音声は引き続き再生できます。',
  'quota.tooFewLeft':
    '音声サービスの今月の残りは {left} 文字で、このリクエストには {needed} 文字必要なため送信していません。短いテキストでお試しください。上限は {reset} にリセットされます。',
  'quota.tooFewLeftForMember':
    '音声サービスの今月の残り文字数が足りないため、このテキストは送信していません。短いテキストでお試しください。上限は {reset} にリセットされます。',
  'quota.recordFailed':
    'いま音声サービスの利用量を記録できない（ボットの保存先に書き込めない）ため、記録できるようになるまで文字を消費するリクエストは送信しません。運営者に通知しました。キャッシュにある音声は引き続き再生できます。',
  'quota.storageUnavailable':
    'ボットの保存先が時間内に応答しなかったため、何も送信せず、文字も消費していません。少し待ってからもう一度お試しください。運営者に通知しました。',
  'budget.refused.guildMonth':
    'このサーバーの月間予算は {limit} 文字です。{used} 文字を使用済みで、このリクエストには {needed} 文字必要です。{reset} にリセットされます。',
  'budget.refused.memberDay':
    'このサーバーでのあなたの 1 日の予算は {limit} 文字です。今日は {used} 文字使用済みで、このリクエストには {needed} 文字必要です。{reset} にリセットされます。',
  'budget.refused.cooldown':
    '{seconds} 秒お待ちください。このサーバーでは、メンバーは {limit} 秒に 1 回文字を使えます。',
  'budget.refused.botMonth':
    'SayBot は運営者が全サーバー合計で決めた今月の上限に達しました。{reset} にリセットされます。',
  'queue.refused.guildClips':
    'このサーバーの音声キューがいっぱいです（待機中 {queued} 件、最大 {limit} 件）。いくつか再生されてからもう一度試すか、ファイルで依頼してください。',
  'queue.refused.guildSeconds':
    'このサーバーの音声キューがいっぱいです（約 {queued} 秒分が待機中、最大 {limit} 秒）。少し再生されてからもう一度試すか、ファイルで依頼してください。',
  'queue.refused.member':
    'このサーバーではすでに {limit} 件のリクエストが待機中で、1 人のメンバーが置ける上限です。1 件再生されてからもう一度試してください。',
  'budget.refused.freeRate':
    '1 分以内に文字数を使わないリクエスト（再生し直し、別の速度や音量、作成済みの音声）を {limit} 回行いました。1 人のメンバーの上限です。{seconds} 秒後にもう一度お試しください。',
  'option.text': 'テキスト',
  'option.text.description': '話す内容',
  'option.name': '名前',
  'option.output': '出力',
  'option.output.description': 'ボイスチャンネルで再生、ファイルで送信、またはボイスメッセージで送信',
  'option.exaggeration': '感情の強さ',
  'option.voice': '声',
  'option.voice.description': '話す声',
  'option.preset': 'プリセット',
  'option.preset.description': 'このサーバーの音声プリセット',
  'option.language': '言語',
  'option.language.description': 'テキストの言語（省略時は自動判定）',
  'option.tone': 'トーン',
  'option.tone.description': '話し方の指示（例: 「ささやくように」）',
  'option.speed': '速度',
  'option.speed.description': '話す速さ、0.5〜2（1 = 標準）。声の高さは変わりません',
  'option.volume': '音量',
  'option.volume.description': '大きく・小さく、-20〜+6 dB（0 = 標準）。音割れしません',
  'option.pitch': 'ピッチ',
  'option.pitch.description': '高く・低く、-12〜+12 半音（0 = 元の声）。長さはそのまま',
  'option.format': '形式',
  'option.format.description': 'ファイルで送るときの音声形式',
  'choice.output.voice': 'ボイスチャンネル',
  'choice.output.file': 'ファイル',
  'choice.output.voice-message': 'ボイスメッセージ',
  'choice.format.wav': 'WAV',
  'choice.format.mp3': 'MP3',
};
