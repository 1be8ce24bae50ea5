// Chat forms read as their readers say them, before a line is split by script: `w` runs after Japanese (`草www`,
// `それなｗ`, laughter: わら), and Hangul letter runs (`ㅋㅋㅋ` 크크크, `ㅎㅎ` 흐흐). 草 needs nothing here: the
// analyser reads it くさ, as chat does. A server's dictionary is applied to auto-read's text before it reaches the
// free voice (src/features/autoread/dictionary/dictionary.ts), so a server that wants another reading of `w` or 草
// writes an entry and it wins. Linear in the line.

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
/** A run of w after Japanese, punctuation, a space or the line's start, and not part of a Latin word. */
const LAUGHTER =
  /(?<=^|[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}ー。、！？!?…\s)）」])[wW]+(?![\p{Script=Latin}\d])/gu;
const HANGUL_LAUGHTER = /ㅋ{2,}|ㅎ{2,}/gu;

/** `line` (widths folded) with its chat forms spelled as they are read, for a free voice of `language`. */
export function readChatForms(line: string, language: string): string {
  let read = line;
  if (language === 'ja' || JAPANESE.test(line))
    read = read.replace(LAUGHTER, (run) => (run.length >= 3 ? 'わらわら' : 'わら'));
  return read.replace(HANGUL_LAUGHTER, (run) => (run[0] === 'ㅋ' ? '크' : '흐').repeat(Math.min(3, run.length)));
}
