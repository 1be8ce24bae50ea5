import type { Translation } from '../../../core/i18n/catalogue.ts';
import type { en } from './en.ts';

export const ko: Translation<typeof en> = {
  'budget.name.guildMonthlyChars': '서버 월간 글자 수',
  'budget.name.memberDailyChars': '멤버 일일 글자 수',
  'budget.name.memberCooldownSeconds': '대기 시간(초)',
  'budget.aboveOperator':
    '{budget}은(는) 이 서버에서 최대 {limit}까지 설정할 수 있습니다. 운영자가 정한 한도이며, 서버는 낮추기만 할 수 있습니다.',
  'budget.nothing': '세 가지 예산 중 하나 이상을 지정해 주세요 (0은 이 서버의 자체 한도를 없앱니다).',
  'budget.updated': '이 서버의 예산: {summary}.',
  'budget.line': '{name}: {value}',
  'budget.fromOperator': '{value} (운영자)',
  'budget.fromServer': '{value} (이 서버, 운영자: {operator})',
  'budget.noLimit': '제한 없음',
  'error.permission.budget':
    '서버의 예산을 바꾸려면 서버 관리 권한이 필요합니다. 예산은 누구나 /usage 로 볼 수 있습니다.',
  'usage.title': '**{month} 사용량** ({reset} 초기화)',
  'usage.freeVoice': '이번 달 무료 음성이 {lines}줄을 읽었습니다. 요금은 없습니다(그중 {fallback}줄은 유료 음성 대신).',
  'usage.freeEngines': '그중 읽은 엔진별: VOICEVOX {voicevox}줄, 음성 서버 {speech}줄, eSpeak NG {espeak}줄.',
  'usage.guild': '이 서버: {spent}자 사용, 캐시로 {saved}자 절약; {budget}.',
  'usage.guildBudget': '월간 예산 {limit}자, {left}자 남음',
  'usage.noGuildBudget': '월간 예산 없음',
  'usage.bot':
    '봇 전체: {limit}자 중 {used}자 사용{source}, {remaining}자 남음; SayBot이 보낸 글자 {spent}자, 캐시로 절약 {saved}자.',
  'usage.fromService': ' ({at} 기준 서비스 집계)',
  'usage.ownCount': ' (SayBot 자체 집계: 이번 달 서비스가 수치를 보내지 않았습니다)',
  'usage.botUsedUp':
    '봇 전체: 서비스에 따르면 이번 달 {limit}자를 모두 사용했습니다; SayBot이 보낸 글자 {spent}자, 캐시로 절약 {saved}자.',
  'usage.botBudget':
    '봇 전체 예산 (모든 서버와 사용자 설치 합계): 한 달 {limit}자, {left}자 남음; 나머지 요금제 분량은 운영자가 직접 쓰도록 남겨 둡니다.',
  'usage.noBotBudget': '봇 전체 예산: 없음 (SayBot이 요금제 전체를 쓸 수 있음).',
  'usage.member': '오늘 나: {spent}자; {budget}.',
  'usage.outside.where': '서버 밖(DM, 그룹 DM, SayBot이 없는 서버)에서의 SayBot 사용:',
  'usage.outside.shared': '서버 밖에서의 모든 사용은 하나의 월간 예산을 함께 씁니다: {limit}자 중 {left}자 남음.',
  'usage.memberBudget': '일일 예산 {limit}자, {left}자 남음, {reset} 초기화',
  'usage.noMemberBudget': '일일 예산 없음',
  'usage.cooldown': '대기 시간: 글자를 사용하는 요청 사이 {seconds}초 (캐시의 음성은 무료이며 기다리지 않습니다).',
  'usage.queue': '음성 대기열: 서버당 최대 {clips}개, 약 {seconds}초 분량, 멤버당 대기 요청 {member}개.',
  'usage.exhausted':
    '음성 서비스가 이번 달 한도를 모두 사용했다고 알렸습니다. 한도가 돌아왔는지 확인하려고 요청을 한 번에 하나씩만 보냅니다 (요금제 업그레이드나 충전 시 바로 풀림). 늦어도 {reset}에 초기화됩니다.',
  'usage.chart.title': '{month} 글자 사용량 (UTC)',
  'usage.chart.perDay': '일별',
  'usage.chart.monthToDate': '이번 달 누적 사용',
  'usage.chart.spent': '사용',
  'usage.chart.saved': '캐시로 절약',
  'usage.chart.budget': '월간 예산',
  'usage.chart.topMembers': '상위 멤버',
  'usage.chart.noData': '아직 없음',
  'usage.chart.formerMember': '나간 멤버',
  'usage.chart.alt': '{month} 이 서버의 글자 사용량 차트: 일별 사용량과 캐시 절약량, 예산 대비 이번 달 누적, 상위 멤버',
  'usage.chart.freeRate':
    '이번에는 차트가 없습니다: 차트를 그리는 것은 글자를 쓰지 않는 요청으로 세며, 1분 안에 멤버 한 명의 최대치인 {limit}번을 하셨습니다. {seconds}초 뒤에 다시 시도해 주세요.',
  'command.budget': '예산',
  'command.budget.description': '이 서버의 글자 예산을 운영자 한도보다 낮게 설정 (서버 관리 권한 필요). /usage 로 확인',
  'command.usage': '사용량',
  'command.usage.description': '이번 달 글자 사용량: 이 서버, 봇 전체, 오늘 내 사용량',
  'option.server_monthly_chars': '서버_월간_글자수',
  'option.server_monthly_chars.description': '이 서버가 한 달에 쓸 수 있는 글자 수 (0: 서버 자체 한도 없앰)',
  'option.member_daily_chars': '멤버_일일_글자수',
  'option.member_daily_chars.description': '멤버 한 명이 하루(UTC)에 쓸 수 있는 글자 수 (0: 서버 자체 한도 없앰)',
  'option.cooldown_seconds': '대기_시간_초',
  'option.cooldown_seconds.description': '글자를 쓰는 요청 사이에 멤버가 기다릴 시간(초) (0: 없앰)',
};
