/**
 * Every user-facing string, in the three languages SayBot speaks (Discord locales en-US, ko, ja).
 * English is the source: its keys define the catalogue and the other languages must match it (the type checks).
 */
const en = {
  // Voice API failures
  'error.api.badRequest': 'The voice service refused this request: {detail}. Check the text and the options, then try again.',
  'error.api.unauthorized': "The bot's Voice API key is invalid or deactivated. Please tell the server owner; nothing was spent.",
  'error.api.forbidden': "The bot's Voice API plan does not include API access. Please tell the server owner (a Creator plan or higher is needed).",
  'error.api.quota': 'The monthly character quota of the voice service is used up. It resets {reset}.',
  'error.api.rateLimited': 'The voice service is busy right now. Please try again in a few seconds.',
  'error.api.server': 'The voice service is failing right now ({status}). Please try again later.',
  'error.api.timeout': 'The voice service took too long to answer. Please try again.',
  'error.api.connection': 'The bot could not reach the voice service. Please try again later.',
  'error.api.unexpected': 'The voice service sent something the bot could not use. Please try again later.',
  'error.api.aborted': 'The request was cancelled.',
  // Voice channel failures
  'error.voice.joinFailed': 'I could not join {channel}. Check that I may connect and speak there, then try again.',
  'error.voice.busyElsewhere': 'I am speaking in {channel} right now. Join that channel, or try again when I am done.',
  'error.voice.notInVoice': 'Join a voice channel first.',
  'error.voice.notConnected': 'I am not in a voice channel in this server.',
  'error.voice.streamFailed': 'The audio stopped part-way ({detail}). Please try again.',
  'error.audio.unsupported': 'The voice service sent audio in a format I cannot play ({format}).',
  'error.discord.uploadFailed': 'I could not post the audio file here. Check that I may attach files in this channel.',
  // Input problems
  'error.input.emptyText': 'Please give some text to speak.',
  'error.input.unknownVoice': 'There is no voice "{voice}". Pick one from the list.',
  'error.input.guildOnly': 'This command works only in a server.',
  'error.input.exaggeration': 'Exaggeration must be a number from 0 to 1; got {value}.',
  'error.input.unknownLanguage': '"{language}" is not a language code. Pick one from the list (for example en, ko, ja).',
  'error.internal': 'Something went wrong on my side. The operator has been told; please try again.',
  'error.shuttingDown': 'I am restarting. Please try again in a minute.',
  // /clone reference clips
  'clone.error.host': 'Attach the clip to the command itself; I only download attachments from Discord (not from {host}).',
  'clone.error.tooLarge': 'The clip is {size} MB; the limit is {limit} MB. Attach a shorter clip (3 to 60 seconds).',
  'clone.error.download': 'I could not download the clip ({detail}). Please attach it again.',
  'clone.error.format': 'The clip is {found}, not WAV, MP3 or M4A (whatever its name says). Please attach one of those.',
  'clone.error.corrupt': 'The clip is damaged or cut short. Please export it again and attach the new file.',
  'clone.error.duration': 'The clip lasts {seconds} s; it must last {min} to {max} seconds.',
  'clone.error.silent': 'The clip is silent ({level} dBFS). Attach a recording of the person speaking.',
  // /say and playback
  'say.queued': 'Queued: {voice}, {count} part(s). I will start after the {ahead} clip(s) ahead.',
  'say.speaking': 'Speaking in {channel} with {voice}…',
  'say.spoke': 'Spoke {seconds} s in {channel} with {voice}.',
  'say.skipped': 'Skipped after {seconds} s ({voice}).',
  'say.stopped': 'Stopped ({voice}).',
  'say.file': 'Here is {voice}, {seconds} s ({format}).',
  'say.fileBecauseNoVoice': 'You are not in a voice channel, so here is the audio as a file: {voice}, {seconds} s ({format}).',
  // Player commands
  'join.joined': 'Joined {channel}.',
  'join.already': 'I am already in {channel}.',
  'leave.left': 'Left {channel}.',
  'skip.skipped': 'Skipped the current clip.',
  'skip.nothing': 'Nothing is playing.',
  'stop.stopped': 'Stopped and cleared {count} queued clip(s).',
} as const;

export type MessageKey = keyof typeof en;
type Catalogue = Record<MessageKey, string>;

