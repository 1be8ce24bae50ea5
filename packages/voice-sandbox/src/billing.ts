/**
 * How the service counts a request's characters, as its document says ("Providers count Unicode code points,
 * whitespace and punctuation included ... [...text.normalize('NFC')].length"). Written here from the document and
 * not shared with the bot's own count (src/core/characters.ts), so that a mistake in the bot's counting shows
 * up as a difference between what the bot recorded and what the sandbox billed.
 */
export function billableCharacters(text: string): number {
  return [...text.normalize('NFC')].length;
}
