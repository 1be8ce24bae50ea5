// The member-facing words of voice messages and the "Speak" menu, en/ko/ja, to be folded into the catalogue
// (src/bot/i18n/{en,ko,ja}.ts) when the front-end is wired (issue 15, phase 2). Same {placeholders} as there:
// {voice} a voice label (voiceLabel), {seconds} formatted seconds, {format} WAV/MP3, {size}/{limit} megabytes.
//
// Where each is used:
// - voiceMessage.posted: the command's deferred reply once the voice message is in the channel (the message below).
// - voiceMessage.fallback.<reason>: the reply carrying the file when postVoiceMessage answered that reason
//   (src/bot/voice-message-post.ts: no-permission, not-allowed-here, too-large, refused).
// - speak.nothing: the Speak menu on a message with nothing to read aloud (speakMessageText returned '').
// - menu.speak: the context menu's name (a message command has a name and no description).
// - choice.output.voice-message: the new choice of /say, /emote and /clone's `output` option (value `voice-message`).
// - option.output.description: that option's description, now naming the third choice.
export const voiceMessageStrings = {
  en: {
    'voiceMessage.posted': 'Sent as a voice message below: {voice}, {seconds} s.',
    'voiceMessage.fallback.no-permission': 'I may not send voice messages in this channel (Send Voice Messages), so here is the audio as a file: {voice}, {seconds} s ({format}).',
    'voiceMessage.fallback.not-allowed-here': 'Discord does not take voice messages in this channel, so here is the audio as a file: {voice}, {seconds} s ({format}).',
    'voiceMessage.fallback.too-large': 'The voice message would be {size} MB, over the {limit} MB this channel takes, so here is the audio as a file: {voice}, {seconds} s ({format}).',
    'voiceMessage.fallback.refused': 'Discord did not accept the voice message (the operator has been told), so here is the audio as a file: {voice}, {seconds} s ({format}).',
    'speak.nothing': 'There is nothing in that message I can read aloud.',
    'menu.speak': 'Speak',
    'choice.output.voice-message': 'voice message',
    'option.output.description': 'Play in your voice channel, post a file, or post a voice message',
  },
  ko: {
    'voiceMessage.posted': '아래에 음성 메시지로 보냈습니다: {voice}, {seconds}초.',
    'voiceMessage.fallback.no-permission': '이 채널에서는 음성 메시지를 보낼 권한(음성 메시지 보내기)이 없어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
    'voiceMessage.fallback.not-allowed-here': '디스코드가 이 채널에서 음성 메시지를 받지 않아 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
    'voiceMessage.fallback.too-large': '음성 메시지가 {size}MB로 이 채널의 한도 {limit}MB를 넘어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
    'voiceMessage.fallback.refused': '디스코드가 음성 메시지를 받지 않아(운영자에게 알렸습니다) 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
    'speak.nothing': '그 메시지에는 읽어 줄 수 있는 내용이 없습니다.',
    'menu.speak': '읽어 주기',
    'choice.output.voice-message': '음성 메시지',
    'option.output.description': '음성 채널에서 재생하거나, 파일 또는 음성 메시지로 보내기',
  },
  ja: {
    'voiceMessage.posted': '下にボイスメッセージで送りました: {voice}、{seconds} 秒。',
    'voiceMessage.fallback.no-permission': 'このチャンネルではボイスメッセージを送る権限（ボイスメッセージを送信）がないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
    'voiceMessage.fallback.not-allowed-here': 'このチャンネルでは Discord がボイスメッセージを受け付けないため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
    'voiceMessage.fallback.too-large': 'ボイスメッセージが {size} MB になり、このチャンネルの上限 {limit} MB を超えるため、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
    'voiceMessage.fallback.refused': 'Discord がボイスメッセージを受け付けなかったため（運営者に通知しました）、ファイルで送ります: {voice}、{seconds} 秒（{format}）。',
    'speak.nothing': 'そのメッセージには読み上げられる内容がありません。',
    'menu.speak': '読み上げ',
    'choice.output.voice-message': 'ボイスメッセージ',
    'option.output.description': 'ボイスチャンネルで再生するか、ファイルかボイスメッセージで送るか',
  },
} as const satisfies Record<'en' | 'ko' | 'ja', Record<string, string>>;
