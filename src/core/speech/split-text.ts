import { countCharacters } from '../characters.ts';

export { countCharacters } from '../characters.ts';

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Splits text into parts of at most `maxChars` code points, at sentence boundaries where possible, so that
 * each part is one request and the parts play in order. A sentence longer than the cap is cut between words,
 * and a word longer than the cap (rare: URLs, unspaced scripts) between code points. No character is lost
 * or added other than the whitespace trimmed at the cuts.
 */
export function splitText(text: string, maxChars: number): string[] {
  if (maxChars < 1) throw new RangeError('maxChars must be at least 1');
  const normalised = text.normalize('NFC').trim();
  if (normalised === '') return [];
  if (countCharacters(normalised) <= maxChars) return [normalised];

  const parts: string[] = [];
  let current = '';
  const flush = () => {
    const trimmed = current.trim();
    if (trimmed !== '') parts.push(trimmed);
    current = '';
  };
  const add = (piece: string, fallback: (piece: string) => string[]) => {
    if (countCharacters((current + piece).trimEnd()) <= maxChars) {
      current += piece;
      return;
    }
    flush();
    if (countCharacters(piece.trim()) <= maxChars) {
      current = piece.trimStart();
      return;
    }
    for (const smaller of fallback(piece)) add(smaller, hardSplit(maxChars));
  };

  for (const { segment } of sentences.segment(normalised)) {
    add(segment, (sentence) => Array.from(words.segment(sentence), (w) => w.segment));
  }
  flush();
  return parts;
}

function hardSplit(maxChars: number): (piece: string) => string[] {
  return (piece) => {
    const codePoints = [...piece];
    const out: string[] = [];
    for (let i = 0; i < codePoints.length; i += maxChars) out.push(codePoints.slice(i, i + maxChars).join(''));
    return out;
  };
}
