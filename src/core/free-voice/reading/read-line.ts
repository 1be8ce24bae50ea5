// A line as the free voice reads it (src/core/free-voice/): full-width forms folded, chat forms spelled, split into
// runs by script (scriptRuns: at most MAX_RUNS, each one call of eSpeak NG), each run's numbers, dates and symbols
// read in its language, Japanese through the morphological analyser to kana, and each run given to the free voice of
// its language and of the line's voice's gender (Latin words in a Japanese line to the English voice), then made
// eSpeak NG's input (espeakText, below). Pure and linear but for the analyser, given (loaded in the worker alone).
import { Buffer } from 'node:buffer';
import { ESPEAK_VOICES, espeakVoice, type EspeakVoice } from '../../voice-catalogue/voices.ts';
import { readChatForms } from './chat-forms.ts';
import { readChineseNumbers } from './chinese-numbers.ts';
import { foldWidths } from './fold.ts';
import { readJapaneseNumbers } from './japanese-numbers.ts';
import { readKoreanNumbers } from './korean-numbers.ts';
import { readRanges, readSymbols } from './symbols.ts';

/** One call of eSpeak NG: `text` spoken in `espeak` (a voice and variant, `ja+f2`). */
export interface SpokenRun {
  readonly text: string;
  readonly espeak: string;
}

/** Japanese text read as kana (katakana as pronounced: 今日は -> キョーワ), punctuation and unknown words kept. */
export interface JapaneseAnalyser {
  toKana(text: string): string;
}

/** Japanese text the analyser reads (kanji or kana: kana too, as particles and long vowels are said: は わ, きょう きょー). */
const NEEDS_ANALYSER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The free voice whose eSpeak NG voice is `espeak`. */
const BY_ESPEAK = new Map(ESPEAK_VOICES.map((free) => [free.espeak, free]));

/** The free voice reading `language` in `line`'s gender (the line's own if none speaks it). */
function voiceOf(language: string, line: EspeakVoice): EspeakVoice {
  return espeakVoice(`free-${language}-${line.id.slice(-1)}`) ?? line;
}

/** A run's text with its numbers, ranges and symbols read; a Japanese run's kanji and kana through `analyser`. */
function readRun(run: ScriptRun, analyser: () => JapaneseAnalyser | undefined): string {
  const text = readRanges(run.text, run.language);
  if (run.language === 'ko') return readSymbols(readKoreanNumbers(text), 'ko');
  if (run.language === 'zh') return readSymbols(readChineseNumbers(text), 'zh');
  if (run.language !== 'ja') return text;
  return readJapaneseNumbers(text)
    .map((piece) => {
      if ('kana' in piece) return piece.kana;
      const written = readSymbols(piece.text, 'ja');
      return NEEDS_ANALYSER.test(written) ? (analyser()?.toKana(written) ?? written) : written;
    })
    .join('');
}

/** The runs of `line` before each run's words are read (folded, chat forms spelled), for a voice of `language`. */
function runsOf(line: string, language: string): ScriptRun[] {
  return scriptRuns(readChatForms(foldWidths(line), language), language);
}

/**
 * What eSpeak NG is given for `line` in the free voice whose eSpeak NG voice is `espeak`: one or more runs. The
 * analyser is asked for only when a Japanese run has kanji or kana (it is loaded on that first call).
 */
export function readLine(line: string, espeak: string, analyser: () => JapaneseAnalyser | undefined): SpokenRun[] {
  const voice = BY_ESPEAK.get(espeak);
  const runs = voice === undefined ? [] : runsOf(line, voice.language);
  if (voice === undefined || runs.length === 0) return [{ text: line, espeak }];
  return runs.map((run) => ({
    text: readRun(run, analyser),
    espeak: voiceOf(run.language, voice).espeak,
  }));
}

/**
 * Whether the free voice `voiceId` says `line` otherwise than eSpeak NG read it whole before lines were read
 * (the cache keeps the audio of the other lines, whose words heard are the same). Linear, no analyser: a Japanese
 * run with kanji or kana counts as changed, and so does a run given to eSpeak NG in shorter words or clauses (it
 * dropped their end before).
 */
export function readingChanges(line: string, voiceId: string): boolean {
  const voice = espeakVoice(voiceId);
  if (voice === undefined) return false;
  const runs = runsOf(line, voice.language);
  if (runs.length !== 1) return true;
  const run = runs[0]!;
  if (run.language !== voice.language) return true;
  if (run.language === 'ja' && NEEDS_ANALYSER.test(run.text)) return true;
  const read = readRun(run, () => undefined);
  return read !== line || withinEspeakLimits(read, voiceOf(run.language, voice).espeak) !== read;
}

