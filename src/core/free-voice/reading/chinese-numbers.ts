// Numbers in Chinese text as Chinese reads them, for eSpeak NG's Mandarin voice: a year digit by digit (2026年
// 二零二六年, not two thousand and twenty-six), a decimal with its point (12.5 十二点五: eSpeak NG drops the point),
// a percentage before its number (50% 百分之50), 2 before a measure word as 两, a date (2026/11/25) and a clock time
// (14:30) in 年 月 日 and 点 分. Linear in the text.

const HAN_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const hanDigits = (digits: string): string => [...digits].map((d) => HAN_DIGITS[Number(d)]).join('');
/** Measure words after which 2 is 两 (两个, 两点 o'clock). */
const LIANG_BEFORE = '个|只|位|件|次|天|本|张|条|杯|点|种|份|岁|年|周|小时|分钟';

/** A Chinese run with its years, decimals, percentages, dates and times spelled as Chinese reads them. */
export function readChineseNumbers(text: string): string {
  return text
    .replace(
      /(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?!\d)/gu,
      (_, y: string, m: string, d: string) => `${y}年${Number(m)}月${Number(d)}日`,
    )
    .replace(
      /(?<!\d)(\d{1,2}):(\d{2})(?!\d)/gu,
      (_, h: string, m: string) => `${Number(h)}点${m === '00' ? '' : `${Number(m)}分`}`,
    )
    .replace(/(?<![\d.])(\d{4})(?=年)/gu, (_, year: string) => hanDigits(year))
    .replace(/(\d+(?:\.\d+)?)%/gu, '百分之$1')
    .replace(/(\d)\.(\d+)/gu, (_, whole: string, fraction: string) => `${whole}点${hanDigits(fraction)}`)
    .replace(new RegExp(String.raw`(?<![\d.])2(?=${LIANG_BEFORE})`, 'gu'), '两');
}
