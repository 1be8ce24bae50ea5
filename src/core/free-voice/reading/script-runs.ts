// A line split into runs by script, each with the language whose free voice reads it: kana (and kanji beside kana,
// or in a Japanese voice's line) Japanese, Hangul Korean, other Han Chinese, Latin words English in a Chinese,
// Japanese or Korean line (the line's own language otherwise). Digits, spaces, punctuation and symbols belong to no
// script: they join the runs around them (a number before a counter is read in the counter's language). One pass,
// linear in the line; at most MAX_RUNS runs, each spoken as one call of eSpeak NG.

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
