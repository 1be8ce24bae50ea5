// What eSpeak NG is given for a line's run: the last step from a line's text to eSpeak's input (espeak-worker.ts
// calls it in the worker on each run ./reading/read-aloud.ts made, just before eSpeak runs). A member's text reaches eSpeak only as text: eSpeak reads `[[...]]` as
// phoneme mnemonics whatever its options (input that can make its WebAssembly trap), so square brackets are given
// as parentheses, which it reads as the same pause; SSML is read only with `-m`, which SayBot never passes, so
// `<...>` is spoken as written. Anything SayBot itself wants eSpeak to read as markup is added after this.
/** A run's text as eSpeak NG must read it: plain text, never phoneme input. */
export function espeakText(text: string): string {
  return text.replaceAll('[', '(').replaceAll(']', ')');
}
