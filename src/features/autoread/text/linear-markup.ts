// Masked links and underscore italics scanned by hand, linear where their former patterns (quoted) were quadratic.

/** `(<?https?://` in front of a masked link's target. */
const TARGET_START = /\(<?https?:\/\//iy;
/** What ends a target's address: a space, `)` or `>`. */
const ADDRESS_END = /[\s)>]/g;

/** `[label](https://…)` replaced by the label, as `/\[([^\]\n]+)\]\(<?https?:\/\/[^\s)>]+>?\)/gi` did. */
export function unmaskLinks(text: string): string {
  let out = '';
  let copied = 0;
  // The first end of an address at or after the last address start looked at: starts only move forward, so an
  // address that runs over several `[`…`](` (all failing) is read once, not once per `[`.
  let addressEnd = -1;
  const targetEnd = (at: number): number => {
    TARGET_START.lastIndex = at;
    if (!TARGET_START.test(text)) return -1;
    const start = TARGET_START.lastIndex;
    if (addressEnd < start) {
      ADDRESS_END.lastIndex = start;
      addressEnd = ADDRESS_END.exec(text)?.index ?? text.length;
    }
    if (addressEnd === start) return -1;
    let end = addressEnd;
    if (text[end] === '>') end += 1;
    return text[end] === ')' ? end + 1 : -1;
  };
  let open = text.indexOf('[');
  while (open !== -1) {
    // The label runs to the first `]`; every `[` before that `]` ends its label there too, so they all share the
    // outcome of this one (the leftmost), and the scan goes on after it.
    let close = open + 1;
    while (close < text.length && text[close] !== ']' && text[close] !== '\n') close += 1;
    if (close === text.length) break;
    if (text[close] === ']' && close > open + 1) {
      const end = targetEnd(close + 1);
      if (end !== -1) {
        out += text.slice(copied, open) + text.slice(open + 1, close);
        copied = end;
        open = text.indexOf('[', end);
        continue;
      }
    }
    open = text.indexOf('[', close + 1);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const NOT_SPACE = /^\S$/u;
const LINE_END = /[\n\r\u2028\u2029]/;

/** The code point that ends just before `index` ('' at the start). */
function codePointBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(pair ? index - 2 : index - 1, index);
}

/** The code point that starts at `index` ('' at the end). */
function codePointAt(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? '' : String.fromCodePoint(code);
}

/** `_italics_` unwrapped, not snake_case, as `/(?<![\p{L}\p{N}])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}])/gu` did. */
export function unwrapUnderscoreItalics(text: string): string {
  const opens = (at: number) =>
    !LETTER_OR_DIGIT.test(codePointBefore(text, at)) && NOT_SPACE.test(codePointAt(text, at + 1));
  const closes = (at: number) =>
    NOT_SPACE.test(codePointBefore(text, at)) && !LETTER_OR_DIGIT.test(codePointAt(text, at + 1));
  let out = '';
  let copied = 0;
  let open = text.indexOf('_');
  while (open !== -1) {
    if (!opens(open)) {
      open = text.indexOf('_', open + 1);
      continue;
    }
    // The closing `_` does not depend on where the italics opened, so when none is left on this line, no later
    // opening on the line finds one either: the scan goes on at the next line.
    let close = open + 1 + codePointAt(text, open + 1).length;
    while (close < text.length && !LINE_END.test(text[close] ?? '') && !(text[close] === '_' && closes(close)))
      close += 1;
    if (close === text.length) break;
    if (text[close] !== '_') {
      open = text.indexOf('_', close + 1);
      continue;
    }
    out += text.slice(copied, open) + text.slice(open + 1, close);
    copied = close + 1;
    open = text.indexOf('_', close + 1);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `text` without the characters of `set` at its end, as `text.replace(/[<set>]+$/u, '')` but in one pass. */
export function trimEndOf(text: string, set: RegExp): string {
  let end = text.length;
  while (end > 0 && set.test(codePointBefore(text, end))) end -= codePointBefore(text, end).length;
  return text.slice(0, end);
}