/** A stretch of a line and the language (ISO 639-1) of the free voice that reads it. */
export interface ScriptRun {
  language: string;
  text: string;
}

/**
 * The most runs a line is spoken in: each is one more start of eSpeak NG. Past it, the rest of the line is one run
 * in the line's own voice (read as before runs existed), so a line alternating scripts costs no more than this.
 */
export const MAX_RUNS = 8;

/** The languages whose free voices cannot read Latin words (they spell them), so English reads those. */
const CJK = new Set(['ja', 'ko', 'zh']);

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005\u3006]/u;
const HAN = /\p{Script=Han}/u;
const HANGUL = /\p{Script=Hangul}/u;
const LATIN = /\p{Script=Latin}/u;

/** `text` added to the last of `runs` when it is of `language`, else a run of its own. */
function append<L>(runs: { language: L; text: string }[], language: L, text: string): void {
  const last = runs.at(-1);
  if (last !== undefined && last.language === language) last.text += text;
  else runs.push({ language, text });
}

/** `line` in runs for a free voice of `language`, none empty, at most MAX_RUNS. */
export function scriptRuns(line: string, language: string): ScriptRun[] {
  const hanLanguage = language === 'ja' || KANA.test(line) ? 'ja' : 'zh';
  /** The language of a character's script; undefined: it has none. */
  const languageOf = (char: string): string | undefined => {
    if (KANA.test(char)) return 'ja';
    if (HAN.test(char)) return hanLanguage;
    if (HANGUL.test(char)) return 'ko';
    if (LATIN.test(char)) return CJK.has(language) ? 'en' : language;
    return undefined;
  };
  // Runs of one script's language, with the script-less stretches between them kept apart for now.
  const pieces: { language: string | undefined; text: string }[] = [];
  for (const char of line) append(pieces, languageOf(char), char);
  const runs: ScriptRun[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.language !== undefined) {
      append(runs, piece.language, piece.text);
      continue;
    }
    // Between two runs: the same language on both sides joins them; else the line's own language if it is one of
    // them (a number between an English word and a Japanese counter is read in Japanese), else the one before.
    const before = runs.at(-1)?.language;
    const after = pieces[i + 1]?.language;
    const chosen =
      before === undefined
        ? (after ?? language)
        : after === undefined || after === before
          ? before
          : after === language
            ? after
            : before;
    append(runs, chosen, piece.text);
  }
  if (runs.length <= MAX_RUNS) return runs;
  const kept = runs.slice(0, MAX_RUNS - 1);
  kept.push({
    language,
    text: runs
      .slice(MAX_RUNS - 1)
      .map((run) => run.text)
      .join(''),
  });
  return kept;
}

// espeakText, just before eSpeak runs (../espeak-worker.ts). A member's text reaches eSpeak only as text: eSpeak
// reads `[[...]]` as phoneme mnemonics whatever its options (input that can make its WebAssembly trap), so square
// brackets are given as parentheses, which it reads as the same pause; SSML is read only with `-m`, which SayBot
// never passes, so `<...>` is spoken as written. eSpeak reads its input as a C string, so a NUL would end the line
// there: control characters are given as spaces. Anything SayBot itself wants eSpeak to read as markup comes after.
//
// eSpeak NG also drops, unsaid, what does not fit its fixed buffers: a word's phonemes past 200 bytes
// (N_WORD_PHONEMES; some 73 kana, 50-60 Hangul syllables, 152 Latin letters: N_WORD_BYTES) and a clause's past
// 1,000 phonemes (N_PHONEME_LIST; some 200 hanzi in Chinese, 135 Hangul syllables, 36 kanji named in Japanese). Kana
// from the Japanese analyser, Korean and Chinese come without spaces, so a run-on sentence lost its end. A word
// longer than WORD_BYTES is given as words of even length, split where no character is joined to the one before;
// a clause of more than CLAUSE_WEIGHT is given as clauses, split with a comma (a short pause, as a reader takes
// one in a long sentence) at a space near its limit if there is one, else between two characters.
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

/** Kana letters alone: the long-vowel mark weighs nothing in a clause. */
const KANA_SCRIPT = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** A character's share of a clause's phonemes, by its script and the voice (`espeak`, `cmn+f2`) saying it. */
function weightOf(char: string, espeak: string): number {
  if (KANA_SCRIPT.test(char)) return 1;
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
 * short enough (src/core/sourcing/part-source.ts keeps a line's cached audio then, readingChanges).
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
