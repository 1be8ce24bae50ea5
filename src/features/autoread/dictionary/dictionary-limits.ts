// How much a dictionary may hold and how much it may lengthen a text: the bounds dictionary.ts checks and applies,
// and /dictionary and the dashboard show.
import { MAX_LENGTH_RANGE } from '../setting-declarations.ts';

/** Words and patterns together; of them at most MAX_PATTERNS patterns (each is one more pass over the text). */
export const MAX_ENTRIES = 500;
export const MAX_PATTERNS = 20;
export const MAX_WORD_LENGTH = 50;
export const MAX_PATTERN_LENGTH = 200;
export const MAX_READING_LENGTH = 100;
/** Growth at most this factor plus GROWTH_ALLOWANCE, within MAX_RESULT_LENGTH: no entry multiplies a message's cost. */
export const MAX_GROWTH_FACTOR = 2;
export const GROWTH_ALLOWANCE = 20;
/** Auto-read's longest message: no dictionary makes a text longer than that. */
export const MAX_RESULT_LENGTH = MAX_LENGTH_RANGE.max;
/** Matches one pattern replaces in one text (RE2 costs about 2 µs a match); further ones are left as written. */
export const MAX_PATTERN_MATCHES = 100;
/** Replacements in one text over every entry (words and patterns); any further matches are left as written. */
export const MAX_REPLACEMENTS = 500;

/** The most code points the dictionary leaves of a text `length` code points long. */
export function resultLimit(length: number): number {
  return Math.max(length, Math.min(MAX_GROWTH_FACTOR * length + GROWTH_ALLOWANCE, MAX_RESULT_LENGTH));
}
