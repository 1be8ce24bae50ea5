// The free voice's worker thread (free-voice-engine.ts' pool): eSpeak NG (espeak-run.ts) given each line's text as
// espeak-text.ts makes it, plain text and never phoneme input.
import { serveEspeak } from './espeak-run.ts';
import { espeakText } from './espeak-text.ts';
import { yieldToMainThread } from '../audio/workers/thread-priority.ts';

yieldToMainThread();
serveEspeak(espeakText);
