// Numbers in Japanese text read as Japanese reads them, in hiragana: digit groups of 万, 億, 兆, 京, and a counter
// after the number with its sound changes (三本 さんぼん, 六回 ろっかい, 四時 よじ, 二十日 はつか, 一人 ひとり...),
// dates (2026/11/25) and clock times (14:30). eSpeak NG's Japanese voice reads digits in Japanese but names every
// kanji counter "Chinese letter", and the morphological analyser gives no reading for digits (and reads 月 after a
// number as つき); so numbers are read here, before the analyser sees the rest. Linear in the text.

/** What the number's reading ends in, which decides a counter's sound change: a digit, 10, 100, 1000, a 万 group. */
type Last = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '10' | '100' | '1000' | 'big' | 'decimal';

interface Reading {
  /** The pieces of the reading; the last one may change before a counter. */
  pieces: string[];
  last: Last;
}

const DIGITS = ['ぜろ', 'いち', 'に', 'さん', 'よん', 'ご', 'ろく', 'なな', 'はち', 'きゅう'];
const HUNDREDS: Record<number, string> = { 1: 'ひゃく', 3: 'さんびゃく', 6: 'ろっぴゃく', 8: 'はっぴゃく' };
const THOUSANDS: Record<number, string> = { 1: 'せん', 3: 'さんぜん', 8: 'はっせん' };
const GROUP_UNITS = ['', 'まん', 'おく', 'ちょう', 'けい'];
/** The longest whole number read as a number; past it, digit by digit (an ID, a long code). */
const MAX_NUMBER_DIGITS = 20;

/** The small sound change (促音) of a piece before a counter: いち -> いっ, ろく -> ろっ, はち -> はっ, じゅう -> じゅっ. */
function sokuon(piece: string): string {
  return piece.replace(/(いち|ろく|はち|じゅう|ゃく)$/u, (end) => `${end === 'じゅう' ? 'じゅ' : end.slice(0, -1)}っ`);
}

/** A group of up to four digits (1..9999); `beforeUnit`: 万, 億... follows (一千万 is いっせんまん). */
function groupPieces(n: number, beforeUnit: boolean): Reading {
  const pieces: string[] = [];
  let last: Last = '0';
  const thousands = Math.floor(n / 1000);
  const hundreds = Math.floor(n / 100) % 10;
  const tens = Math.floor(n / 10) % 10;
  const ones = n % 10;
  if (thousands > 0) {
    pieces.push(beforeUnit && n === 1000 ? 'いっせん' : (THOUSANDS[thousands] ?? `${DIGITS[thousands]}せん`));
    last = '1000';
  }
  if (hundreds > 0) {
    pieces.push(HUNDREDS[hundreds] ?? `${DIGITS[hundreds]}ひゃく`);
    last = '100';
  }
  if (tens > 0) {
    pieces.push(tens === 1 ? 'じゅう' : `${DIGITS[tens]}じゅう`);
    last = '10';
  }
  if (ones > 0) {
    pieces.push(DIGITS[ones]!);
    last = String(ones) as Last;
  }
  return { pieces, last };
}

/** A whole number written in digits (no separators), or undefined when it is read digit by digit. */
function integerReading(digits: string): Reading | undefined {
  if (digits.length > MAX_NUMBER_DIGITS || (digits.length > 1 && digits.startsWith('0'))) return undefined;
  if (/^0+$/u.test(digits)) return { pieces: ['ぜろ'], last: '0' };
  const pieces: string[] = [];
  let last: Last = '0';
  const groups: number[] = [];
  for (let end = digits.length; end > 0; end -= 4) groups.unshift(Number(digits.slice(Math.max(0, end - 4), end)));
  groups.forEach((group, i) => {
    const unit = groups.length - 1 - i;
    if (group === 0) return;
    const read = groupPieces(group, unit > 0);
    pieces.push(...read.pieces);
    last = read.last;
    if (unit > 0) {
      // 一兆 いっちょう, 八京 はっけい: the group's last piece shortens before ちょう and けい.
      if (unit >= 3 && ['1', '6', '8', '10', '100'].includes(read.last)) pieces.push(sokuon(pieces.pop()!));
      pieces.push(GROUP_UNITS[unit]!);
      last = 'big';
    }
  });
  return { pieces, last };
}

const digitByDigit = (digits: string): string => [...digits].map((d) => DIGITS[Number(d)]).join('');

