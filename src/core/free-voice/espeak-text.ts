// What eSpeak NG is given for a line's run: the last step from a line's text to eSpeak's input (espeak-worker.ts
// calls it in the worker on each run ./reading/read-line.ts made, just before eSpeak runs). A member's text reaches
// eSpeak only as text: eSpeak reads `[[...]]` as phoneme mnemonics whatever its options (input that can make its
// WebAssembly trap), so square brackets are given as parentheses, which it reads as the same pause; SSML is read only
// with `-m`, which SayBot never passes, so `<...>` is spoken as written. eSpeak reads its input as a C string, so a NUL would end the line there: control
// characters are given as spaces. Anything SayBot itself wants eSpeak to read as markup is added after this.
//
// eSpeak NG also drops, unsaid, what does not fit its fixed buffers: a word's phonemes past 200 bytes
// (N_WORD_PHONEMES; some 73 kana, 50-60 Hangul syllables, 152 Latin letters: N_WORD_BYTES) and a clause's past
// 1,000 phonemes (N_PHONEME_LIST; some 200 hanzi in Chinese, 135 Hangul syllables, 36 kanji named in Japanese). Kana
// from the Japanese analyser, Korean and Chinese come without spaces, so a run-on sentence lost its end. A word
// longer than WORD_BYTES is given as words of even length, split where no character is joined to the one before;
// a clause of more than CLAUSE_WEIGHT is given as clauses, split with a comma (a short pause, as a reader takes
// one in a long sentence) at a space near its limit if there is one, else between two characters.
import { Buffer } from 'node:buffer';

/** C0 control characters but tab and line breaks, and DEL. */
// oxlint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** The most UTF-8 bytes of one word given to eSpeak NG: 30 kana or Hangul syllables, 90 Latin letters. */
export const WORD_BYTES = 90;

/**
 * The most weight of one clause given to eSpeak NG (see weightOf): 120 kana, 60 Hangul syllables or hanzi in
 * Chinese, 15 kanji in another voice (which names each kanji). Half or less of what its 1,000 phonemes hold.
 */
export const CLAUSE_WEIGHT = 120;

/** What ends a clause for eSpeak NG: its punctuation (ASCII's before a space only, as in 3.5), line breaks. */
const CLAUSE_END = /[\n。、，．！？；：…]/u;
const ASCII_CLAUSE_END = /[.,!?;:]/u;

/**
 * Characters joined to the one before: a break there would part them (combining marks and dakuten, the long-vowel
 * mark, small kana, emoji modifiers and variation selectors, tag characters).
 */
const JOINED =
  /[\p{M}\p{Emoji_Modifier}\u309b\u309c\u30fc\uff70\u301c\u3041\u3043\u3045\u3047\u3049\u3063\u3083\u3085\u3087\u308e\u3095\u3096\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7\u30ee\u30f5\u30f6\u31f0-\u31ff\uff67-\uff6f\u{e0020}-\u{e007f}]/u;
/** Joiners (and the non-joiner, which also belongs with its neighbours): no break on either side. */
const JOINER = /^(?:\u200c|\u200d|\u2060)$/u;
/** The small tsu doubles the consonant after it: no break after it either. */
const SOKUON = /[\u3063\u30c3\uff6f]/u;
const REGIONAL_INDICATOR = /[\u{1f1e6}-\u{1f1ff}]/u;

/** Whether a break may come between `before` and `after` (a whole character each). */
function breakable(before: string, after: string): boolean {
  if (JOINED.test(after) || JOINER.test(after) || JOINER.test(before) || SOKUON.test(before)) return false;
  return !(REGIONAL_INDICATOR.test(before) && REGIONAL_INDICATOR.test(after));
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const HANGUL = /\p{Script=Hangul}/u;

/** A character's share of a clause's phonemes, by its script and the voice (`espeak`, `cmn+f2`) saying it. */
function weightOf(char: string, espeak: string): number {
  if (KANA.test(char)) return 1;
  if (HANGUL.test(char)) return 2;
  if (HAN.test(char)) return espeak.startsWith('cmn') ? 2 : 8;
  // Other scripts' clauses fit: eSpeak NG ends a clause near 800 bytes of text, fewer phonemes than 1,000.
  return 0;
}

/** `word` (no spaces nor hanzi) as words of at most about WORD_BYTES, of even length, split only where breakable. */
function splitWord(word: string): string {
  const total = Buffer.byteLength(word);
  if (total <= WORD_BYTES) return word;
  const length = total / Math.ceil(total / WORD_BYTES);
  const chars = [...word];
  let out = chars[0]!;
  let bytes = Buffer.byteLength(out);
  let next = length;
  for (let i = 1; i < chars.length; i++) {
    const char = chars[i]!;
    const size = Buffer.byteLength(char);
    // A break before the character whose middle passes the next even boundary (or the first breakable after it).
    if (bytes + size / 2 > next && breakable(chars[i - 1]!, char)) {
      out += ' ';
      next = Math.max(next, bytes) + length;
    }
    out += char;
    bytes += size;
  }
  return out;
}

/** `text` with a comma wherever a clause would weigh more than CLAUSE_WEIGHT: at its last space, if not too early. */
function splitClauses(text: string, espeak: string): string {
  const chars = [...text];
  const out: string[] = [];
  let weight = 0;
  /** The clause's last space: its index in `out` and the weight before it. */
  let space: { at: number; weight: number } | undefined;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const charWeight = weightOf(char, espeak);
    if (weight + charWeight > CLAUSE_WEIGHT) {
      if (space !== undefined && space.weight >= CLAUSE_WEIGHT / 3) {
        out[space.at] = `,${out[space.at]!}`;
        weight -= space.weight;
        space = undefined;
      } else if (i > 0 && breakable(chars[i - 1]!, char)) {
        out.push(', ');
        weight = 0;
        space = undefined;
      }
    }
    out.push(char);
    weight += charWeight;
    const next = chars[i + 1];
    if (CLAUSE_END.test(char) || (ASCII_CLAUSE_END.test(char) && (next === undefined || /\s/u.test(next)))) {
      weight = 0;
      space = undefined;
    } else if (/\s/u.test(char)) space = { at: out.length - 1, weight };
  }
  return out.join('');
}

/**
 * `text` in words and clauses eSpeak NG says whole in its voice `espeak` (`ja+f2`): the text itself when they are
 * short enough (src/core/sourcing/part-source.ts keeps a line's cached audio then, ./reading/read-line.ts'
 * readingChanges).
 */
export function withinEspeakLimits(text: string, espeak: string): string {
  return (
    splitClauses(text, espeak)
      .split(/(\s+)/u)
      // eSpeak NG makes each hanzi or kanji a word of its own: only the stretches between them are words.
      .map((part) =>
        /^\s*$/u.test(part)
          ? part
          : part
              .split(/(\p{Script=Han})/u)
              .map(splitWord)
              .join(''),
      )
      .join('')
  );
}

/**
 * A run's text as eSpeak NG must read it: plain text, never phoneme input, in words and clauses it says whole.
 * `espeak` is the voice saying it (`ja+f2`).
 */
export function espeakText(text: string, espeak = ''): string {
  return withinEspeakLimits(text.replaceAll('[', '(').replaceAll(']', ')').replace(CONTROL, ' '), espeak);
}
