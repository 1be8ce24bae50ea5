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

type Script = 'kana' | 'han' | 'hangul' | 'latin' | 'none';

function scriptOf(char: string): Script {
  if (KANA.test(char)) return 'kana';
  if (HAN.test(char)) return 'han';
  if (HANGUL.test(char)) return 'hangul';
  if (LATIN.test(char)) return 'latin';
  return 'none';
}

/** `line` in runs for a free voice of `language`, none empty, at most MAX_RUNS. */
export function scriptRuns(line: string, language: string): ScriptRun[] {
  const hanLanguage = language === 'ja' || KANA.test(line) ? 'ja' : 'zh';
  const languageOf = (script: Exclude<Script, 'none'>): string => {
    if (script === 'kana') return 'ja';
    if (script === 'han') return hanLanguage;
    if (script === 'hangul') return 'ko';
    return CJK.has(language) ? 'en' : language;
  };
  // Runs of one script's language, with the script-less stretches between them kept apart for now.
  const pieces: { language: string | undefined; text: string }[] = [];
  for (const char of line) {
    const script = scriptOf(char);
    const pieceLanguage = script === 'none' ? undefined : languageOf(script);
    const last = pieces.at(-1);
    if (last !== undefined && last.language === pieceLanguage) last.text += char;
    else pieces.push({ language: pieceLanguage, text: char });
  }
  const runs: ScriptRun[] = [];
  const push = (runLanguage: string, text: string) => {
    const last = runs.at(-1);
    if (last !== undefined && last.language === runLanguage) last.text += text;
    else runs.push({ language: runLanguage, text });
  };
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.language !== undefined) {
      push(piece.language, piece.text);
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
    push(chosen, piece.text);
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
