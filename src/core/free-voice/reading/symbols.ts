// The common symbols in a run of Chinese, Japanese or Korean said in that language: eSpeak NG's voices for them say
// & + = @ in English ("ampersand") or not at all, and a range 10~20 as nothing. Linear in the text.

const WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ja: { '&': 'アンド', '+': 'プラス', '=': 'イコール', '@': 'アット', '%': 'パーセント' },
  ko: { '&': '앤드', '+': '플러스', '=': '이퀄', '@': '골뱅이' },
  zh: { '&': '和', '+': '加', '=': '等于', '@': '艾特' },
};
/** "From ... to" between two numbers, in each language. */
const RANGE: Readonly<Record<string, string>> = { ja: 'から', ko: '에서 ', zh: '到' };

/** `text` (a run in `language`) with a range between two numbers said as one (before the numbers are read). */
export function readRanges(text: string, language: string): string {
  const range = RANGE[language];
  return range === undefined ? text : text.replace(/(?<=\d)\s*[~〜～]\s*(?=\d)/gu, range);
}

/** `text` (a run in `language`, its numbers read) with its common symbols in words; other languages' unchanged. */
export function readSymbols(text: string, language: string): string {
  const words = WORDS[language];
  return words === undefined ? text : text.replace(/[&+=@%]/gu, (symbol) => words[symbol] ?? symbol);
}