const ko: Catalogue = {
  'error.api.badRequest': '음성 서비스가 이 요청을 거절했습니다: {detail}. 텍스트와 옵션을 확인한 뒤 다시 시도해 주세요.',
  'error.api.unauthorized': '봇의 Voice API 키가 유효하지 않거나 비활성화되었습니다. 서버 관리자에게 알려 주세요. 사용량은 차감되지 않았습니다.',
  'error.api.forbidden': '봇의 Voice API 요금제에 API 이용 권한이 없습니다. 서버 관리자에게 알려 주세요 (Creator 이상 요금제가 필요합니다).',
  'error.api.quota': '음성 서비스의 이번 달 글자 수 한도를 모두 사용했습니다. {reset}에 초기화됩니다.',
  'error.api.rateLimited': '음성 서비스가 지금 바쁩니다. 몇 초 뒤에 다시 시도해 주세요.',
  'error.api.server': '음성 서비스에 지금 장애가 있습니다 ({status}). 잠시 후 다시 시도해 주세요.',
  'error.api.timeout': '음성 서비스의 응답이 너무 늦습니다. 다시 시도해 주세요.',
  'error.api.connection': '음성 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.unexpected': '음성 서비스가 사용할 수 없는 응답을 보냈습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.aborted': '요청이 취소되었습니다.',
  'error.voice.joinFailed': '{channel} 채널에 들어갈 수 없습니다. 접속 및 말하기 권한을 확인한 뒤 다시 시도해 주세요.',
  'error.voice.busyElsewhere': '지금 {channel} 채널에서 말하는 중입니다. 그 채널로 오시거나 끝난 뒤 다시 시도해 주세요.',
  'error.voice.notInVoice': '먼저 음성 채널에 들어가 주세요.',
  'error.voice.notConnected': '이 서버의 음성 채널에 들어가 있지 않습니다.',
  'error.voice.streamFailed': '오디오가 중간에 끊겼습니다 ({detail}). 다시 시도해 주세요.',
  'error.audio.unsupported': '음성 서비스가 재생할 수 없는 형식의 오디오를 보냈습니다 ({format}).',
  'error.discord.uploadFailed': '이 채널에 오디오 파일을 올릴 수 없습니다. 파일 첨부 권한을 확인해 주세요.',
  'error.input.emptyText': '읽을 텍스트를 입력해 주세요.',
  'error.input.unknownVoice': '"{voice}" 음성이 없습니다. 목록에서 골라 주세요.',
  'error.input.guildOnly': '이 명령어는 서버에서만 쓸 수 있습니다.',
  'error.input.exaggeration': '강도는 0부터 1 사이의 숫자여야 합니다. 입력값: {value}.',
  'error.input.unknownLanguage': '"{language}"은(는) 언어 코드가 아닙니다. 목록에서 골라 주세요 (예: ko, en, ja).',
  'error.internal': '봇 내부에서 문제가 생겼습니다. 운영자에게 기록되었으니 다시 시도해 주세요.',
  'error.shuttingDown': '봇을 다시 시작하는 중입니다. 잠시 후 다시 시도해 주세요.',
  'clone.error.host': '클립은 명령어에 직접 첨부해 주세요. 디스코드 첨부 파일만 내려받습니다 ({host}에서는 받지 않습니다).',
  'clone.error.tooLarge': '클립이 {size}MB입니다. 한도는 {limit}MB입니다. 더 짧은 클립(3~60초)을 첨부해 주세요.',
  'clone.error.download': '클립을 내려받지 못했습니다 ({detail}). 다시 첨부해 주세요.',
  'clone.error.format': '클립이 WAV, MP3, M4A가 아니라 {found}입니다 (파일 이름과 관계없이). 이 세 형식 중 하나로 첨부해 주세요.',
  'clone.error.corrupt': '클립이 손상되었거나 잘려 있습니다. 다시 내보낸 파일을 첨부해 주세요.',
  'clone.error.duration': '클립 길이가 {seconds}초입니다. {min}초에서 {max}초 사이여야 합니다.',
  'clone.error.silent': '클립에 소리가 없습니다 ({level} dBFS). 말하는 목소리를 녹음해 첨부해 주세요.',
  'say.queued': '대기열에 추가했습니다: {voice}, {count}개 부분. 앞의 {ahead}개 클립이 끝나면 시작합니다.',
  'say.speaking': '{channel} 채널에서 {voice} 음성으로 말하는 중…',
  'say.spoke': '{channel} 채널에서 {voice} 음성으로 {seconds}초 말했습니다.',
  'say.skipped': '{seconds}초 후 건너뛰었습니다 ({voice}).',
  'say.stopped': '중지했습니다 ({voice}).',
  'say.file': '{voice} 음성, {seconds}초 ({format}) 파일입니다.',
  'say.fileBecauseNoVoice': '음성 채널에 계시지 않아 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'join.joined': '{channel} 채널에 들어왔습니다.',
  'join.already': '이미 {channel} 채널에 있습니다.',
  'leave.left': '{channel} 채널에서 나왔습니다.',
  'skip.skipped': '지금 재생 중인 클립을 건너뛰었습니다.',
  'skip.nothing': '재생 중인 것이 없습니다.',
  'stop.stopped': '중지하고 대기 중인 클립 {count}개를 비웠습니다.',
};

