// A dictionary pattern and its reading compiled on RE2 (re2js): linear in the text, a missing group refused at add.
import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/** RE2's program size; 1,000 passes what people write (`(\d{1,3},)*\d{1,3}`: 20), not `((a{10}){10}){10}` (1,222). */
export const MAX_PROGRAM_SIZE = 1000;

/** A group being read by measurePattern: its alternatives' largest size so far, the current one, its last atom. */
interface Frame {
  best: number;
  seq: number;
  last: number;
  capture: boolean;
  /** The largest product of nested repetition counts inside it, and in its last atom. */
  counts: number;
  lastCounts: number;
}

/** RE2 refuses a repetition count, or nested counts multiplied, past this (its "invalid repeat count"). */
const MAX_REPEAT = 1000;

const REPEAT = /^\{(\d{1,4})(,(\d{0,4}))?\}/;
const FLAGS_ONLY = /^\(\?[a-zA-Z-]*\)/;
const GROUP_OPEN = /^\(\?(P?<[^>]*>|P=[^)]*\)|[a-zA-Z-]*:)?/;

/**
 * RE2's program size for `pattern`, measured from its text without compiling it: never more than RE2 makes, so a
 * pattern past MAX_PROGRAM_SIZE is refused unbuilt (`(a*){1000}` ×20 is 80,002 instructions, ¼ s in RE2).
 */
export function measurePattern(pattern: string): number {
  const stack: Frame[] = [{ best: 0, seq: 0, last: 0, capture: false, counts: 1, lastCounts: 1 }];
  const top = (): Frame => stack[stack.length - 1] as Frame;
  const atom = (size: number, counts = 1): void => {
    const frame = top();
    frame.seq += size;
    frame.last = size;
    frame.lastCounts = counts;
    frame.counts = Math.max(frame.counts, counts);
  };
  const close = (frame: Frame): number => Math.max(frame.best, frame.seq) + (frame.capture ? 2 : 0);
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    const rest = pattern.slice(i, i + 40);
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const literal = end === -1 ? pattern.length - i - 2 : end - i - 2;
        for (let k = 0; k < literal; k++) atom(1);
        i = end === -1 ? pattern.length : end + 2;
        continue;
      }
      const braced = (next === 'p' || next === 'P' || next === 'x') && pattern[i + 2] === '{';
      const closing = braced ? pattern.indexOf('}', i + 2) : -1;
      i = braced && closing !== -1 ? closing + 1 : i + (next === 'p' || next === 'P' ? 3 : next === 'x' ? 4 : 2);
      atom(1);
    } else if (char === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '\\') j += 2;
        else if (pattern[j] === '[' && pattern[j + 1] === ':') {
          const end = pattern.indexOf(':]', j + 2);
          j = end === -1 ? j + 1 : end + 2;
        } else j += 1;
      }
      i = j + 1;
      atom(1);
    } else if (char === '(') {
      const flags = FLAGS_ONLY.exec(rest);
      if (flags) {
        i += flags[0].length;
        continue;
      }
      const open = GROUP_OPEN.exec(rest)?.[0] ?? '(';
      const kind = open.slice(2);
      const capture = open === '(' || kind.startsWith('<') || kind.startsWith('P<');
      stack.push({ best: 0, seq: 0, last: 0, capture, counts: 1, lastCounts: 1 });
      i += open.length;
    } else if (char === ')') {
      const frame = stack.length > 1 ? stack.pop() : undefined;
      if (frame) atom(close(frame), frame.counts);
      i += 1;
    } else if (char === '|') {
      const frame = top();
      frame.best = Math.max(frame.best, frame.seq);
      frame.seq = 0;
      frame.last = 0;
      frame.lastCounts = 1;
      i += 1;
    } else if (char === '*' || char === '+' || char === '?') {
      const frame = top();
      frame.seq += 1;
      frame.last += 1;
      i += pattern[i + 1] === '?' ? 2 : 1;
    } else if (char === '{' && REPEAT.test(rest)) {
      const [whole = '', min = '0', comma, max] = REPEAT.exec(rest) ?? [];
      const frame = top();
      const least = Number(min);
      const most = comma === undefined ? least : max === '' || max === undefined ? undefined : Number(max);
      const counts = frame.lastCounts * Math.max(1, most ?? least);
      if (counts > MAX_REPEAT) return 0;
      const repeated = most === undefined ? frame.last * least + 1 : frame.last * most + (most - least);
      frame.seq += repeated - frame.last;
      frame.last = repeated;
      frame.lastCounts = counts;
      frame.counts = Math.max(frame.counts, counts);
      i += whole.length + (pattern[i + whole.length] === '?' ? 1 : 0);
    } else {
      atom(1);
      i += 1;
    }
  }
  while (stack.length > 1) {
    const frame = stack.pop() as Frame;
    atom(close(frame), frame.counts);
  }
  return close(top()) + 2;
}

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

/** The reading as pieces: `$1`…`$99`, `$<name>`, `$&`, `$$`; any other `$` is itself. A missing group is refused. */
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
  // Measured first: a pattern too large is refused before RE2 spends its time building it.
  if (measurePattern(pattern) > MAX_PROGRAM_SIZE)
    return { ok: false, problem: { code: 'syntax', syntax: 'tooComplex', part: '' } };
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
