// Full-width forms folded to the width they are usually written in, before a line is split by script: full-width
// Latin letters, digits and ASCII symbols (`ｗｗｗ`, `１２３`, `ＡＢＣ`) to ASCII, the ideographic space to a space,
// half-width katakana (`ｶﾀｶﾅ`, its sound marks joined) to full width. Not NFKC as a whole: that would also turn
// Hangul compatibility letters (`ㅋㅋ`, read as chat laughter) into conjoining jamo eSpeak NG does not read, and
// circled or squared signs into words the member did not write.

const FULL_WIDTH_FIRST = 0xff01; // ！
const FULL_WIDTH_LAST = 0xff5e; // ～
const FULL_TO_ASCII = 0xff01 - 0x21;
const HALF_KATAKANA = /[\uff61-\uff9f]+/gu;

/** `text` with full-width ASCII forms and the ideographic space narrowed, half-width katakana widened. */
export function foldWidths(text: string): string {
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp >= FULL_WIDTH_FIRST && cp <= FULL_WIDTH_LAST) out += String.fromCharCode(cp - FULL_TO_ASCII);
    else if (cp === 0x3000) out += ' ';
    else out += char;
  }
  // NFKC on half-width katakana alone: each to its full-width letter, a following (half-width) sound mark joined.
  return out.replace(HALF_KATAKANA, (kana) => kana.normalize('NFKC'));
}
