import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

// Keys in en.ts's order, whose comments name the sections.
export const ko: Translation<typeof en> = {
  'error.voice.busyElsewhere':
    '지금 {channel} 채널에서 말하는 중입니다. 그 채널로 오시거나, 끝난 뒤 다시 시도하거나, `output: file`로 요청해 주세요. 아무것도 사용되지 않았습니다.',
  'error.voice.seatLost':
    '그 음성 채널에서 말하던 봇이 Discord와의 연결이 끊어져 나머지는 읽지 못했습니다. 다시 요청해 주세요. 비어 있는 봇이 있으면 그 봇이 들어갑니다.',
  'error.voice.busyElsewhere.voiceOnly':
    '지금 {channel} 채널에서 말하는 중입니다. 그 채널로 오시거나, 끝난 뒤 다시 시도해 주세요. 아무것도 사용되지 않았습니다.',
  'error.voice.noSeat.voiceOnly':
    '이 서버의 제 봇은 모두 다른 채널({channels})에서 쓰이고 있습니다(듣는 사람이 있거나 말하는 중입니다). 그 채널로 오시거나, 비면 다시 시도해 주세요. 아무것도 사용되지 않았습니다.',
  'error.voice.noSeat':
    '이 서버의 제 봇은 모두 다른 채널({channels})에서 쓰이고 있습니다(듣는 사람이 있거나 말하는 중입니다). 그 채널로 오시거나, 비면 다시 시도하거나, `output: file`로 요청해 주세요. 아무것도 사용되지 않았습니다.',
  'error.voice.botMuted':
    '관리자가 저를 서버 음소거했으므로 {channel}에서는 아무도 듣지 못합니다. 아무것도 쓰지 않았습니다.',
  'error.voice.botMuted.helper':
    '관리자가 {bot}을(를) 서버 음소거했으므로 {channel}에서는 아무도 듣지 못합니다. 아무것도 쓰지 않았습니다.',
  'error.voice.botStageAudience.helper':
    '스테이지 {channel}에서 {bot}은(는) 청중이 되어 아무도 듣지 못합니다. 그곳에서 말할 수 있게 해 주세요(그 스테이지의 멤버 음소거 권한이 있으면 스스로 발언자가 됩니다. 또는 /join 후 스테이지 관리자가 발언자로 초대해 주세요). 아무것도 쓰지 않았습니다.',
  'error.voice.joinFailed.helper':
    '{bot}이(가) {channel} 채널에 들어갈 수 없습니다. 봇의 접속 및 말하기 권한을 확인한 뒤 다시 시도해 주세요.',
  'error.voice.botStageAudience':
    '스테이지 {channel}에서 저는 청중석에 있게 되어 아무도 듣지 못합니다. 말할 수 있게 해 주세요 (그 스테이지의 멤버 음소거 권한이 있으면 스스로 발언자가 됩니다. 또는 /join 후 스테이지 관리자가 발언하도록 초대해 주세요). 아무것도 사용하지 않았습니다.',
  'error.voice.stageAudienceNow':
    '스테이지 {channel}에서 저는 청중석에 있고 지금은 스스로 발언자가 될 수 없어 아무도 듣지 못했습니다. 그곳에서 말할 수 있게 해 주신 뒤 (그 스테이지의 멤버 음소거 권한, 또는 스테이지 관리자의 초대) 다시 시도해 주세요.',
  'error.voice.stageAudienceNow.helper':
    '스테이지 {channel}에서 {bot}은(는) 청중석에 있고 지금은 스스로 발언자가 될 수 없어 아무도 듣지 못했습니다. 그 봇이 그곳에서 말할 수 있게 해 주신 뒤 (그 스테이지의 멤버 음소거 권한, 또는 스테이지 관리자의 초대) 다시 시도해 주세요.',
  'error.voice.streamFailed': '오디오가 중간에 끊겼습니다. {detail}',
  'error.voice.audioStalled': '오디오가 더 이상 도착하지 않았고 다시 이어지지 않았습니다. 다시 시도해 주세요.',
  'error.discord.uploadFailed': '이 채널에 오디오 파일을 올릴 수 없습니다. 파일 첨부 권한을 확인해 주세요.',
  'error.discord.uploadFailed.spent':
    '여기에 오디오 파일을 올릴 수 없었습니다(Discord가 받지 않았습니다). 음성 서비스가 이미 이것을 만들어 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 봇의 오디오 캐시에 아직 남아 있다면 다시 요청해도 글자 수가 들지 않습니다.',
  'autoread.guard.move':
    '이 서버를 위해 {voice}에서 {channel}을(를) 읽고 있습니다. 서버 관리 권한이 있는 멤버만 옮길 수 있습니다.',
  'autoread.guard.elsewhere.voiceOnly':
    '{voice}에서 {channel}을(를) 읽고 있어 지금 채널로 갈 수 없습니다. {voice}에 들어와 주세요.',
  'autoread.guard.elsewhere':
    '{voice}에서 {channel}을(를) 읽고 있어 지금 채널로 갈 수 없습니다. {voice}에 들어오시거나 output: file을 선택해 주세요.',
  'say.queued': '대기열에 추가했습니다: {voice}, {count}개 부분. 앞의 {ahead}개 클립이 끝나면 시작합니다.',
  'say.postedPrivately': '이 채널에 파일을 올릴 수 없어서 본인에게만 보냅니다.',
  'say.speaking': '{channel} 채널에서 {voice} 음성으로 말하는 중…',
  'say.spoke': '{channel} 채널에서 {voice} 음성으로 {seconds}초 말했습니다.',
  'say.spokeMoved':
    '{voice} 음성으로 {seconds}초 말했고 {channel} 채널에서 끝났습니다. 관리자가 저를 {from}에서 그곳으로 옮겼습니다.',
  'say.spokeMoved.helper':
    '{voice} 음성으로 {seconds}초 말했고 {channel} 채널에서 끝났습니다. 관리자가 {bot}을(를) {from}에서 그곳으로 옮겼습니다.',
  'say.spokePartWay': '{channel}에서 {voice}(으)로 일부를 말했습니다. 끝까지 말하지 못하고 멈췄습니다.',
  'say.skipped': '{seconds}초 후 건너뛰었습니다 ({voice}).',
  'say.stopped': '중지했습니다 ({voice}).',
  'say.stoppedSpent':
    '음성 서비스에 요청한 부분은 들렸는지와 관계없이 사용한 것으로 집계됩니다. /usage에서 확인할 수 있습니다.',
  'say.cutOff':
    '{seconds}초 만에 답변이 끊겼습니다 ({voice}): {channel}의 음성 연결이 끊어졌습니다. /say를 다시 쓰면 다시 들어갑니다.',
  'say.cutOff.helper':
    '{seconds}초 만에 답변이 끊겼습니다 ({voice}): {bot}의 {channel} 음성 연결이 끊어졌습니다. /say를 다시 쓰면 봇이 다시 들어갑니다.',
  'say.file': '{voice} 음성, {seconds}초 ({format}) 파일입니다.',
  'say.fileBecauseNoVoice': '음성 채널에 계시지 않아 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'say.fileTooLarge.voiceMessage':
    '{format} 파일이 {size}MB로 이곳의 디스코드 한도 {limit}MB를 넘어 음성 메시지로 올렸습니다: {voice}, {seconds}초.',
  'say.fileTooLarge.compressed':
    '{format} 파일이 {size}MB로 이곳의 디스코드 한도 {limit}MB를 넘고 음성 메시지도 올릴 수 없어 압축해서 보냅니다(Ogg Opus, {compressed}MB): {voice}, {seconds}초.',
  'userInstall.file': '여기에는 음성 채널이 없어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
  'userInstall.off':
    'SayBot은 자신이 들어가 있는 서버에서만 작동합니다. 운영자가 DM이나 다른 서버에서의 사용을 켜지 않았습니다.',
  'userInstall.notAllowed':
    'SayBot 운영자가 서버 밖에서는 일부 사용자만 쓸 수 있게 했으며, 회원님은 포함되어 있지 않습니다.',
  'userInstall.noAttachFiles':
    '여기에는 파일을 보낼 수 없어(이 채널에서는 앱이 파일을 첨부할 수 없습니다) SayBot이 오디오로 답할 수 없습니다. 문자 수는 쓰지 않았습니다.',
  'userInstall.voiceMessageAsFile':
    '여기서는 음성 메시지를 답장으로 보낼 수 없어 파일로 보냅니다: {voice}, {seconds}초 ({format}).',
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
  'voice.why.preset': '{voice} (프리셋 "{preset}")',
  'voice.why.member': '{voice} (내 기본값)',
  'voice.why.server': '{voice} (서버 기본 프리셋 "{preset}")',
  'voice.why.builtin': '{voice} (서버 언어의 기본 음성)',
  'voice.why.deleted': '{voice} (서버 기본값: 저장해 둔 음성 "{name}"은(는) 삭제되었습니다)',
  'voice.why.builtinOutside': '{voice} (내 언어의 기본 음성)',
  'voice.fallback': '{voice} (무료 음성: {reason})',
  'voice.fallbackAfterPaid': '{voice} (유료 음성으로 {paid}자(집계됨) 이후 무료 음성: {reason})',
  'fallback.reason.month': '이번 달 글자 수를 모두 썼습니다',
  'fallback.reason.tooFewLeft':
    '이번 달 남은 글자 수가 이 글에는 모자랍니다 (남은 글자 {left, number}자, 필요 {needed, number}자)',
  'fallback.reason.server': '서버의 이번 달 예산에 도달했습니다',
  'fallback.reason.member': '오늘의 예산에 도달했습니다',
  'fallback.reason.engine': '이 봇의 음성 엔진이 읽지 못했습니다',
  'fallback.reason.service': '음성 서비스가 응답하지 않습니다',
  'preset.list.default': '(서버 기본값)',
  'list.more': '…외 {count}개.',
  'sample.freeVoiceStoodIn': '{voice}(으)로 말했습니다.',
  'voiceMessage.freeVoiceStoodIn': '위 음성 메시지는 {voice}(으)로 말했습니다.',
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
  'error.api.badRequest':
    '음성 서비스가 이 요청을 거절했습니다: {detail}. 텍스트와 옵션을 확인한 뒤 다시 시도해 주세요.',
  'error.api.voiceRefused':
    '음성 서비스가 {voice} 음성으로 된 이 요청을 거절했습니다: {said}. 다른 음성을 골라 주세요. 기본값은 /myvoice set, 프리셋은 /preset save(서버 관리)로 바꿉니다.',
  'error.api.unauthorized':
    '봇의 Voice API 키가 유효하지 않거나 비활성화되었습니다. 서버 관리자에게 알려 주세요. 사용량은 차감되지 않았습니다.',
  'error.api.forbidden':
    '봇의 Voice API 요금제에 API 이용 권한이 없습니다. 서버 관리자에게 알려 주세요 (Creator 이상 요금제가 필요합니다).',
  'error.api.quota': '음성 서비스의 이번 달 글자 수 한도를 모두 사용했습니다. {reset}에 초기화됩니다.',
  'error.api.rateLimited': '음성 서비스가 지금 바쁩니다. 몇 초 뒤에 다시 시도해 주세요.',
  'error.api.server.said':
    '음성 서비스에 문제가 있습니다({status}). 서비스의 설명: {said}. 요금은 청구되지 않았습니다. 잠시 후 다시 시도하세요.',
  'error.api.server': '음성 서비스에 지금 장애가 있습니다 ({status}). 잠시 후 다시 시도해 주세요.',
  'error.api.timeout': '음성 서비스의 응답이 너무 늦습니다. 다시 시도해 주세요.',
  'error.api.connection': '음성 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.unexpected': '음성 서비스가 사용할 수 없는 응답을 보냈습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.sharedCallFailed':
    '이 요청은 바로 전의 같은 요청을 위해 만들어지고 있었는데, 그 요청이 전송된 뒤 실패해 이 요청도 함께 실패했습니다. 음성 서비스가 차감했을 수 있는 글자 수는 그 요청의 것이며, 회원님의 글자 수는 전혀 사용되지 않았습니다. 다시 시도해 주세요.',
  'error.api.undelivered':
    '음성이 모두 도착하기 전에 끊겨 이 요청은 실패했습니다. 바로 전의 같은 요청을 위해 만들어진 음성이며, 글자 수는 그 요청에서 차감되었습니다. 회원님의 글자 수는 전혀 차감되지 않았습니다. 다시 시도해 주세요.',
  'error.api.undelivered.paid':
    '음성 서비스가 이 요청을 받아 {paid}자를 차감했으므로 그만큼은 사용되었지만, 음성이 모두 도착하기 전에 끊겼습니다. 다시 시도해 주세요.',
  'error.api.oversized':
    '음성 서비스가 이 텍스트에 비해 너무 많은 음성을 보내서(서비스 쪽 오류) 중단했고 아무것도 남기지 않았습니다. 글자 수는 그래도 사용되었습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.cloneWithoutVoiceId':
    '음성 서비스가 이 복제 요청을 받아 글자 수를 차감했지만 어떤 목소리를 만들었는지 알려 주지 않아, SayBot에는 사용할 목소리 ID가 없습니다. 서비스에 목소리가 만들어졌을 수 있고 그 글자 수는 사용되었습니다. 다시 복제하면 다시 비용이 듭니다.',
  'error.api.aborted': '요청이 취소되었습니다.',
  'error.api.chargedNotAudio':
    '음성 서비스가 이 요청을 받아 글자 수를 셌지만, 돌아온 것은 음성이 아니었습니다(예를 들어 앞단 게이트웨이의 페이지). 그래서 재생할 것이 없습니다. 그 글자 수는 요금이 청구되었을 수 있어 여기서도 사용한 것으로 셉니다. 아직 필요할 때만 다시 요청해 주세요.',
  'error.api.refusedOnTheWay':
    '음성 서비스 또는 그 앞의 무언가가 서비스 자신의 이유 설명 없이 이 요청을 거부했습니다({status}). 그래서 아무것도 만들어지지 않았고 사용량도 차감되지 않았습니다. 소유자에게 알렸습니다. 나중에 다시 시도해 주세요.',
  'error.api.refusedOnTheWay.maybeCharged':
    '음성 서비스 또는 그 앞의 무언가가 이 요청을 거부했습니다({status}). 봇은 어느 쪽인지, 글자 수가 차감되었는지 알 수 없어 여기서는 사용한 것으로 계산합니다. 소유자에게 알렸습니다. 그래도 필요할 때만 다시 요청해 주세요.',
  'error.api.maybeCharged.service':
    '음성 서비스가 {status}(으)로 답하며 {said}라고 했습니다. 요청을 받은 뒤에 실패했기 때문에 글자 수가 계산되었는지 봇은 알 수 없어, 여기서는 사용한 것으로 셉니다. 아직 필요할 때만 다시 요청해 주세요.',
  'error.api.maybeCharged.gateway':
    '음성 서비스가 이 요청에 직접 응답하지 않았습니다. 서비스 자신의 말이 없는 {status} 응답이 왔기 때문에(예: 서비스 앞의 게이트웨이), 요청이 처리되었는지 알 수 없습니다. 서비스가 글자 수를 차감했을 수 있어서, 여기서도 사용한 것으로 계산합니다. 그래도 필요할 때만 다시 요청해 주세요.',
  'error.api.maybeCharged.timeout':
    '요청을 보낸 뒤 음성 서비스의 응답이 너무 늦었습니다. 서비스가 그래도 요청을 처리하고 글자 수를 차감했을 수 있어서, 여기서도 사용한 것으로 계산합니다. 그래도 필요할 때만 다시 요청해 주세요.',
  'error.api.maybeCharged.connection':
    '요청을 보낸 뒤 응답이 오기 전에 음성 서비스와의 연결이 끊겼습니다. 서비스가 요청을 처리하고 글자 수를 차감했을 수 있어서, 여기서도 사용한 것으로 계산합니다. 그래도 필요할 때만 다시 요청해 주세요.',
  'error.paidPartWay.quota':
    '음성 서비스가 이 요청의 일부를 만들고 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 이번 달 남은 글자 수가 나머지에는 부족해 나머지는 보내지 않았습니다. 한도는 {reset}에 초기화됩니다.',
  'error.paidPartWay.tooFewLeft':
    '음성 서비스가 이 중 일부를 만들고 {paid}자를 셌으며, 그 글자 수는 사용되었습니다. 이번 달 남은 글자는 {left, number}자뿐이고 다음 부분에는 {needed, number}자가 필요해 나머지는 보내지 않았습니다. 한도는 {reset}에 초기화됩니다.',
  'error.paidPartWay.budget':
    '음성 서비스가 이 요청의 일부를 만들고 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 나머지는 이곳의 글자 수 예산을 넘기 때문에 보내지 않았습니다. 남은 양은 /usage에서 볼 수 있습니다.',
  'error.paidPartWay.keyRefused':
    '음성 서비스가 이 요청의 일부를 만들고 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 그 뒤 봇의 Voice API 키를 거부해(유효하지 않거나 비활성화됨) 나머지는 보내지 않았고 비용도 들지 않았습니다. 서버 관리자에게 알려 주세요.',
  'error.paidPartWay.planRefused':
    '음성 서비스가 이 요청의 일부를 만들고 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 그 뒤 봇의 Voice API 요금제에 API 이용 권한이 없다며 나머지를 거부해 나머지는 보내지 않았고 비용도 들지 않았습니다. 서버 관리자에게 알려 주세요 (Creator 이상 요금제가 필요합니다).',
  'error.paidPartWay.failing':
    '음성 서비스가 이 요청의 일부를 만들고 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 그 뒤 서비스에 장애가 생겨({status}) 나머지는 만들어지지 않았고 비용도 들지 않았습니다. 나머지는 나중에 다시 요청해 주세요.',
  'error.maybePaid.voiceDeleted':
    '`{voice}` 음성이 만드는 중에 이 서버에서 삭제되어 말하지 않습니다. 음성 서비스가 그 {unconfirmed}자를 차감했을 수 있어 사용한 것으로 집계됩니다.',
  'error.paidPartWay.voiceDeleted':
    '`{voice}` 음성이 만드는 중에 이 서버에서 삭제되어 말하지 않습니다. 음성 서비스가 이미 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다.',
  'error.paidPartWay.refused':
    '음성 서비스가 이 요청의 일부를 만들고 그 {paid}자를 차감했으므로 그만큼은 사용되었습니다. 봇이 지금은 나머지를 보낼 수 없어 나머지는 보내지 않았고 비용도 들지 않았습니다. 운영자에게 알렸습니다.',
  'error.renderStopped': '요청하신 대로 완성 전에 멈췄습니다. 요금은 부과되지 않았고 아무것도 게시하지 않습니다.',
  'error.renderStopped.paid':
    '요청하신 대로 완성 전에 멈췄습니다. 음성 서비스가 이미 일부를 만들어 {paid}자를 집계했으며 그만큼은 사용되었습니다. 더 이상 보내지 않았고 아무것도 게시하지 않습니다.',
  'error.renderStopped.closed':
    '요청하신 대로 완성 전에 멈췄습니다. 음성 서비스가 만들던 부분은 응답 전에 닫았지만, 서비스가 그 {unconfirmed}자를 집계했을 수 있어서 여기서도 사용한 것으로 계산합니다. 더 이상 보내지 않았고 아무것도 게시하지 않습니다.',
  'error.renderStopped.paidClosed':
    '요청하신 대로 완성 전에 멈췄습니다. 음성 서비스가 이미 일부를 만들어 {paid}자를 집계했으며 그만큼은 사용되었습니다. 그때 만들던 부분은 응답 전에 닫았지만, 서비스가 그 {unconfirmed}자를 집계했을 수 있어서 여기서도 사용한 것으로 계산합니다. 더 이상 보내지 않았고 아무것도 게시하지 않습니다.',
  'error.voice.joinFailed': '{channel} 채널에 들어갈 수 없습니다. 접속 및 말하기 권한을 확인한 뒤 다시 시도해 주세요.',
  'error.voice.daveRequired':
    '{channel} 채널에 들어갈 수 없습니다: Discord가 종단 간 암호화 음성(DAVE)을 요구하지만 봇의 음성 연결이 이를 지원하지 않았습니다. 봇 운영자에게 알렸습니다.',
  'error.voice.daveRequired.helper':
    '{bot}이(가) {channel} 채널에 들어갈 수 없습니다: Discord가 종단 간 암호화 음성(DAVE)을 요구하지만 그 봇의 음성 연결이 이를 지원하지 않았습니다. 봇 운영자에게 알렸습니다.',
  'error.voice.rateLimited':
    'Discord가 지금은 {channel} 채널 음성 연결을 거부했습니다(요청 제한). 1분쯤 기다린 뒤 다시 요청해 주세요.',
  'error.voice.rateLimited.helper':
    'Discord가 지금은 {bot}의 {channel} 채널 음성 연결을 거부했습니다(요청 제한). 1분쯤 기다린 뒤 다시 요청해 주세요.',
  'error.voice.leftWhileJoining': '{channel} 채널에 들어가는 중에 나가 달라는 요청을 받아 그곳에 머물지 않았습니다.',
  'error.voice.leftWhileJoining.helper':
    '{bot}이(가) {channel} 채널에 들어가는 중에 나가 달라는 요청을 받아 그곳에 머물지 않았습니다.',
  'error.voice.callTerminated':
    'Discord가 {channel} 채널의 음성 통화를 끝내서 나왔습니다. /say 또는 /join으로 다시 요청하면 새로 연결합니다.',
  'error.voice.callTerminated.helper':
    'Discord가 {channel} 채널의 음성 통화를 끝내서 {bot}이(가) 나왔습니다. /say 또는 /join으로 다시 요청하면 새로 연결합니다.',
  'error.revoked.not-in-voice': '{channel}에서 나가셨으므로 그곳에서 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.muted':
    '관리자가 {channel}에서 회원님을 서버 음소거했으므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.suppressed':
    '회원님은 더 이상 스테이지 {channel}의 발언자가 아니므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.may-not-speak':
    '회원님은 더 이상 {channel}에서 말할 수 없으므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.may-not-view':
    '회원님은 더 이상 {channel}을(를) 볼 수 없으므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.may-not-connect':
    '회원님은 더 이상 {channel}에 연결할 수 없으므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.timed-out':
    '회원님이 이 서버에서 타임아웃되어 {channel}에서 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.bot-unheard':
    '{channel}에서 이제 아무도 제 목소리를 들을 수 없어(관리자가 저를 서버 음소거했거나, 말할 수 없는 스테이지 청중석으로 옮겼습니다) 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.bot-unheard.helper':
    '{channel}에서 이제 아무도 {bot}의 목소리를 들을 수 없어(관리자가 그 봇을 서버 음소거했거나, 말할 수 없는 스테이지 청중석으로 옮겼습니다) 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.ignored': '서버 관리자가 자동 읽기에서 회원님을 읽지 않도록 했습니다. 나머지는 취소했습니다.',
  'error.revoked.not-served': '이 서버에서는 더 이상 서비스하지 않습니다. 나머지는 취소했습니다.',
  'error.revoked.notStarted.not-in-voice':
    '{channel}에서 나가셨으므로 그곳에서 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.muted':
    '관리자가 {channel}에서 회원님을 서버 음소거했으므로 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.suppressed':
    '회원님은 더 이상 스테이지 {channel}의 발언자가 아니므로 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.may-not-speak':
    '회원님은 더 이상 {channel}에서 말할 수 없으므로 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.may-not-view':
    '회원님은 더 이상 {channel}을(를) 볼 수 없으므로 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.may-not-connect':
    '회원님은 더 이상 {channel}에 연결할 수 없으므로 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.timed-out':
    '회원님이 이 서버에서 타임아웃되어 {channel}에서 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.bot-unheard':
    '{channel}에서 이제 아무도 제 목소리를 들을 수 없어(관리자가 저를 서버 음소거했거나, 말할 수 없는 스테이지 청중석으로 옮겼습니다) 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.bot-unheard.helper':
    '{channel}에서 이제 아무도 {bot}의 목소리를 들을 수 없어(관리자가 그 봇을 서버 음소거했거나, 말할 수 없는 스테이지 청중석으로 옮겼습니다) 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.ignored':
    '서버 관리자가 자동 읽기에서 회원님을 읽지 않도록 했습니다. 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.notStarted.not-served':
    '이 서버에서는 더 이상 서비스하지 않습니다. 요청을 재생하지 않았습니다(아직 아무것도 재생하지 않았습니다).',
  'error.revoked.spent':
    '{reason} {paid, plural, =0 {음성 서비스에 요청한 부분은} other {음성 서비스가 차감한 #자는}} 들렸는지와 관계없이 사용한 것으로 집계됩니다. /usage에서 확인할 수 있습니다.',
  'error.audio.unsupported': '음성 서비스가 재생할 수 없는 형식의 오디오를 보냈습니다 ({format}).',
  'error.busy':
    '지금은 처리할 일이 많아 제시간에 하지 못했습니다. 잠시 후 다시 시도해 주세요. 요금은 청구되지 않았습니다.',
  'error.audio.busy':
    '지금 준비 중인 오디오(파일, 속도, 볼륨)가 너무 많습니다. 잠시 후 다시 시도해 주세요(요금이 두 번 청구되지 않았습니다).',
  'error.audio.guildBusy':
    '이 서버에서 이미 음성 {limit}개(파일, 속도와 음량)를 준비하고 있습니다. 서버 하나의 최대치입니다. 끝난 뒤 다시 시도해 주세요(두 번 청구되지는 않았습니다).',
  'error.input.emptyText': '읽을 텍스트를 입력해 주세요.',
  'error.input.unknownVoice': '"{voice}" 음성이 없습니다. 목록에서 골라 주세요.',
  'error.input.voiceUnlisted':
    '"{voice}" 음성은 이 봇의 목록에 없어서 저장하지 않았습니다. 목록(/voices list)에서 고르거나 봇 관리자에게 추가를 요청해 주세요.',
  'error.input.voiceDeleted':
    '`{voice}` 음성은 이 서버에서 삭제되어 더 이상 이 음성으로 말하지 않습니다. 이 요청에는 글자가 쓰이지 않았습니다.',
  'error.input.engineVoiceUnknown':
    '목소리 "{voice}"는 지금 사용할 수 없습니다. 음성 엔진이 이 목소리를 제공하지 않거나 설정되지 않았습니다. 목록에서 고르세요.',
  'error.input.savedVoiceNotOffered':
    '목소리 {voice}는 지금 사용할 수 없습니다. 음성 엔진이 이 목소리를 제공하지 않거나 설정되지 않았습니다. 다른 음성을 골라 주세요. 기본값은 /myvoice set, 프리셋은 /preset save(서버 관리)로 바꿉니다.',
  'error.input.engineVoiceNotAnswering':
    '목소리 "{voice}"는 저장하지 않았습니다. 음성 엔진이 지금 응답하지 않아 이 목소리가 있는지 확인할 수 없습니다. 엔진이 응답하면 다시 시도하거나 다른 목소리를 고르세요.',
  'error.input.freeVoiceUnavailable':
    '무료 음성 `{voice}`은(는) 이 SayBot에서 쓸 수 없습니다(운영자가 끄거나 설치하지 않았습니다). 다른 음성을 고르세요. 요금은 청구되지 않았습니다.',
  'error.preset.unknown': '이 서버에 "{name}" 프리셋이 없습니다. /preset list 로 확인해 주세요.',
  'buttons.notCached':
    '이 오디오는 더 이상 SayBot 캐시에 없어 다시 재생하면 문자 수가 다시 들기 때문에 아무것도 하지 않았습니다. 원하시면 명령을 다시 사용해 주세요.',
  'error.payload.missingId':
    'Discord의 요청에 필요한 ID가 없거나 올바르지 않아 아무것도 하지 않았습니다. 다시 시도해 주세요.',
  'error.internal': '봇 내부에서 문제가 생겼습니다. 운영자에게 기록되었으니 다시 시도해 주세요.',
  'quota.exhaustedChecking':
    '음성 서비스의 이번 달 글자 수 한도를 모두 사용했습니다 ({marked}에 서비스가 알림). 지금 다른 요청이 한도가 돌아왔는지 확인하는 중이라 요청을 보내지 않았습니다. 잠시 후 다시 시도해 주세요. 캐시에 있는 음성은 계속 재생됩니다.',
  'quota.tooFewLeft':
    '음성 서비스에 이번 달 남은 글자 수가 {left, number}자인데 이 요청에는 {needed, number}자가 필요해 음성이 만들어지지 않았습니다(글자는 사용되지 않았습니다). 더 짧은 텍스트로 시도해 주세요. 한도는 {reset}에 초기화됩니다.',
  'quota.tooFewLeftForMember':
    '음성 서비스에 이번 달 남은 글자 수가 부족해 이 텍스트의 음성이 만들어지지 않았습니다(글자는 사용되지 않았습니다). 더 짧은 텍스트로 시도해 주세요. 한도는 {reset}에 초기화됩니다.',
  'quota.tooFewLeftSaid':
    '음성 서비스는 {at} 기준으로 이번 달 남은 글자 수가 {left, number}자라고 알렸고 이 요청에는 {needed, number}자가 필요합니다. 지금 다른 요청이 글자 수가 추가되었는지 확인하는 중이라 아무것도 보내지 않았습니다. 잠시 후 다시 시도해 주세요. 한도는 {reset}에 초기화됩니다.',
  'quota.tooFewLeftSaidForMember':
    '음성 서비스는 {at} 기준으로 이번 달 남은 글자 수가 이 텍스트에는 부족하다고 알렸습니다. 지금 다른 요청이 글자 수가 추가되었는지 확인하는 중이라 아무것도 보내지 않았습니다. 잠시 후 다시 시도해 주세요. 한도는 {reset}에 초기화됩니다.',
  'quota.recordFailed':
    '지금은 음성 서비스 사용량을 기록할 수 없어(봇 저장소에 쓸 수 없음) 다시 기록할 수 있을 때까지 글자를 쓰는 요청은 보내지 않습니다. 운영자에게 알렸습니다. 캐시에 있는 음성은 계속 재생됩니다.',
  'quota.storageUnavailable':
    '봇 저장소가 제때 응답하지 않아 아무것도 보내지 않았고 글자도 쓰지 않았습니다. 잠시 후 다시 시도해 주세요. 운영자에게 알렸습니다.',
  'budget.refused.outsideMonth':
    '서버 밖에서의 모든 사용은 월간 예산 {limit}자를 함께 씁니다. {used}자를 사용했고 이 요청에는 {needed}자가 필요합니다. {reset}에 초기화됩니다.',
  'budget.refused.guildMonth':
    '이 서버의 월간 예산은 {limit}자입니다. {used}자를 사용했고 이 요청에는 {needed}자가 필요합니다. {reset}에 초기화됩니다.',
  'budget.refused.memberDayOutside':
    '서버 밖에서 내 일일 예산은 {limit}자입니다. 오늘 {used}자를 사용했고 이 요청에는 {needed}자가 필요합니다. {reset}에 초기화됩니다.',
  'budget.refused.memberDay':
    '이 서버에서 내 일일 예산은 {limit}자입니다. 오늘 {used}자를 사용했고 이 요청에는 {needed}자가 필요합니다. {reset}에 초기화됩니다.',
  'budget.refused.cooldownOutside':
    '{seconds}초 뒤에 SayBot을 다시 사용할 수 있습니다. 서버 밖에서는 {limit}초에 한 번 글자를 사용합니다.',
  'budget.refused.cooldown':
    '{seconds}초 기다려 주세요. 이 서버에서는 멤버가 {limit}초에 한 번 글자를 사용할 수 있습니다.',
  'budget.refused.botMonth':
    'SayBot이 운영자가 모든 서버를 합쳐 정한 이번 달 한도에 도달했습니다. {reset}에 초기화됩니다.',
  'queue.refused.guildClips':
    '이 음성 채널의 대기열이 가득 찼습니다 (대기 중 {queued}개, 최대 {limit}개). 몇 개가 재생된 뒤 다시 시도하거나 파일로 요청해 주세요.',
  'queue.refused.guildSeconds':
    '이 음성 채널의 대기열이 가득 찼습니다 (약 {queued}초 분량 대기 중, 최대 {limit}초). 일부가 재생된 뒤 다시 시도하거나 파일로 요청해 주세요.',
  'queue.refused.member':
    '이 서버에서 이미 요청 {limit}개가 대기 중입니다. 멤버 한 명이 둘 수 있는 최대치입니다. 하나가 재생된 뒤 다시 시도해 주세요.',
  'budget.refused.freeRate':
    '1분 안에 글자를 쓰지 않는 요청을 {limit}번 하셨습니다. 멤버 한 명의 최대치입니다. 세는 것은 무료 목소리(eSpeak NG나 이 봇 자체의 음성 엔진, 유료 목소리 대신 말한 경우 포함)로 읽기, 다시 재생, 다른 속도나 음량, 이미 만든 음성, 장면 미리보기, /usage 차트 그리기입니다. {seconds}초 뒤에 다시 시도해 주세요.',
  'error.tooLong.freeLine':
    '무료 음성으로 말하면 한 줄의 최대 길이인 {max}초를 넘기 때문에 말하지 않았습니다. 과금된 것은 없습니다. 더 짧은 텍스트로 시도해 주세요.',
  'error.tooLong.freeLineEstimate':
    '무료 음성의 한 줄이 약 {seconds}초 걸립니다. 무료 음성의 한 줄은 최대 {max}초까지입니다. 길이는 말해 본 뒤에야 알 수 있으므로, SayBot은 예상 길이가 {ceiling}초 이하인 줄만 말합니다 ({margin}% 여유). 줄이거나 나누어 주세요. 만들어진 것도 청구된 것도 없습니다.',
  'error.tooLong.scene':
    '이 장면은 장면 하나의 최대 길이인 {max}초를 넘기 때문에 만들지 않았습니다. 대사를 줄이거나 짧게 해 주세요.',
  'error.freeVoice.missing':
    '이 SayBot에는 무료 음성이 설치되어 있지 않아 말할 수 없습니다. 다른 음성을 골라 주세요. 운영자에게 알렸습니다.',
  'error.input.guildOnly': '이 명령어는 서버에서만 쓸 수 있습니다.',
  'error.permission.manageServer':
    '서버의 프리셋을 바꾸려면 서버 관리 권한이 필요한데, 이 서버에서 그 권한이 없습니다. 서버 관리자에게 요청해 주세요. 프리셋 목록 보기와 사용은 누구나 할 수 있습니다.',
  'error.voice.notInVoice': '먼저 음성 채널에 들어가 주세요.',
  'refusal.nothingSpent': '아무것도 쓰지 않았습니다.',
  'error.voice.memberMuted':
    '관리자가 서버에서 회원님을 음소거했으므로 {channel}에서 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberSuppressed':
    '회원님은 스테이지 {channel}의 청중입니다. 발언자가 된 뒤에만 그곳에서 대신 말합니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberMayNotView':
    '회원님은 {channel}을(를) 볼 권한(채널 보기)이 없으므로 그곳에서 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberMayNotConnect':
    '회원님은 {channel}에 연결할 권한이 없으므로 그곳에서 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberTimedOut':
    '회원님은 이 서버에서 타임아웃 상태이므로 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.authorLeft':
    '{member} 님은 더 이상 이 서버의 멤버가 아니므로 그 메시지를 읽지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.authorMayNotSpeak':
    '{member} 님은 {channel}에서 말할 수 없으므로(서버 음소거, 타임아웃 또는 말하기 권한 없음) 그 메시지를 그곳에서 읽지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberMayNotSpeak':
    '회원님은 {channel}에서 말할 권한이 없으므로 그곳에서 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.audio.failed':
    '이 오디오를 준비하지 못했습니다. 오디오 작업이 이 요청에서 멈췄거나 너무 오래 걸렸습니다. 이 요청만 영향을 받았습니다. 다시 시도해 주세요(두 번 청구되지는 않았습니다).',
  'error.freeVoice.stopped':
    '무료 음성이 이 텍스트를 읽지 못했습니다. eSpeak NG가 이 텍스트에서 멈췄습니다. 이 줄만 실패했으며 이 줄에는 요금이 청구되지 않았습니다.',
  'error.freeVoice.timeout':
    '무료 음성이 이 텍스트에 너무 오래 걸려 중지했습니다. 이 줄만 실패했으며 이 줄에는 요금이 청구되지 않았습니다.',
  'error.files.guildBusy':
    '이 서버에서 이미 파일이나 음성 메시지 {limit}개를 만들고 있습니다. 한 서버가 동시에 만들 수 있는 최대치입니다. 끝난 뒤 다시 시도해 주세요 (요금은 청구되지 않았습니다).',
  'error.files.busy':
    '지금은 동시에 만들 수 있는 만큼의 파일과 음성 메시지를 만들고 있습니다. 잠시 후 다시 시도해 주세요 (요금은 청구되지 않았습니다).',
  'error.files.memberBusy':
    '이 서버에서 이미 파일이나 음성 메시지 {limit}개를 만들고 있습니다. 한 멤버가 동시에 만들 수 있는 최대치입니다. 끝난 뒤 다시 시도해 주세요 (요금은 청구되지 않았습니다).',
  'error.files.userBusy':
    '이미 파일이나 음성 메시지 {limit}개를 만들고 있습니다. 서버 밖에서 한 사람이 한 번에 만들 수 있는 최대치입니다. 끝난 뒤 다시 시도해 주세요(청구되지 않았습니다).',
  'error.audio.memberBusy':
    '이미 긴 오디오(장면이나 긴 파일)를 만들고 있습니다. 비용이 들지 않더라도 한 멤버가 한 번에 만들 수 있는 최대치입니다. 끝난 뒤 다시 시도해 주세요.',
  'scene.played': '🎬 {channel}에서 장면을 재생했습니다: {seconds}초.',
  'scene.stopped': '장면이 {seconds}초 후에 멈췄습니다. 만들어진 것만 요금이 부과되었습니다.',
  'scene.skipped': '장면이 {seconds}초 후에 건너뛰어졌습니다. 만들어진 것만 요금이 부과되었습니다.',
  'scene.cutOff': '장면이 {seconds}초 후에 끊겼습니다 (SayBot이 {channel}에서 나갔습니다).',
  'scene.posted': '🎬 장면을 게시했습니다: {seconds}초.',
  'scene.postedPrivately': '이 채널에 파일을 올릴 수 없어서 장면을 본인에게만 보냅니다: {seconds}초.',
  'scene.freeVoiceStoodIn': '일부 줄은 무료 음성으로 읽었습니다: {reason}.',
  'scene.header': '🎬 {member}님의 장면: 목소리 {speakers}개, {seconds}초',
  'scene.voiceLabel': '목소리 {speakers}개의 장면',
  'scene.voiceMessagePosted': '🎬 장면을 음성 메시지로 게시했습니다: {seconds}초. 자막은 여기 첨부했습니다.',
  'outcome.failedAfterPaying': '음성 서비스가 이 요청에 대해 {paid}자를 차감했으므로 그만큼은 사용되었습니다. {detail}',
  'outcome.freeVoiceFailed': '{refused} 대신 읽을 무료 음성도 말하지 못했습니다. {detail}',
  'outcome.partWay.standIn': '이 중 일부는 {voice}(으)로 말했지만 나머지는 만들 수 없었습니다. {detail}',
  'outcome.failedMaybePaid': '음성 서비스가 {unconfirmed}자를 차감했을 수 있어 사용한 것으로 집계됩니다. {detail}',
  'outcome.partWay.only': '뒷부분이 실패하기 전에 만들어진 부분만 들어 있고, 나머지는 빠져 있습니다.',
  'freeLine.cutAtCap': '예상보다 길게 만들어져, 무료 음성의 한 줄 최대 길이인 {max}초에서 잘랐습니다.',
  'scene.cutAtCap':
    '예상보다 길게 만들어져 장면의 최대 길이인 {max}초에서 잘랐습니다. {lines}줄 중 {heard}줄이 들어 있으며, 잘린 뒤의 줄은 만들지도 청구하지도 않았습니다.',
  'scene.tooLong':
    '이 장면은 약 {seconds}초 걸립니다. 장면은 최대 {max}초까지입니다. 길이는 비용을 치른 뒤에야 알 수 있으므로, SayBot은 예상 길이가 {ceiling}초 이하인 장면만 만듭니다 ({margin}% 여유). 줄이거나 둘로 나누어 주세요. 청구된 것은 없습니다.',
  'studio.scenes.made': '장면을 만들었습니다: {seconds}초.',
  'studio.scenes.cut': '오디오가 {max}초를 넘어 그 지점에서 잘렸습니다.',
  'studio.scenes.played': '음성 채널에서 장면을 재생했습니다: {seconds}초.',
  'studio.scenes.stopped': '{seconds}초 후에 장면이 멈췄습니다.',
  'error.input.emotionEngineVoice':
    '{voice}는 이 봇의 음성 엔진 목소리라 감정을 표현할 수 없습니다. /say로 사용하거나 /emote에는 서비스의 목소리를 고르세요.',
  'error.engine.failed':
    '이 봇의 음성 엔진이 이 줄을 읽지 못했습니다(응답이 없거나 오디오가 아닌 답이 왔습니다). 이 줄에는 요금이 청구되지 않았습니다. 나중에 다시 시도하거나 다른 목소리를 고르세요.',
  'error.engine.timeout':
    '이 봇의 음성 엔진이 이 줄의 오디오를 기한 안에 다 보내지 못했습니다(너무 느리거나 도중에 멈췄습니다). 이 줄에는 요금이 청구되지 않았습니다. 나중에 다시 시도하거나 다른 목소리를 고르세요.',
  'error.engine.busy':
    '이 봇의 음성 엔진이 이 서버의 다른 줄로 바쁩니다. 이 줄에는 요금이 청구되지 않았습니다. 잠시 후 다시 시도하세요.',
  'error.input.exaggeration': '강도는 0부터 1 사이의 숫자여야 합니다. 입력값: {value}.',
  'command.emote': '감정',
  'command.emote.description': '감정을 담아 텍스트를 말합니다',
  'command.say': '말하기',
  'command.say.description': '텍스트를 음성으로 말합니다',
  'option.exaggeration.description.emote': '감정의 강도: 0(담담하게)부터 1(강하게)까지, 기본 0.5',
  'command.output': '출력',
  'command.output.description': '음성 채널 밖에서 받을 방식: 음성 메시지 또는 파일',
  'command.output.server': '서버',
  'command.output.server.description': '음성 채널 밖 멤버를 위한 이 서버의 기본값 (서버 관리 권한 필요)',
  'command.output.me': '나',
  'command.output.me.description': '이 서버에서 음성 채널 밖일 때 내 기본값 (서버 기본값보다 우선)',
  'command.output.show': '보기',
  'command.output.show.description': '음성 채널 밖에서 나에게 적용되는 기본값',
  'option.outside_voice': '음성채널_밖',
  'option.outside_voice.description': '음성 메시지, 파일, 또는 초기화 (내 것: 서버를 따름, 서버: 파일)',
  'choice.outside_voice.voice-message': '음성 메시지',
  'choice.outside_voice.file': '파일',
  'choice.outside_voice.reset': '초기화',
  'output.server.set':
    '이제 이 서버에서 음성 채널 밖 멤버는 기본으로 {output}(으)로 받습니다 (멤버 자신의 /출력 나 설정이 우선).',
  'output.server.reset':
    '이 서버의 기본값을 지웠습니다: 음성 채널 밖 멤버는 따로 정하지 않으면 {output}(으)로 받습니다.',
  'output.me.set':
    '이제 이 서버에서 음성 채널 밖일 때 /say, /emote, /clone 결과를 {output}(으)로 받습니다 (명령의 출력 옵션이 있으면 그것이 우선).',
  'output.me.reset': '이제 서버 기본값을 따릅니다: 음성 채널 밖에서는 {output}(으)로 받습니다.',
  'output.show': '음성 채널 밖에서는 {output}(으)로 받습니다 ({why}). 서버 기본값: {server}, 내 기본값: {member}.',
  'output.why.member': '내 기본값',
  'output.why.server': '서버 기본값',
  'output.why.builtin': '기본 동작',
  'say.textTooLong':
    '이 텍스트는 음성 서비스 기준(유니코드 정규화 후)으로 **{characters}**자입니다. 한 번에 최대 {max}자까지 말할 수 있습니다.',
};
