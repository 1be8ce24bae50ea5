// eSpeak NG as the free voice runs it, but given a job's text as it is, unread and unescaped: how a test makes its
// WebAssembly trap, to check that the trap is charged to that job alone (src/core/free-voice/espeak-run.ts).
import { serveEspeak } from '../../src/core/free-voice/espeak-run.ts';

serveEspeak(
  (job) => [{ text: job.text, espeak: job.voice }],
  () => false,
);
