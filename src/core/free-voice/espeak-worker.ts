// The free voice's worker thread (free-voice-engine.ts' pools): each line read first (./reading/read-aloud.ts: script
// runs, numbers, Japanese to kana), then each run given to eSpeak NG (espeak-run.ts) as espeak-text.ts makes it, plain
// text and never phoneme input, in words and clauses short enough for eSpeak NG to say whole.
import { serveEspeak } from './espeak-run.ts';
import { espeakText } from './espeak-text.ts';
import { japaneseLoaded, readAloud } from './reading/read-aloud.ts';
import { yieldToMainThread } from '../audio/workers/thread-priority.ts';

yieldToMainThread();
serveEspeak(
  (job, setUp) =>
    readAloud(job.text, job.voice, setUp).map((run) => ({ ...run, text: espeakText(run.text, run.espeak) })),
  japaneseLoaded,
);