/** `written` (digits, maybe with thousands commas and a decimal part, maybe with 万/億/兆/京 groups) read. */
function numberReading(written: string): Reading {
  const pieces: string[] = [];
  let last: Last = '0';
  for (const [, number = '', fraction, unit] of written.matchAll(/([\d,]+)(?:\.(\d+))?([京兆億万])?/gu)) {
    const digits = number.replaceAll(',', '');
    const whole = integerReading(digits);
    if (whole === undefined) {
      pieces.push(digitByDigit(digits));
      last = 'decimal';
    } else {
      pieces.push(...whole.pieces);
      last = whole.last;
    }
    if (fraction !== undefined) {
      pieces.push('てん', digitByDigit(fraction));
      last = 'decimal';
    }
    if (unit !== undefined) {
      if (whole !== undefined && fraction === undefined && digits === '1000') pieces.splice(-1, 1, 'いっせん');
      pieces.push({ 万: 'まん', 億: 'おく', 兆: 'ちょう', 京: 'けい' }[unit]!);
      last = 'big';
    }
  }
  return { pieces, last };
}

/** A counter: its reading, and how a number before it and it change (by what the number's reading ends in). */
interface Counter {
  reading: string;
  /** Endings whose last piece takes the small っ (一回 いっかい). */
  sokuon?: readonly Last[];
  /** The counter's own reading after these endings (三本 さんぼん, 一本 いっぽん). */
  after?: Partial<Record<Last, string>>;
  /** The last digit's reading when it is 4, 7 or 9 (四時 よじ, 七月 しちがつ, 九時 くじ). */
  ones?: Partial<Record<'4' | '7' | '9', string>>;
  /** Whole readings of particular numbers (一人 ひとり, 二十日 はつか). */
  whole?: Readonly<Record<number, string>>;
}

const K_SOKUON: readonly Last[] = ['1', '6', '8', '10', '100'];
const S_SOKUON: readonly Last[] = ['1', '8', '10'];
/** Counters in h (本 ほん, 匹 ひき, 杯 はい): p after the small っ, b after 三, 千 and 万. */
const hCounter = (reading: string, p: string, b: string): Counter => ({
  reading,
  sokuon: K_SOKUON,
  after: { 1: p, 6: p, 8: p, 10: p, 100: p, 3: b, 1000: b, big: b },
});
/** 分 (ふん) and 分間: p after the small っ (一分 いっぷん) and after 3, 4, 1000 (三分 さんぷん). */
const funCounter = (reading: string, p: string): Counter => ({
  reading,
  sokuon: K_SOKUON,
  after: Object.fromEntries((['1', '3', '4', '6', '8', '10', '100', '1000'] as const).map((last) => [last, p])),
});
const DAYS: Readonly<Record<number, string>> = {
  1: 'いちにち',
  2: 'ふつか',
  3: 'みっか',
  4: 'よっか',
  5: 'いつか',
  6: 'むいか',
  7: 'なのか',
  8: 'ようか',
  9: 'ここのか',
  10: 'とおか',
  14: 'じゅうよっか',
  20: 'はつか',
  24: 'にじゅうよっか',
};
const MONTHS: readonly string[] = ['ヶ月', 'か月', 'カ月', 'ケ月', 'ヵ月', '箇月'];
const COUNTERS: Readonly<Record<string, Counter>> = {
  ...Object.fromEntries(MONTHS.map((written) => [written, { reading: 'かげつ', sokuon: K_SOKUON }])),
  年間: { reading: 'ねんかん', ones: { 4: 'よ' } },
  年: { reading: 'ねん', ones: { 4: 'よ' } },
  月: { reading: 'がつ', ones: { 4: 'し', 7: 'しち', 9: 'く' } },
  日間: { reading: 'にちかん', whole: Object.fromEntries(Object.entries(DAYS).map(([n, day]) => [n, `${day}かん`])) },
  日: { reading: 'にち', whole: DAYS },
  時間: { reading: 'じかん', ones: { 4: 'よ', 9: 'く' } },
  時: { reading: 'じ', ones: { 4: 'よ', 7: 'しち', 9: 'く' } },
  分間: funCounter('ふんかん', 'ぷんかん'),
  分: funCounter('ふん', 'ぷん'),
  秒間: { reading: 'びょうかん' },
  秒: { reading: 'びょう' },
  円: { reading: 'えん', ones: { 4: 'よ' } },
  人: { reading: 'にん', ones: { 4: 'よ' }, whole: { 1: 'ひとり', 2: 'ふたり' } },
  個: { reading: 'こ', sokuon: K_SOKUON },
  回: { reading: 'かい', sokuon: K_SOKUON },
  階: { reading: 'かい', sokuon: K_SOKUON, after: { 3: 'がい' } },
  件: { reading: 'けん', sokuon: K_SOKUON },
  歳: { reading: 'さい', sokuon: S_SOKUON, whole: { 20: 'はたち' } },
  才: { reading: 'さい', sokuon: S_SOKUON, whole: { 20: 'はたち' } },
  冊: { reading: 'さつ', sokuon: S_SOKUON },
  週間: { reading: 'しゅうかん', sokuon: S_SOKUON },
  週: { reading: 'しゅう', sokuon: S_SOKUON },
  点: { reading: 'てん', sokuon: S_SOKUON },
  本: hCounter('ほん', 'ぽん', 'ぼん'),
  匹: hCounter('ひき', 'ぴき', 'びき'),
  杯: hCounter('はい', 'ぱい', 'ばい'),
  枚: { reading: 'まい' },
  台: { reading: 'だい' },
  度: { reading: 'ど' },
  番: { reading: 'ばん' },
  位: { reading: 'い' },
  倍: { reading: 'ばい' },
  '%': { reading: 'ぱーせんと' },
  つ: {
    reading: '',
    whole: {
      1: 'ひとつ',
      2: 'ふたつ',
      3: 'みっつ',
      4: 'よっつ',
      5: 'いつつ',
      6: 'むっつ',
      7: 'ななつ',
      8: 'やっつ',
      9: 'ここのつ',
      10: 'とお',
    },
  },
};
const COUNTER_PATTERN = Object.keys(COUNTERS)
  .sort((a, b) => b.length - a.length)
  .join('|');

