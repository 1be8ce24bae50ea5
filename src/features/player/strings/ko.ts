import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  'error.voice.notConnected': '이 서버의 음성 채널에 들어가 있지 않습니다.',
  'join.joined': '{channel} 채널에 들어왔습니다.',
  'join.credits': '여기서 쓰는 무료 목소리: {credits}.',
  'join.already': '이미 {channel} 채널에 있습니다.',
  'join.joinedAs': '{bot} 봇이 {channel} 채널에 들어왔습니다.',
  'join.alreadyAs': '{bot} 봇은 이미 {channel} 채널에 있습니다.',
  'leave.left': '{channel} 채널에서 나왔습니다.',
  'leave.othersQueued':
    '{channel}에서 다른 사람의 요청이 재생 중이거나 대기 중이므로 나가지 않았고 아무것도 멈추지 않았습니다. 지금 나가게 하려면 멤버 음소거, 멤버 이동 또는 서버 관리 권한이 필요합니다. 회원님의 요청은 /stop으로 멈출 수 있습니다.',
  'skip.skipped': '지금 재생 중인 클립을 건너뛰었습니다.',
  'skip.nothing': '재생 중인 것이 없습니다.',
  'stop.stopped': '중지하고 대기 중인 클립 {count}개를 비웠습니다.',
  'player.notInChannel':
    '제가 말하고 있는 {channel}에 들어와 있지 않으므로 아무것도 바꾸지 않았습니다. 그 채널의 회원은 자기 요청만 멈추거나 건너뛸 수 있고, 다른 사람의 요청은 멤버 음소거, 멤버 이동 또는 서버 관리 권한이 있어야 합니다.',
  'stop.own':
    '회원님의 요청을 멈추고 대기 중인 회원님의 클립 {count}개를 비웠습니다. 다른 사람의 요청은 계속됩니다. 그것을 멈추려면 멤버 음소거, 멤버 이동 또는 서버 관리 권한이 필요합니다.',
  'stop.files':
    '만들고 있던 회원님의 파일 또는 음성 메시지 {count}개를 멈췄습니다. 더 이상 음성 서비스에 보내지 않고 게시하지도 않습니다. 각각의 비용은 해당 응답에서 알려 드립니다.',
  'stop.clones':
    '만들고 있던 회원님의 음성 복제 {count}개를 멈췄습니다. 아직 음성 서비스에서 기다리던 요청은 닫았고(서비스가 글자 수를 집계했을 수 있어 사용한 것으로 계산합니다), 이미 만들어진 목소리는 보관하며 첫 문장은 재생하거나 게시하지 않습니다.',
  'stop.nothing': '음성 채널에서 재생 중이거나 대기 중인 것이 없어 아무것도 멈추지 않았습니다.',
  'stop.nothingOwn':
    '재생 중이거나 대기 중인 회원님의 요청이 없어 아무것도 멈추지 않았습니다. 다른 사람의 요청을 멈추려면 멤버 음소거, 멤버 이동 또는 서버 관리 권한이 필요합니다.',
  'skip.notYours':
    '재생 중인 클립은 회원님의 것이 아니므로 계속 재생됩니다. 다른 사람의 요청을 건너뛰려면 멤버 음소거, 멤버 이동 또는 서버 관리 권한이 필요합니다.',
  'command.join': '참가',
  'command.join.description': '내 음성 채널에 들어옵니다',
  'command.leave': '나가기',
  'command.leave.description': '말하기를 멈추고 음성 채널에서 나갑니다',
  'command.skip': '건너뛰기',
  'command.skip.description': '재생 중인 클립을 건너뜁니다 (대기열은 계속)',
  'command.stop': '정지',
  'command.stop.description': '말하기를 멈추고 대기열을 비웁니다',
  'autoread.guard.leave':
    '이 서버를 위해 {voice}에서 {channel}을(를) 읽고 있습니다. 서버 관리 권한이 있는 멤버만 내보낼 수 있습니다.',
  'autoread.pausedByLeave':
    '{voice}에서 나왔습니다. {channel} 읽기는 설정을 유지한 채 일시 정지되었습니다. 다른 채널에서 사용 중이 아닌 봇이 있을 때 {voice}에서 /join(서버 관리) 또는 /autoread start로 다시 시작하고, /autoread stop으로 끝냅니다.',
  'autoread.resumed': '{voice}에 들어와 {channel} 읽기를 다시 시작했습니다.',
};
