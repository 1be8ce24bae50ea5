// What a service or a gateway in front of it says back may quote the request: a validation message naming the text
// it refused, a proxy's error page repeating the body. Those words are a member's, and an error's message goes to
// the log, which holds none; so every word of the request is taken out of what comes back before it is kept.

/** Words shorter than this are left: common words say nothing of a member's message, and taking them out would. */
const MIN_WORD = 4;

/** Stands where the request's words were. */
export const ECHO = '…';

/**
 * `message` without any word of `said` (the request's text, its tone) of MIN_WORD code points or more, nor any of
 * them whole (a text in a script written without spaces is one run). Bounded: `message` is capped by its reader, and
 * each word is looked for once.
 */
export function withoutEchoes(message: string, said: readonly string[]): string {
  const words = new Set<string>();
  for (const whole of said) {
    const trimmed = whole.trim();
    if ([...trimmed].length >= MIN_WORD) words.add(trimmed);
    for (const word of trimmed.split(/[\s\p{P}\p{S}]+/u)) if ([...word].length >= MIN_WORD) words.add(word);
  }
  let out = message;
  // Longest first: a whole text goes as one, not as the words left around a shorter one taken out of it.
  for (const word of [...words].sort((a, b) => b.length - a.length))
    if (out.includes(word)) out = out.split(word).join(ECHO);
  return out;
}