/** `written` read with `counter` after it (`afterMonth`: a day of a date, so 1日 is ついたち). */
function withCounter(written: string, counterWritten: string | undefined, afterMonth: boolean): string {
  const number = numberReading(written);
  const counter = counterWritten === undefined ? undefined : COUNTERS[counterWritten];
  if (counter === undefined) return number.pieces.join('');
  const plain = /^\d+$/u.test(written) ? Number(written) : undefined;
  if (plain === 1 && counterWritten === '日' && afterMonth) return 'ついたち';
  const whole = plain === undefined ? undefined : counter.whole?.[plain];
  if (whole !== undefined) return whole;
  const pieces = [...number.pieces];
  const ones = counter.ones?.[number.last as '4' | '7' | '9'];
  if (ones !== undefined) pieces.splice(-1, 1, ones);
  else if (counter.sokuon?.includes(number.last)) pieces.push(sokuon(pieces.pop()!));
  return pieces.join('') + (counter.after?.[number.last] ?? counter.reading);
}

const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?`;
const READABLE = new RegExp(
  [
    String.raw`(?<year>\d{4})/(?<month>\d{1,2})/(?<day>\d{1,2})(?!\d)`,
    // A month and day (12/24): in chat far more often a date than a fraction.
    String.raw`(?<![\d/.])(?<shortMonth>1[0-2]|0?[1-9])/(?<shortDay>3[01]|[12]\d|0?[1-9])(?![\d/.])`,
    String.raw`(?<hour>\d{1,2}):(?<minute>\d{2})(?!\d)`,
    String.raw`(?<number>${NUMBER}(?:[京兆億万](?:${NUMBER})?)*)(?<counter>${COUNTER_PATTERN})?`,
  ].join('|'),
  'gu',
);

/** A piece of a Japanese run: `kana` is already its reading; `text` still goes to the analyser. */
type JapanesePiece = { kana: string } | { text: string };

/** A Japanese run with its numbers, dates and times read, the rest left for the analyser. */
export function readJapaneseNumbers(text: string): JapanesePiece[] {
  const pieces: JapanesePiece[] = [];
  let at = 0;
  let monthEnd = -1;
  for (const match of text.matchAll(READABLE)) {
    const start = match.index;
    if (start > at) pieces.push({ text: text.slice(at, start) });
    const { year, month, day, shortMonth, shortDay, hour, minute, number, counter } = match.groups!;
    const date = (m: string, d: string) =>
      withCounter(String(Number(m)), '月', false) + withCounter(String(Number(d)), '日', true);
    let kana: string;
    if (year !== undefined) kana = withCounter(year, '年', false) + date(month!, day!);
    else if (shortMonth !== undefined) kana = date(shortMonth, shortDay!);
    else if (hour !== undefined)
      kana =
        withCounter(String(Number(hour)), '時', false) +
        (minute === '00' ? '' : withCounter(String(Number(minute)), '分', false));
    else kana = withCounter(number!, counter, monthEnd === start);
    if (counter === '月') monthEnd = start + match[0].length;
    pieces.push({ kana });
    at = start + match[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
