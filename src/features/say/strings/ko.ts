import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  'error.input.exaggeration': '강도는 0부터 1 사이의 숫자여야 합니다. 입력값: {value}.',
  'command.emote': '감정',
  'command.emote.description': '감정을 담아 텍스트를 말합니다',
  'command.say': '말하기',
  'command.say.description': '텍스트를 음성으로 말합니다',
  'option.exaggeration.description.emote': '감정의 강도: 0(담담하게)부터 1(강하게)까지, 기본 0.5',
  // Voice messages: /output, the outside-voice defaults (src/features/speaking/speech-delivery.ts chooseTarget)
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
  'output.unset': '없음',
  'say.textTooLong':
    '이 텍스트는 음성 서비스 기준(유니코드 정규화 후)으로 **{characters}**자입니다. 한 번에 최대 {max}자까지 말할 수 있습니다.',
};
