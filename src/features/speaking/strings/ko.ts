import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  // Where it plays, and when it could not
  'error.voice.busyElsewhere':
    '지금 {channel} 채널에서 말하는 중입니다. 그 채널로 오시거나 끝난 뒤 다시 시도해 주세요.',
  'error.voice.botStageAudience':
    '스테이지 {channel}에서 저는 청중석에 있게 되어 아무도 듣지 못합니다. 말할 수 있게 해 주세요 (그 스테이지의 멤버 음소거 권한이 있으면 스스로 발언자가 됩니다. 또는 /join 후 스테이지 관리자가 발언하도록 초대해 주세요). 아무것도 사용하지 않았습니다.',
  'error.voice.streamFailed': '오디오가 중간에 끊겼습니다 ({detail}). 다시 시도해 주세요.',
  'error.discord.uploadFailed': '이 채널에 오디오 파일을 올릴 수 없습니다. 파일 첨부 권한을 확인해 주세요.',
  'autoread.guard.move':
    '이 서버를 위해 {voice}에서 {channel}을(를) 읽고 있습니다. 서버 관리 권한이 있는 멤버만 옮길 수 있습니다.',
  'autoread.guard.elsewhere':
    '{voice}에서 {channel}을(를) 읽고 있어 지금 채널로 갈 수 없습니다. {voice}에 들어오시거나 output: file을 선택해 주세요.',
  // /say and playback
  'say.queued': '대기열에 추가했습니다: {voice}, {count}개 부분. 앞의 {ahead}개 클립이 끝나면 시작합니다.',
  'say.speaking': '{channel} 채널에서 {voice} 음성으로 말하는 중…',
  'say.spoke': '{channel} 채널에서 {voice} 음성으로 {seconds}초 말했습니다.',
  'say.skipped': '{seconds}초 후 건너뛰었습니다 ({voice}).',
  'say.stopped': '중지했습니다 ({voice}).',
  'say.cutOff':
    '{seconds}초 만에 답변이 끊겼습니다 ({voice}): {channel}의 음성 연결이 끊어졌습니다. /say를 다시 쓰면 다시 들어갑니다.',
  'say.file': '{voice} 음성, {seconds}초 ({format}) 파일입니다.',
  'say.fileBecauseNoVoice': '음성 채널에 계시지 않아 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'say.fileTooLarge.voiceMessage':
    '{format} 파일이 {size}MB로 이곳의 디스코드 한도 {limit}MB를 넘어 음성 메시지로 올렸습니다: {voice}, {seconds}초.',
  'say.fileTooLarge.compressed':
    '{format} 파일이 {size}MB로 이곳의 디스코드 한도 {limit}MB를 넘고 음성 메시지도 올릴 수 없어 압축해서 보냅니다(Ogg Opus, {compressed}MB): {voice}, {seconds}초.',
  // The user install (src/features/speaking/user-install.ts)
  'userInstall.file': '여기에는 음성 채널이 없어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'userInstall.off':
    'SayBot은 자신이 들어가 있는 서버에서만 작동합니다. 운영자가 DM이나 다른 서버에서의 사용을 켜지 않았습니다.',
  'userInstall.notAllowed':
    'SayBot 운영자가 서버 밖에서는 일부 사용자만 쓸 수 있게 했으며, 회원님은 포함되어 있지 않습니다.',
  'userInstall.noAttachFiles':
    '여기에는 파일을 보낼 수 없어(이 채널에서는 앱이 파일을 첨부할 수 없습니다) SayBot이 오디오로 답할 수 없습니다. 문자 수는 쓰지 않았습니다.',
  'userInstall.voiceMessageAsFile':
    '여기서는 음성 메시지를 답장으로 보낼 수 없어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  // A reply's buttons and the soundboard
  'buttons.play': '내 음성 채널에서 재생',
  'buttons.again': '다시',
  'buttons.sound': '사운드로 저장',
  'buttons.notYours': '이 오디오를 요청한 {member}님만 이 버튼을 쓸 수 있습니다.',
  'buttons.expired':
    '이 버튼은 더 이상 작동하지 않습니다(SayBot이 다시 시작되었거나 답장이 너무 오래되었습니다). 명령을 다시 사용해 주세요.',
  'buttons.played': '{channel}에서 다시 재생했습니다({seconds}초). 캐시에서 재생해 문자 수를 쓰지 않았습니다.',
  'buttons.voiceMessage':
    '위 음성 메시지: {voice}, {seconds}초. 이 버튼은 회원님만 볼 수 있고 캐시를 써서 문자 수를 쓰지 않습니다.',
  'buttons.posted': '음성 메시지를 이 채널에 다시 보냈습니다. 캐시에서 보내 문자 수를 쓰지 않았습니다.',
  'buttons.postedHeader': '{member} 님이 이 음성 메시지를 다시 요청했습니다:',
  'sound.saved': '이 서버의 사운드보드에 "{name}"(으)로 저장했습니다({seconds}초).',
  'sound.tooLong':
    '사운드보드 사운드는 최대 {max}초인데 이 오디오는 {seconds}초라 저장하지 않았습니다. 더 짧은 텍스트로 해 보세요.',
  'sound.tooLarge': '사운드보드 사운드는 최대 {max}KB인데 이 오디오는 {size}KB라 저장하지 않았습니다.',
  'sound.memberPermission': '사운드보드 사운드를 저장하려면 표현 만들기 권한이 필요한데, 여기서는 그 권한이 없습니다.',
  'sound.botPermission':
    '사운드보드 사운드를 저장하려면 이 서버에서 제게 표현 만들기 권한이 필요합니다. 서버 관리자에게 요청해 주세요.',
  'sound.full': '이 서버의 사운드보드가 가득 찼습니다. 사운드를 하나 지운 뒤 다시 해 보세요.',
  'sound.refused': 'Discord가 사운드를 받지 않았습니다: {reason}',
  // Which voice, and why (replies name it when the caller did not choose it)
  'voice.why.preset': '{voice} (프리셋 "{preset}")',
  'voice.why.member': '{voice} (내 기본값)',
  'voice.why.server': '{voice} (서버 기본 프리셋 "{preset}")',
  'voice.why.builtin': '{voice} (서버 언어의 기본 음성)',
  'voice.why.commandDefault': '{voice} (이 명령어의 기본 음성)',
  'voice.fallback': '{voice}, 무료 음성: {reason}',
  'fallback.reason.month': '이번 달 글자 수를 모두 썼습니다',
  'fallback.reason.server': '서버의 이번 달 예산에 도달했습니다',
  'fallback.reason.member': '오늘의 예산에 도달했습니다',
  'fallback.reason.service': '음성 서비스가 응답하지 않습니다',
  'preset.list.default': '(서버 기본값)',
  'list.more': '…외 {count}개.',
  // Voice messages (src/features/speaking/voice-message-post.ts)
  'voiceMessage.posted': '아래에 음성 메시지로 보냈습니다: {voice}, {seconds}초.',
  'voiceMessage.fallback.no-permission':
    '이 채널에서는 음성 메시지를 보낼 권한(음성 메시지 보내기)이 없어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'voiceMessage.fallback.not-allowed-here':
    '디스코드가 이 채널에서 음성 메시지를 받지 않아 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'voiceMessage.fallback.too-large':
    '음성 메시지가 {size}MB로 이 채널의 한도 {limit}MB를 넘어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'voiceMessage.fallback.refused':
    '디스코드가 음성 메시지를 받지 않아(운영자에게 알렸습니다) 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'voiceMessage.fallback.member-no-permission':
    '이 채널에서 음성 메시지를 보낼 권한(채널 보기, 메시지 보내기, 파일 첨부, 음성 메시지 보내기)이 없어 본인에게만 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'voiceMessage.fallback.slowmode':
    '이 채널은 슬로우 모드이고 마지막 메시지를 보낸 지 얼마 되지 않아 본인에게만 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'voiceMessage.header': '{member} 님이 /{command}(으)로 요청한 음성 메시지입니다:',
};
