import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  'clone.error.consent':
    '음성을 복제하려면 화자의 동의가 필요합니다. 동의를 받은 경우에만 동의를 True로 설정해 주세요.',
  'clone.error.nameInvalid': "음성 이름은 1~{max}자의 문자나 숫자여야 합니다 (사이에 공백, - _ . ' 사용 가능).",
  'clone.error.nameTaken':
    '이 서버에 이미 "{name}" 음성이 있습니다. 다른 이름을 고르거나 그 음성을 먼저 삭제해 주세요.',
  'clone.error.textTooLong': '새 음성의 첫 문장은 최대 {max}자까지입니다.',
  'clone.error.memberShare':
    '이 서버의 복제 음성 {limit}개 중 {share}개를 만드셨습니다. 다른 멤버도 쓸 수 있도록 한 멤버가 둘 수 있는 최대치입니다. 먼저 /voices delete로 내 음성을 하나 지우거나 관리자에게 부탁해 주세요.',
  'clone.error.libraryFull':
    '이 서버에는 이미 복제 음성이 {limit}개 있습니다. /voices delete 로 하나를 먼저 삭제해 주세요.',
  'clone.voiceLabel': '새 음성 "{name}" ({id}, {seconds}초 클립)',
  'clone.madeLineFailed':
    '새 음성 "{name}" ({id})이(가) 만들어져 저장되었고, 그 글자 수는 사용되었습니다. 첫 문장은 말하지 못했습니다: {reason} /say에서 음성 {name}(으)로 사용해 보세요.',
  'clone.audioLost':
    '새 음성 "{name}" ({id})이(가) 만들어졌고 글자 수가 사용되었지만, 첫 문장이 오는 도중에 끊겨 재생하지 못했습니다. /say에서 음성 {name}(으)로 들어 보세요.',
  'clone.madeStopped':
    '새 음성 "{name}" ({id})이(가) 만들어져 저장되었고, 그 글자 수는 사용되었습니다. 요청하신 대로 멈췄으므로 첫 문장은 재생하거나 게시하지 않습니다. /say에서 음성 {name}(으)로 사용해 보세요.',
  'clone.stoppedClosed':
    '요청하신 대로 음성 서비스가 응답하기 전에 멈췄습니다. 요청은 닫았고 저장된 음성은 없습니다. 서비스가 그 {characters}자를 집계했을 수 있어서 여기서도 사용한 것으로 계산합니다. 그래도 필요할 때만 다시 복제해 주세요.',
  'clone.stoppedUnsent':
    '요청하신 대로 음성 서비스에 아무것도 보내기 전에 멈췄습니다. 음성은 만들어지지 않았고 요금도 부과되지 않았습니다.',
  'voices.deleted': '"{name}" 음성({id})을 삭제했습니다.',
  'voices.deleted.presets': '이 음성을 쓰던 프리셋 {count}개도 함께 삭제했습니다: {names}.',
  'voices.deleted.members':
    '이 음성을 내 음성(/myvoice)으로 쓰던 멤버 {count}명은 이제 서버 기본 음성으로 듣게 되며, 다음에 쓸 때 한 번 안내받습니다.',
  'voices.deleted.more': '외 {count}개',
  'voices.notFound': '이 서버에 "{name}" 복제 음성이 없습니다.',
  'error.permission.deleteVoice': '이 음성을 만든 사람이나 서버 관리 권한이 있는 사람만 삭제할 수 있습니다.',
  // /clone 양식
  'clone.form.title': '음성 복제',
  'clone.form.guide':
    '좋은 샘플: 한 사람이 {min}~{max}초 동안 또렷하게 말하는 녹음 (10~30초가 가장 좋음), 조용한 곳에서, 음악이나 다른 목소리 없이.',
  'clone.form.name': '음성 이름',
  'clone.form.text': '첫 문장',
  'clone.form.clip': '음성 클립',
  'clone.form.consent': '화자의 동의',
  'clone.error.consentBox': '음성을 복제하려면 화자의 동의가 필요합니다. 동의를 받은 경우에만 상자에 체크해 주세요.',
  'clone.error.fileType': '{name}은(는) WAV, MP3, M4A 파일이 아닙니다. 이 중 하나를 올려 주세요.',
  'clone.error.noClip': '음성 클립을 올려 주세요 (WAV, MP3, M4A).',
  'clone.error.incomplete':
    '클립과 함께 이름, 텍스트, 동의도 입력하거나, 옵션 없이 /clone을 실행해 양식을 채워 주세요.',
  'voices.presetVoices': '기본 제공 음성',
  'voices.engineVoices': '이 봇의 음성 엔진이 제공하는 무료 목소리',
  'voices.cloned': '이 서버의 복제 음성',
  'voices.presets': '이 서버의 프리셋',
  'voices.none': '(없음)',
  'command.clone': '음성복제',
  'command.clone.description': '동의를 받은 사람의 음성 클립으로 이 서버의 새 음성을 만듭니다',
  'command.voices': '음성목록',
  'command.voices.description': '쓸 수 있는 음성: 기본 제공 음성, 이 서버의 복제 음성과 프리셋',
  'command.voices.list': '목록',
  'command.voices.list.description': '쓸 수 있는 음성 목록',
  'command.voices.delete': '삭제',
  'command.voices.delete.description': '이 서버의 복제 음성을 삭제합니다 (만든 사람 또는 서버 관리 권한)',
  'option.audio': '오디오',
  'option.audio.description': '음성 샘플: 한 사람이 말하는 3~60초 (WAV, MP3, M4A)',
  'option.text.description.clone': '새 음성이 처음 말할 내용',
  'option.name.description.clone': '이 서버에서 부를 음성 이름',
  'option.consent': '동의',
  'option.consent.description': '클립 속 화자가 음성 복제에 동의했음을 확인합니다',
  'option.voice.description.voices': '복제 음성의 이름이나 ID',
  // Reference clips (src/features/voices/reference-clip.ts)
  'clone.error.host':
    '클립은 명령어에 직접 첨부해 주세요. 디스코드 첨부 파일만 내려받습니다 ({host}에서는 받지 않습니다).',
  'clone.error.tooLarge': '클립이 {size}MB입니다. 한도는 {limit}MB입니다. 더 짧은 클립(3~60초)을 첨부해 주세요.',
  'clone.error.download': '클립을 내려받지 못했습니다 ({detail}). 다시 첨부해 주세요.',
  'clone.error.format':
    '클립이 WAV, MP3, M4A가 아니라 {found}입니다 (파일 이름과 관계없이). 이 세 형식 중 하나로 첨부해 주세요.',
  'clone.error.corrupt': '클립이 손상되었거나 잘려 있습니다. 다시 내보낸 파일을 첨부해 주세요.',
  'clone.error.checkBusy': '지금 확인 중인 클립이 너무 많습니다. 잠시 후 다시 첨부해 주세요.',
  'clone.error.checkBusyServer':
    '이 서버에서 이미 클립 {limit}개를 확인하고 있습니다. 결과가 나온 뒤 다시 첨부해 주세요.',
  'clone.error.duration': '클립 길이가 {seconds}초입니다. {min}초에서 {max}초 사이여야 합니다.',
  'clone.error.silent': '클립에 소리가 없습니다 ({level} dBFS). 말하는 목소리를 녹음해 첨부해 주세요.',
};
