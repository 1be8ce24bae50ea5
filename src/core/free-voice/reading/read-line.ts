// A line as the free voice reads it (src/core/free-voice/): full-width forms folded, chat forms spelled, split into
// runs by script (scriptRuns: at most MAX_RUNS, each one call of eSpeak NG), each run's numbers, dates and symbols
// read in its language, Japanese through the morphological analyser to kana, and each run given to the free voice of
// its language and of the line's voice's gender (Latin words in a Japanese line to the English voice). Pure and
// linear in the line but for the analyser, which is given (loaded only in the worker thread: ../espeak-worker.ts).
import { ESPEAK_VOICES, espeakVoice, type EspeakVoice } from '../../voice-catalogue/voices.ts';
import { withinEspeakLimits } from '../espeak-text.ts';
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
