import type { Translation } from './catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  'error.api.badRequest':
    '음성 서비스가 이 요청을 거절했습니다: {detail}. 텍스트와 옵션을 확인한 뒤 다시 시도해 주세요.',
  'error.api.unauthorized':
    '봇의 Voice API 키가 유효하지 않거나 비활성화되었습니다. 서버 관리자에게 알려 주세요. 사용량은 차감되지 않았습니다.',
  'error.api.forbidden':
    '봇의 Voice API 요금제에 API 이용 권한이 없습니다. 서버 관리자에게 알려 주세요 (Creator 이상 요금제가 필요합니다).',
  'error.api.quota': '음성 서비스의 이번 달 글자 수 한도를 모두 사용했습니다. {reset}에 초기화됩니다.',
  'error.api.rateLimited': '음성 서비스가 지금 바쁩니다. 몇 초 뒤에 다시 시도해 주세요.',
  'error.api.server': '음성 서비스에 지금 장애가 있습니다 ({status}). 잠시 후 다시 시도해 주세요.',
  'error.api.timeout': '음성 서비스의 응답이 너무 늦습니다. 다시 시도해 주세요.',
  'error.api.connection': '음성 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.unexpected': '음성 서비스가 사용할 수 없는 응답을 보냈습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.undelivered':
    '음성 서비스가 이 요청을 받아 글자 수를 셌지만, 음성이 도착하기 전에 끊겨 아무것도 재생하지 못했습니다. 그 글자 수는 사용되었습니다. 다시 시도해 주세요.',
  'error.api.oversized':
    '음성 서비스가 이 텍스트에 비해 너무 많은 음성을 보내서(서비스 쪽 오류) 중단했고 아무것도 남기지 않았습니다. 글자 수는 그래도 사용되었습니다. 잠시 후 다시 시도해 주세요.',
  'error.api.aborted': '요청이 취소되었습니다.',
  'error.voice.joinFailed': '{channel} 채널에 들어갈 수 없습니다. 접속 및 말하기 권한을 확인한 뒤 다시 시도해 주세요.',
  'error.voice.daveRequired':
    '{channel} 채널에 들어갈 수 없습니다: Discord가 종단 간 암호화 음성(DAVE)을 요구하지만 봇의 음성 연결이 이를 지원하지 않았습니다. 봇 운영자에게 알렸습니다.',
  'error.voice.rateLimited':
    'Discord가 지금은 {channel} 채널 음성 연결을 거부했습니다(요청 제한). 1분쯤 기다린 뒤 다시 요청해 주세요.',
  'error.voice.callTerminated':
    'Discord가 {channel} 채널의 음성 통화를 끝내서 나왔습니다. /say 또는 /join으로 다시 요청하면 새로 연결합니다.',
  'error.voice.notInVoice': '먼저 음성 채널에 들어가 주세요.',
  'error.voice.memberMuted':
    '관리자가 서버에서 회원님을 음소거했으므로 {channel}에서 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberSuppressed':
    '회원님은 스테이지 {channel}의 청중입니다. 발언자가 된 뒤에만 그곳에서 대신 말합니다. 아무것도 쓰지 않았습니다.',
  'error.voice.memberMayNotSpeak':
    '회원님은 {channel}에서 말할 권한이 없으므로 그곳에서 대신 말하지 않습니다. 아무것도 쓰지 않았습니다.',
  // Rights taken away while speech waited (src/core/speech/revocation.ts): the rest of it was dropped.
  'error.revoked.not-in-voice': '{channel}에서 나가셨으므로 그곳에서 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.muted':
    '관리자가 {channel}에서 회원님을 서버 음소거했으므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.suppressed':
    '회원님은 더 이상 스테이지 {channel}의 발언자가 아니므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.may-not-speak':
    '회원님은 더 이상 {channel}에서 말할 수 없으므로 대신 말하기를 멈췄습니다. 나머지는 취소했습니다.',
  'error.revoked.ignored': '서버 관리자가 자동 읽기에서 회원님을 읽지 않도록 했습니다. 나머지는 취소했습니다.',
  'error.revoked.not-served': '이 서버에서는 더 이상 서비스하지 않습니다. 나머지는 취소했습니다.',
  'error.audio.unsupported': '음성 서비스가 재생할 수 없는 형식의 오디오를 보냈습니다 ({format}).',
  'error.input.emptyText': '읽을 텍스트를 입력해 주세요.',
  'error.input.unknownVoice': '"{voice}" 음성이 없습니다. 목록에서 골라 주세요.',
  'error.input.voiceDeleted':
    '`{voice}` 음성은 이 서버에서 삭제되어 더 이상 이 음성으로 말하지 않습니다. 이 요청에는 글자가 쓰이지 않았습니다.',
  'error.input.freeVoiceUnavailable':
    '무료 음성 `{voice}`은(는) 이 SayBot에서 쓸 수 없습니다(운영자가 끄거나 설치하지 않았습니다). 다른 음성을 고르세요. 요금은 청구되지 않았습니다.',
  'error.input.guildOnly': '이 명령어는 서버에서만 쓸 수 있습니다.',
  'error.input.speed': '속도는 0.5부터 2 사이의 숫자여야 합니다. 입력값: {value}.',
  'error.input.volume': '볼륨은 -20부터 6 사이의 dB 값이어야 합니다. 입력값: {value}.',
  'error.input.pitch': '음높이는 -12부터 12 사이의 반음 수여야 합니다. 입력값: {value}.',
  'error.audio.busy':
    '지금 준비 중인 오디오(파일, 속도, 볼륨)가 너무 많습니다. 잠시 후 다시 시도해 주세요(요금이 두 번 청구되지 않았습니다).',
  'error.audio.failed':
    '이 오디오를 준비하지 못했습니다. 오디오 작업이 이 요청에서 멈췄거나 너무 오래 걸렸습니다. 이 요청만 영향을 받았습니다. 다시 시도해 주세요(두 번 청구되지는 않았습니다).',
  'error.freeVoice.stopped':
    '무료 음성이 이 텍스트를 읽지 못했습니다. eSpeak NG가 이 텍스트에서 멈췄습니다. 이 줄만 실패했으며 요금은 청구되지 않았습니다.',
  'error.freeVoice.timeout':
    '무료 음성이 이 텍스트에 너무 오래 걸려 중지했습니다. 이 줄만 실패했으며 요금은 청구되지 않았습니다.',
  'error.audio.memberBusy':
    '이미 긴 오디오(장면이나 긴 파일)를 만들고 있습니다. 비용이 들지 않더라도 한 멤버가 한 번에 만들 수 있는 최대치입니다. 끝난 뒤 다시 시도해 주세요.',
  'error.audio.guildBusy':
    '이 서버에서 이미 음성 {limit}개(파일, 속도와 음량)를 준비하고 있습니다. 서버 하나의 최대치입니다. 끝난 뒤 다시 시도해 주세요(두 번 청구되지는 않았습니다).',
  'error.input.unknownLanguage': '"{language}"은(는) 언어 코드가 아닙니다. 목록에서 골라 주세요 (예: ko, en, ja).',
  'error.internal': '봇 내부에서 문제가 생겼습니다. 운영자에게 기록되었으니 다시 시도해 주세요.',
  'error.shuttingDown': '봇을 다시 시작하는 중입니다. 잠시 후 다시 시도해 주세요.',
  'error.guildNotAllowed': 'SayBot 운영자가 이 서버를 선택하지 않았기 때문에 여기서는 SayBot이 동작하지 않습니다.',
  // A private reply sent by DM once the interaction's token is gone: which command in which server it answers.
  'reply.direct': '{server} 서버의 {command}에 대한 답장입니다:',
  'buttons.notCached':
    '이 오디오는 더 이상 SayBot 캐시에 없어 다시 재생하면 문자 수가 다시 들기 때문에 아무것도 하지 않았습니다. 원하시면 명령을 다시 사용해 주세요.',
  'setting.value.on': '켜짐',
  'setting.value.off': '꺼짐',
  'setting.value.none': '없음',
  'settings.tone': '톤 {tone}',
  'settings.exaggeration': '감정 강도 {value}',
  'settings.speed': '속도 {value}배',
  'settings.volume': '음량 {value} dB',
  'settings.pitch': '음높이 {value} 반음',
  'choices.cloned': '복제 음성',
  'choices.free': '무료 음성, 글자 수 차감 없음',
  'error.preset.unknown': '이 서버에 "{name}" 프리셋이 없습니다. /preset list 로 확인해 주세요.',
  'error.permission.manageServer':
    '서버의 프리셋을 바꾸려면 서버 관리 권한이 필요한데, 이 서버에서 그 권한이 없습니다. 서버 관리자에게 요청해 주세요. 프리셋 목록 보기와 사용은 누구나 할 수 있습니다.',
  'quota.exhaustedChecking':
    '음성 서비스의 이번 달 글자 수 한도를 모두 사용했습니다 ({marked}에 서비스가 알림). 지금 다른 요청이 한도가 돌아왔는지 확인하는 중이라 요청을 보내지 않았습니다. 잠시 후 다시 시도해 주세요. 캐시에 있는 음성은 계속 재생됩니다.',
  'quota.tooFewLeft':
    '음성 서비스에 이번 달 남은 글자 수가 {left}자인데 이 요청에는 {needed}자가 필요해 아무것도 보내지 않았습니다. 더 짧은 텍스트로 시도해 주세요. 한도는 {reset}에 초기화됩니다.',
  'quota.tooFewLeftForMember':
    '음성 서비스에 이번 달 남은 글자 수가 부족해 이 텍스트를 보내지 않았습니다. 더 짧은 텍스트로 시도해 주세요. 한도는 {reset}에 초기화됩니다.',
  'quota.recordFailed':
    '지금은 음성 서비스 사용량을 기록할 수 없어(봇 저장소에 쓸 수 없음) 다시 기록할 수 있을 때까지 글자를 쓰는 요청은 보내지 않습니다. 운영자에게 알렸습니다. 캐시에 있는 음성은 계속 재생됩니다.',
  'quota.storageUnavailable':
    '봇 저장소가 제때 응답하지 않아 아무것도 보내지 않았고 글자도 쓰지 않았습니다. 잠시 후 다시 시도해 주세요. 운영자에게 알렸습니다.',
  'budget.refused.guildMonth':
    '이 서버의 월간 예산은 {limit}자입니다. {used}자를 사용했고 이 요청에는 {needed}자가 필요합니다. {reset}에 초기화됩니다.',
  'budget.refused.memberDay':
    '이 서버에서 내 일일 예산은 {limit}자입니다. 오늘 {used}자를 사용했고 이 요청에는 {needed}자가 필요합니다. {reset}에 초기화됩니다.',
  'budget.refused.cooldown':
    '{seconds}초 기다려 주세요. 이 서버에서는 멤버가 {limit}초에 한 번 글자를 사용할 수 있습니다.',
  'budget.refused.botMonth':
    'SayBot이 운영자가 모든 서버를 합쳐 정한 이번 달 한도에 도달했습니다. {reset}에 초기화됩니다.',
  'queue.refused.guildClips':
    '이 서버의 음성 대기열이 가득 찼습니다 (대기 중 {queued}개, 최대 {limit}개). 몇 개가 재생된 뒤 다시 시도하거나 파일로 요청해 주세요.',
  'queue.refused.guildSeconds':
    '이 서버의 음성 대기열이 가득 찼습니다 (약 {queued}초 분량 대기 중, 최대 {limit}초). 일부가 재생된 뒤 다시 시도하거나 파일로 요청해 주세요.',
  'queue.refused.member':
    '이 서버에서 이미 요청 {limit}개가 대기 중입니다. 멤버 한 명이 둘 수 있는 최대치입니다. 하나가 재생된 뒤 다시 시도해 주세요.',
  'budget.refused.freeRate':
    '1분 안에 글자를 쓰지 않는 요청(다시 재생, 다른 속도나 음량, 이미 만든 음성)을 {limit}번 하셨습니다. 멤버 한 명의 최대치입니다. {seconds}초 뒤에 다시 시도해 주세요.',
  'option.text': '텍스트',
  'option.text.description': '말할 내용',
  'option.name': '이름',
  'option.output': '출력',
  'option.output.description': '음성 채널에서 재생, 파일로 보내기, 또는 음성 메시지로 보내기',
  'option.exaggeration': '감정강도',
  'option.voice': '음성',
  'option.voice.description': '말할 음성',
  'option.preset': '프리셋',
  'option.preset.description': '이 서버의 음성 프리셋',
  'option.language': '언어',
  'option.language.description': '텍스트의 언어 (비우면 자동 감지)',
  'option.tone': '톤',
  'option.tone.description': '말투 지시, 예: "속삭이듯", "밝게"',
  'option.speed': '속도',
  'option.speed.description': '말하는 속도, 0.5~2 (1 = 보통), 음높이는 그대로',
  'option.volume': '볼륨',
  'option.volume.description': '더 크게 또는 작게, -20~+6 dB (0 = 보통), 소리가 깨지지 않음',
  'option.pitch': '음높이',
  'option.pitch.description': '더 높게 또는 낮게, -12~+12 반음 (0 = 원래 목소리), 길이는 그대로',
  'option.format': '형식',
  'option.format.description': '파일로 보낼 때의 오디오 형식',
  'choice.output.voice': '음성 채널',
  'choice.output.file': '파일',
  'choice.output.voice-message': '음성 메시지',
  'choice.format.wav': 'WAV',
  'choice.format.mp3': 'MP3',
};
