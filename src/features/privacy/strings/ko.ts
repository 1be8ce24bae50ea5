import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  'privacy.show.none': 'SayBot이 이 서버에서 나에 대해 보관하는 것이 없습니다.',
  'privacy.show.header': 'SayBot이 이 서버에서 나에 대해 보관하는 것 (기록 수):',
  'privacy.show.footer':
    '사용 기록은 예산과 /usage를 위해 글자 수를 셉니다. `/privacy delete`는 내 기록을 지우고 나머지에서 내 ID를 없앱니다 (사용 기록은 합계가 맞도록 익명으로 남습니다).',
  'privacy.trace.member_defaults': '내 음성 기본값 (/myvoice)',
  'privacy.trace.member_output_defaults': '내 출력 기본값 (/output)',
  'privacy.trace.presets': '내가 저장한 프리셋 (작성자로)',
  'privacy.trace.voice_library': '내가 복제한 음성',
  'privacy.trace.clone_name_reservations': '진행 중인 내 복제',
  'privacy.trace.spends': '사용 기록 (요청당 글자 수)',
  'privacy.trace.budget_holds': '진행 중인 내 요청에 잡아 둔 글자 수',
  'privacy.trace.guild_budgets': '내가 정한 서버 예산 (작성자로)',
  'privacy.trace.auto_read': '내가 시작하거나 설정한 자동 읽기 (작성자로)',
  'privacy.trace.dictionary_entries': '내가 쓴 사전 항목 (작성자로)',
  'privacy.trace.guild_output_defaults': '내가 정한 서버 출력 기본값 (작성자로)',
  'privacy.trace.other': '기타 기록 ({table})',
  'privacy.deleted':
    '이 서버에서 SayBot이 보관하던 내 정보를 지웠습니다: 기록 {deleted}개 삭제, 기록 {anonymised}개에서 내 이름 제거 (사용 기록은 서버 합계가 맞도록 익명으로 남습니다).',
  'privacy.deleted.voices': '내가 복제한 음성을 삭제하고 캐시의 오디오도 지웠습니다: {names}.',
  'privacy.outside.none': '서버 밖에서의 사용에 대해 SayBot이 보관하는 회원님 정보가 없습니다.',
  'privacy.outside.header':
    '서버 밖(DM, 그룹 DM, SayBot이 없는 서버)에서의 사용에 대해 SayBot이 보관하는 회원님 정보(기록 수):',
  'privacy.outside.deleted':
    '서버 밖에서의 사용에 대해 SayBot이 보관하던 회원님 정보를 삭제했습니다: {deleted}개 기록 삭제, {anonymised}개 기록에서 회원님을 알 수 없게 함(사용 기록은 익명으로 남으며, 오늘 쓴 문자 수는 일일 예산에 계속 포함됩니다).',
  'privacy.server.outside':
    '`/privacy server`는 SayBot이 들어가 있는 서버의 데이터를 삭제하는데, 여기에는 그런 데이터가 없습니다. 회원님의 정보는 `/privacy delete`로 삭제합니다.',
  'privacy.server.confirm':
    '이 서버의 SayBot 데이터를 모두 지웁니다: 프리셋, 복제 음성, 사전, 설정, 예산, 자동 읽기, 모든 멤버의 기본값 (사용 기록은 익명으로 남습니다). {minutes}분 안에 `/privacy server confirm:{code}`를 실행해 확인하세요.',
  'privacy.server.deleted':
    '이 서버의 SayBot 데이터를 모두 지웠습니다: 기록 {deleted}개 삭제, 사용 기록 {anonymised}개 익명화, 복제 음성 {voices}개 삭제.',
  'error.privacy.badCode':
    '확인 코드가 틀렸거나 만료되었습니다. 코드 없이 `/privacy server`를 실행해 새 코드를 받으세요.',
  'command.privacy': '개인정보',
  'command.privacy.description': 'SayBot이 이 서버에서 나에 대해 보관하는 것과 그 삭제',
  'command.privacy.show': '보기',
  'command.privacy.show.description': 'SayBot이 이 서버에서 나에 대해 보관하는 것 보기',
  'command.privacy.delete': '삭제',
  'command.privacy.delete.description': 'SayBot이 이 서버에서 나에 대해 보관하는 것 삭제',
  'command.privacy.server': '서버',
  'command.privacy.server.description': '이 서버의 데이터 모두 삭제 (서버 관리 권한, 확인 필요)',
  'option.confirm': '확인',
  'option.confirm.description': '처음 /privacy server가 보여 준 확인 코드',
  'privacy.trace.auto_read_voice_pool': '내가 자동 읽기 음성 풀에 추가한 음성 (추가한 사람으로)',
  'privacy.trace.auto_read_member_voices': '자동 읽기 음성 풀에서 받은 내 음성',
  'privacy.trace.auto_read_ignored': '자동 읽기가 읽지 않는 멤버 목록 (내가 추가한 사람으로)',
  'privacy.kept.header':
    '서버 관리자가 나에 대해 남긴 기록 (`/privacy delete`로는 지워지지 않으며, 관리자의 `/autoread unignore` 또는 `/privacy server`로 지워집니다):',
  'privacy.kept.auto_read_ignored': '자동 읽기가 나를 읽지 않음 (관리자의 무시 목록)',
};
