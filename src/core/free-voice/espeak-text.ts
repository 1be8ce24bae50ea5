// What eSpeak NG is given for a line's run: the last step from a line's text to eSpeak's input (espeak-worker.ts
// calls it in the worker on each run ./reading/read-aloud.ts made, just before eSpeak runs). A member's text reaches eSpeak only as text: eSpeak reads `[[...]]` as
// phoneme mnemonics whatever its options (input that can make its WebAssembly trap), so square brackets are given
// as parentheses, which it reads as the same pause; SSML is read only with `-m`, which SayBot never passes, so
// `<...>` is spoken as written. eSpeak reads its input as a C string, so a NUL would end the line there: control
// characters are given as spaces. Anything SayBot itself wants eSpeak to read as markup is added after this.
/** C0 control characters but tab and line breaks, and DEL. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A run's text as eSpeak NG must read it: plain text, never phoneme input. */
export function espeakText(text: string): string {
  return text.replaceAll('[', '(').replaceAll(']', ')').replace(CONTROL, ' ');
}
