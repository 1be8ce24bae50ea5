// A dictionary pattern and its reading, compiled: RE2 (re2js, a JavaScript port of Google's RE2) finds the matches
// in time linear in the text, whatever the pattern, since it never backtracks; what it cannot promise that for
// (back-references, look-around) it does not accept. The reading is parsed once here, so a reading that names a
// group the pattern lacks is refused when the entry is added, not found out on a member's message.
import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/**
 * RE2's measure of a compiled pattern's cost (its program's instructions). The time per character grows with it;
 * 1,000 passes every pattern a person writes (`(\d{1,3},)*\d{1,3}` is 20, 200 characters of alternatives about
 * 400) and refuses repetition stacked to blow up (`((a{10}){10}){10}` is 1,222).
 */
export const MAX_PROGRAM_SIZE = 1000;

/** What RE2 said, as a stable code (localised replies); `part` is the piece of the pattern it is about. */
export type SyntaxCode =
  | 'backReference'
  | 'lookAround'
  | 'missingBracket'
  | 'missingParen'
  | 'unexpectedParen'
  | 'trailingBackslash'
  | 'badEscape'
  | 'badGroupName'
  | 'badRepetition'
  | 'badRepeatCount'
  | 'badRange'
  | 'unsupported'
  | 'tooComplex'
  | 'other';

export type PatternProblem =
  { code: 'syntax'; syntax: SyntaxCode; part: string } | { code: 'unknownGroup'; group: string };

export interface PatternMatch {
  start: number;
  end: number;
  reading: string;
}

export interface CompiledPattern {
  /** The matches in `text`, left to right, each with its reading (groups put in). */
  matches(text: string): Iterable<PatternMatch>;
  /** The longest reading of a match `matchLength` code points long (every group it puts in as long as the match). */
  longestReading(matchLength: number): number;
  /** It matches the empty text (so between every two characters of a text). */
  matchesEmpty: boolean;
}

/** A piece of a reading: text as written, or a group's match (number, or name). */
type Piece = { text: string } | { group: number | string };

// RE2's error descriptions (re2js' Parser.ERR_*), by the code a member reads.
const SYNTAX_CODES: Record<string, SyntaxCode> = {
  'missing closing ]': 'missingBracket',
  'missing closing )': 'missingParen',
  'unexpected )': 'unexpectedParen',
  'trailing backslash at end of expression': 'trailingBackslash',
  'invalid escape sequence': 'badEscape',
  'invalid named capture': 'badGroupName',
  'duplicate capture group name': 'badGroupName',
  'invalid nested repetition operator': 'badRepetition',
  'missing argument to repetition operator': 'badRepetition',
  'invalid repeat count': 'badRepeatCount',
  'invalid character class range': 'badRange',
  'invalid character class': 'badRange',
  'invalid or unsupported Perl syntax': 'unsupported',
  'expression too large': 'tooComplex',
  'expression nests too deeply': 'tooComplex',
};

function syntaxProblem(error: RE2JSSyntaxException): PatternProblem {
  const part = error.getPattern() ?? '';
  let syntax = SYNTAX_CODES[error.getDescription()] ?? 'other';
  // The two things people bring from other engines, named as what they are.
  if (syntax === 'badEscape' && /^\\[1-9]/.test(part)) syntax = 'backReference';
  if ((syntax === 'unsupported' || syntax === 'badGroupName') && /^\(\?<?[=!]/.test(part)) syntax = 'lookAround';
  return { code: 'syntax', syntax, part: part.slice(0, 40) };
}

/**
 * The reading as pieces: `$1`…`$99` (two digits when the pattern has that many groups, as JavaScript reads them),
 * `$<name>`, `$&` (the whole match), `$$` (a dollar); any other `$` is itself. A group the pattern lacks is refused.
 */
function parseReading(
  reading: string,
  groups: number,
  names: Readonly<Record<string, number>>,
): Piece[] | PatternProblem {
  const pieces: Piece[] = [];
  let literal = '';
  const push = (piece: Piece) => {
    if (literal !== '') pieces.push({ text: literal });
    literal = '';
    pieces.push(piece);
  };
  for (let i = 0; i < reading.length; i++) {
    const char = reading[i];
    const next = reading[i + 1] ?? '';
    if (char !== '$' || next === '') {
      literal += char;
      continue;
    }
    if (next === '$') {
      literal += '$';
      i += 1;
    } else if (next === '&') {
      push({ group: 0 });
      i += 1;
    } else if (next === '<') {
      const close = reading.indexOf('>', i + 2);
      const name = close === -1 ? '' : reading.slice(i + 2, close);
      if (name === '') {
        literal += char;
        continue;
      }
      if (names[name] === undefined) return { code: 'unknownGroup', group: `$<${name}>` };
      push({ group: name });
      i = close;
    } else if (/[0-9]/.test(next)) {
      const two = reading.slice(i + 1, i + 3);
      const number = /^[0-9]{2}$/.test(two) && Number(two) <= groups && Number(two) >= 10 ? Number(two) : Number(next);
      if (number === 0 || number > groups) return { code: 'unknownGroup', group: `$${next}` };
      push({ group: number });
      i += String(number).length;
    } else {
      literal += char;
    }
  }
  if (literal !== '') pieces.push({ text: literal });
  return pieces;
}

/** The pattern compiled with its reading, or what is wrong with either. Never throws. */
export function compilePattern(
  pattern: string,
  reading: string,
): { ok: true; value: CompiledPattern } | { ok: false; problem: PatternProblem } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) return { ok: false, problem: syntaxProblem(error) };
    if (error instanceof RE2JSException)
      return { ok: false, problem: { code: 'syntax', syntax: 'other', part: error.message.slice(0, 40) } };
    throw error;
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE)
    return { ok: false, problem: { code: 'syntax', syntax: 'tooComplex', part: '' } };
  const pieces = parseReading(reading, compiled.groupCount(), compiled.namedGroups());
  if (!Array.isArray(pieces)) return { ok: false, problem: pieces };
  // A reading without groups is the same text at every match.
  const fixed = pieces.every((piece) => 'text' in piece) ? pieces.map((piece) => piece.text).join('') : undefined;
  const written = pieces.reduce((sum, piece) => sum + ('text' in piece ? [...piece.text].length : 0), 0);
  const groups = pieces.length - pieces.filter((piece) => 'text' in piece).length;
  return {
    ok: true,
    value: {
      longestReading: (matchLength) => written + groups * matchLength,
      matchesEmpty: compiled.matches(''),
      *matches(text) {
        const matcher = compiled.matcher(text);
        while (matcher.find()) {
          const said =
            fixed ??
            pieces.map((piece) => ('text' in piece ? piece.text : (matcher.group(piece.group) ?? ''))).join('');
          yield { start: matcher.start(), end: matcher.end(), reading: said };
        }
      },
    },
  };
}
