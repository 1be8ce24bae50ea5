// The free voice's worker thread (free-voice-engine.ts' pools): each line read first (./reading/read-line.ts: script
// runs, numbers, Japanese to kana), then each run given to eSpeak NG (espeak-run.ts) as its espeakText makes it, plain
// text and never phoneme input, in words and clauses short enough for eSpeak NG to say whole. The Japanese analyser
// is loaded here alone, on the first line that needs it, and kept for the thread's life (its loading is the thread's
// setup, not the line's); without the optional kuromoji, Japanese is read without it (kanji as eSpeak NG says them).
import { serveEspeak } from './espeak-run.ts';
import { loadJapaneseAnalyser } from './reading/japanese-analyser.ts';
import { espeakText, readLine, type JapaneseAnalyser } from './reading/read-line.ts';
import { yieldToMainThread } from '../audio/workers/thread-priority.ts';

/** The analyser once a line needed it (`loaded` undefined: kuromoji is not installed). */
let analyser: { loaded: JapaneseAnalyser | undefined } | undefined;

yieldToMainThread();
serveEspeak(
  (job, setUp) => {
    const analysed = () => (analyser ??= { loaded: setUp(loadJapaneseAnalyser) }).loaded;
    return readLine(job.text, job.voice, analysed).map((run) => ({ ...run, text: espeakText(run.text, run.espeak) }));
  },
  () => analyser?.loaded !== undefined,
);
