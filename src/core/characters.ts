// Characters as the Voice API bills them: Unicode code points after NFC normalisation. Every count SayBot shows,
// caps, holds or charges is this one (a quote, a budget, the month, a command's text cap, a scene's cap): text as
// written may be fewer code points than the service bills (U+FB2C is one as written, three after NFC) or more.

/** Characters as the Voice API counts them: Unicode code points after NFC normalisation. */
export function countCharacters(text: string): number {
  let n = 0;
  for (const _ of text.normalize('NFC')) n++;
  return n;
}

/**
 * Whether `text` is over `max` characters (countCharacters' unit), without normalising more than the cap needs: a
 * script or a message may be far over. NFC makes at most four UTF-16 units into one code point (a base and its
 * mark outside the BMP, two units each, compose into one), so a text of more than 4 × (max + 1) units is over.
 */
export function moreCharactersThan(text: string, max: number): boolean {
  return text.length > 4 * (max + 1) || countCharacters(text) > max;
}
