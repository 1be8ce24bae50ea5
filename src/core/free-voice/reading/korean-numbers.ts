// Numbers in Korean text as Korean reads them, for eSpeak NG's Korean voice, which reads every number in
// Sino-Korean numerals: before a counter that takes native numerals (시 o'clock, 시간, 명, 개, 살, 마리...) a number
// below 100 is spelled in them (3시 세 시, 20살 스무 살); a date (2026/11/25) and a clock time (14:30) in 년 월 일
// and 시 분; a percentage 퍼센트. Linear in the text.

const NATIVE_ONES = ['', '한', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉'];
const NATIVE_TENS = ['', '열', '스물', '서른', '마흔', '쉰', '예순', '일흔', '여든', '아흔'];
/** Counters read with native numerals (up to 99). 번 is left out: 3번 is "number three" as often as "three times". */
const NATIVE_COUNTERS = '시간|시|명|개|살|마리|잔|권|달|가지|곳|사람';

/** 1..99 in native numerals as they stand before a counter (스무 for 20 alone). */
function native(n: number): string {
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  if (ones === 0 && tens === 2) return '스무';
  return NATIVE_TENS[tens]! + NATIVE_ONES[ones]!;
}

/** A Korean run with its dates, times, percentages and native-counted numbers spelled as Korean reads them. */
export function readKoreanNumbers(text: string): string {
  return text
    .replace(
      /(\d{4})\/(\d{1,2})\/(\d{1,2})(?!\d)/gu,
      (_, y: string, m: string, d: string) => `${y}년 ${Number(m)}월 ${Number(d)}일`,
    )
    .replace(
      /(?<!\d)(\d{1,2}):(\d{2})(?!\d)/gu,
      (_, h: string, m: string) => `${Number(h)}시${m === '00' ? '' : ` ${Number(m)}분`}`,
    )
    .replace(
      new RegExp(String.raw`(?<![\d.,])([1-9]\d?)(?![\d.,])(\s?)(?=${NATIVE_COUNTERS})`, 'gu'),
      (_, n: string) => `${native(Number(n))} `,
    )
    .replace(/%/gu, '퍼센트');
}
