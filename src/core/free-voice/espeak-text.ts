// What eSpeak NG is given for a line: the one place a line's text becomes eSpeak's input (espeak-worker.ts calls it
// in the worker, just before eSpeak runs). A member's text reaches eSpeak only as text: eSpeak reads `[[...]]` as
// phoneme mnemonics whatever its options (input that can make its WebAssembly trap), so square brackets are given
// as parentheses, which it reads as the same pause; SSML is read only with `-m`, which SayBot never passes, so
// `<...>` is spoken as written. Anything SayBot itself wants eSpeak to read as markup is added after this.
import type { EspeakJob } from './espeak-protocol.ts';

/** The line's text as eSpeak NG must read it in the job's voice: plain text, never phoneme input. */
export function espeakText({ text }: Pick<EspeakJob, 'text' | 'voice'>): string {
  return text.replaceAll('[', '(').replaceAll(']', ')');
}
