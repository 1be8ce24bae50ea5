// The free voice's worker thread's reading of a line (../espeak-worker.ts calls it where a job's text becomes what
// eSpeak NG is given): ./read-line.ts with the Japanese analyser, loaded in this thread on the first line that needs
// it and kept for the thread's life (its loading is the thread's setup, not the line's: `setUp`). Without the optional
// kuromoji, Japanese is read without it (kanji as eSpeak NG says them).
import { loadJapaneseAnalyser } from './japanese-analyser.ts';
import { readLine } from './read-line.ts';
import type { JapaneseAnalyser, SpokenRun } from './reading-types.ts';

let analyser: { loaded: JapaneseAnalyser | undefined } | undefined;

/** Whether this thread has loaded the analyser (its dictionary held for the thread's life). */
export function japaneseLoaded(): boolean {
  return analyser?.loaded !== undefined;
}

/**
 * What eSpeak NG speaks for `text` in its voice `espeak`: the line's runs, each in its own voice. `setUp` runs the
 * analyser's loading, when this line is the first to need it (../../audio/workers/thread-setup.ts' settingUp).
 */
export function readAloud(
  text: string,
  espeak: string,
  setUp: <T>(load: () => T) => T = (load) => load(),
): SpokenRun[] {
  return readLine(text, espeak, () => (analyser ??= { loaded: setUp(loadJapaneseAnalyser) }).loaded);
}
