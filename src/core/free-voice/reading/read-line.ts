// A line as the free voice reads it (src/core/free-voice/): full-width forms folded, chat forms spelled, split into
// runs by script, each run's numbers, dates and symbols read in its language, Japanese through the morphological
// analyser to kana, and each run given to the free voice of its language and of the line's voice's gender (Latin
// words in a Japanese line to the English voice). Pure and linear in the line but for the analyser, which is given
// (loaded only in the worker threads: ./read-aloud.ts).
import { ESPEAK_VOICES, espeakVoice, type EspeakVoice } from '../../voice-catalogue/voices.ts';
import { withinEspeakLimits } from '../espeak-text.ts';
import { readChatForms } from './chat-forms.ts';
import { readChineseNumbers } from './chinese-numbers.ts';
import { foldWidths } from './fold.ts';
import { readJapaneseNumbers } from './japanese-numbers.ts';
import { readKoreanNumbers } from './korean-numbers.ts';
import { scriptRuns, type ScriptRun } from './script-runs.ts';
import type { JapaneseAnalyser, SpokenRun } from './reading-types.ts';
import { readRanges, readSymbols } from './symbols.ts';

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