const ja: Catalogue = {
  'error.api.badRequest': '音声サービスがこのリクエストを拒否しました: {detail}。テキストとオプションを確認して、もう一度お試しください。',
  'error.api.unauthorized': 'ボットの Voice API キーが無効か、無効化されています。サーバーの管理者に伝えてください。文字数は消費されていません。',
  'error.api.forbidden': 'ボットの Voice API プランには API アクセスが含まれていません。サーバーの管理者に伝えてください（Creator 以上のプランが必要です）。',
  'error.api.quota': '音声サービスの今月の文字数上限に達しました。{reset} にリセットされます。',
  'error.api.rateLimited': '音声サービスが混み合っています。数秒後にもう一度お試しください。',
  'error.api.server': '音声サービスで障害が発生しています（{status}）。しばらくしてからお試しください。',
  'error.api.timeout': '音声サービスの応答に時間がかかりすぎました。もう一度お試しください。',
  'error.api.connection': '音声サービスに接続できませんでした。しばらくしてからお試しください。',
  'error.api.unexpected': '音声サービスから使えない応答が返りました。しばらくしてからお試しください。',
  'error.api.aborted': 'リクエストはキャンセルされました。',
  'error.voice.joinFailed': '{channel} に参加できませんでした。接続と発言の権限を確認して、もう一度お試しください。',
  'error.voice.busyElsewhere': '今は {channel} で話しています。そのチャンネルに来るか、終わってからもう一度お試しください。',
  'error.voice.notInVoice': '先にボイスチャンネルに参加してください。',
  'error.voice.notConnected': 'このサーバーのボイスチャンネルにいません。',
  'error.voice.streamFailed': '音声が途中で止まりました（{detail}）。もう一度お試しください。',
  'error.audio.unsupported': '音声サービスから再生できない形式の音声が届きました（{format}）。',
  'error.discord.uploadFailed': 'このチャンネルに音声ファイルを投稿できませんでした。ファイル添付の権限を確認してください。',
  'error.input.emptyText': '読み上げるテキストを入力してください。',
  'error.input.unknownVoice': '「{voice}」という音声はありません。一覧から選んでください。',
  'error.input.guildOnly': 'このコマンドはサーバー内でのみ使えます。',
  'error.input.exaggeration': '強さは 0 から 1 までの数値で指定してください（入力: {value}）。',
  'error.input.unknownLanguage': '「{language}」は言語コードではありません。一覧から選んでください（例: ja, en, ko）。',
  'error.internal': 'ボット内部で問題が起きました。運営者に記録されました。もう一度お試しください。',
  'error.shuttingDown': 'ボットを再起動しています。少ししてからもう一度お試しください。',
  'clone.error.host': 'クリップはコマンドに直接添付してください。Discord の添付ファイルのみダウンロードします（{host} からは取得しません）。',
  'clone.error.tooLarge': 'クリップは {size} MB です。上限は {limit} MB です。短いクリップ（3〜60 秒）を添付してください。',
  'clone.error.download': 'クリップをダウンロードできませんでした（{detail}）。もう一度添付してください。',
  'clone.error.format': 'クリップは WAV・MP3・M4A ではなく {found} です（ファイル名に関係なく）。いずれかの形式で添付してください。',
  'clone.error.corrupt': 'クリップが壊れているか、途中で切れています。書き出し直したファイルを添付してください。',
  'clone.error.duration': 'クリップの長さは {seconds} 秒です。{min}〜{max} 秒にしてください。',
  'clone.error.silent': 'クリップが無音です（{level} dBFS）。話している声の録音を添付してください。',
  'say.queued': 'キューに追加しました: {voice}、{count} パート。前の {ahead} 件が終わったら始めます。',
  'say.speaking': '{channel} で {voice} の声で話しています…',
  'say.spoke': '{channel} で {voice} の声で {seconds} 秒話しました。',
  'say.skipped': '{seconds} 秒でスキップしました（{voice}）。',
  'say.stopped': '停止しました（{voice}）。',
  'say.file': '{voice} の声、{seconds} 秒（{format}）のファイルです。',
  'say.fileBecauseNoVoice': 'ボイスチャンネルにいないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
  'join.joined': '{channel} に参加しました。',
  'join.already': 'すでに {channel} にいます。',
  'leave.left': '{channel} から退出しました。',
  'skip.skipped': '再生中のクリップをスキップしました。',
  'skip.nothing': '何も再生していません。',
  'stop.stopped': '停止して、キューの {count} 件を消去しました。',
};

const catalogues: Record<string, Catalogue> = { 'en-US': en, 'en-GB': en, ko, ja };

export type SupportedLocale = 'en-US' | 'ko' | 'ja';
export const SUPPORTED_LOCALES: readonly SupportedLocale[] = ['en-US', 'ko', 'ja'];

export type MessageParams = Record<string, string | number>;

/** The message for `key` in `locale` (Discord's interaction locale), English when we lack that language. */
export function t(locale: string | null | undefined, key: MessageKey, params: MessageParams = {}): string {
  const catalogue = (locale !== null && locale !== undefined ? catalogues[locale] : undefined) ?? en;
  return catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** A message to be rendered later in the reader's language. */
export interface LocalisedMessage {
  key: MessageKey;
  params?: MessageParams;
}

/** Localised names/descriptions for command builders: `{ ko: '…', ja: '…' }` (en-US is the default text). */
export type CommandLocalisations = { ko: string; ja: string };
