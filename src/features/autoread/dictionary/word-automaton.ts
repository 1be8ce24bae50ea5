// A dictionary's words found in one pass, linear whatever their number (Aho-Corasick over code points), keeping the
// meaning of the regular expression it replaced (word-automaton.test.ts compares the two).

/** What a word is matched as: its key (lower case, one space between its parts). */
export interface AutomatonWord {
  key: string;
}

export interface WordMatch {
  /** UTF-16 offsets in the text. */
  start: number;
  end: number;
  /** Which word (its index in the list the automaton was built from). */
  word: number;
}

// Scripts written without spaces between words: a word holding any of them matches anywhere in the text.
const UNSPACED = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// A letter or digit of a spaced script: what may not touch a whole-word match on either side.
const SPACED_WORD_CHAR =
  /^(?![\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}_]$/u;
const WHITE_SPACE = /^\s$/u;

/** A run of white space in the text, and a space in a word: one symbol (no code point is this large). */
const SPACE = 0x110000;

/** Where simple case folding and "upper, then lower case" disagree in V8: dotless ı and three pairs. */
const FOLD_EXCEPTIONS = new Map<number, number>([
  [0x131, 0x131],
  [0x1fd3, 0x390],
  [0x1fe3, 0x3b0],
  [0xfb06, 0xfb05],
]);

const onlyCodePoint = (text: string): number | undefined => {
  const first = text.codePointAt(0);
  return first !== undefined && text.length === (first > 0xffff ? 2 : 1) ? first : undefined;
};

/** The code point `cp` folds to: two match under `iu` exactly when they fold to the same one. */
export function foldCase(cp: number): number {
  const exception = FOLD_EXCEPTIONS.get(cp);
  if (exception !== undefined) return exception;
  const char = String.fromCodePoint(cp);
  const upper = onlyCodePoint(char.toUpperCase());
  const lower = upper === undefined ? undefined : onlyCodePoint(String.fromCodePoint(upper).toLowerCase());
  return lower ?? onlyCodePoint(char.toLowerCase()) ?? cp;
}

// What the scan needs of a code point, packed: its folded symbol (bits 2 and up), white space (bit 1), a letter or
// digit of a spaced script (bit 0). ASCII from a table; the rest worked out once and kept, the kept ones bounded.
const WORD_BIT = 1;
const SPACE_BIT = 2;
const describe = (cp: number): number => {
  const char = String.fromCodePoint(cp);
  if (WHITE_SPACE.test(char)) return (SPACE << 2) | SPACE_BIT;
  return (foldCase(cp) << 2) | (SPACED_WORD_CHAR.test(char) ? WORD_BIT : 0);
};
const ASCII = Array.from({ length: 128 }, (_, cp) => describe(cp));
const DESCRIBED_MAX = 8192;
const described = new Map<number, number>();
function describeCodePoint(cp: number): number {
  if (cp < 128) return ASCII[cp] ?? 0;
  let info = described.get(cp);
  if (info === undefined) {
    info = describe(cp);
    if (described.size >= DESCRIBED_MAX) described.clear();
    described.set(cp, info);
  }
  return info;
}

/** A word's symbols: its code points folded, its spaces SPACE (as the text's white space). */
function symbolsOf(key: string): number[] {
  const symbols: number[] = [];
  for (const char of key) symbols.push(describeCodePoint(char.codePointAt(0) ?? 0) >>> 2);
  return symbols;
}

/** The text as symbols (each white-space run one), with where each symbol starts and ends in the text. */
interface Symbols {
  count: number;
  symbol: Int32Array;
  start: Int32Array;
  end: Int32Array;
  /** A letter or digit of a spaced script. */
  word: Uint8Array;
}

function symbolsOfText(text: string): Symbols {
  const size = text.length;
  const out: Symbols = {
    count: 0,
    symbol: new Int32Array(size),
    start: new Int32Array(size),
    end: new Int32Array(size),
    word: new Uint8Array(size),
  };
  let n = 0;
  for (let i = 0; i < size;) {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    const info = describeCodePoint(cp);
    if (info & SPACE_BIT && n > 0 && out.symbol[n - 1] === SPACE) {
      out.end[n - 1] = i + width;
    } else {
      out.symbol[n] = info >>> 2;
      out.start[n] = i;
      out.end[n] = i + width;
      out.word[n] = info & WORD_BIT;
      n += 1;
    }
    i += width;
  }
  out.count = n;
  return out;
}

/** The automaton. Most nodes have one child (`onlySymbol`/`onlyChild`); more go in a map of their own. */
export class WordAutomaton {
  readonly #onlySymbol: number[] = [-1];
  readonly #onlyChild: number[] = [-1];
  readonly #children: Array<Map<number, number> | undefined> = [undefined];
  readonly #depth: number[] = [0];
  /** The word ending at a node with the highest priority (the lowest index), or -1. */
  readonly #word: number[] = [-1];
  /** Whether the word ending here must stand whole (a spaced script). */
  readonly #whole: boolean[] = [false];
  readonly #fail: Int32Array;
  /** The nearest node on the failure chain (itself left out) where a word ends, or -1. */
  readonly #output: Int32Array;

  /** `words` in priority order: where several match from one place, the one listed first wins. */
  constructor(words: readonly AutomatonWord[]) {
    for (const [index, { key }] of words.entries()) {
      let node = 0;
      for (const symbol of symbolsOf(key)) node = this.#childOrNew(node, symbol);
      if (node === 0) continue;
      if (this.#word[node] === -1) {
        this.#word[node] = index;
        this.#whole[node] = !UNSPACED.test(key);
      }
    }
    const nodes = this.#depth.length;
    this.#fail = new Int32Array(nodes);
    this.#output = new Int32Array(nodes).fill(-1);
    // Breadth first: a node's failure is found from its parent's, which is already known.
    const queue: number[] = [];
    this.#forEachChild(0, (_, child) => queue.push(child));
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] ?? 0;
      this.#forEachChild(node, (symbol, child) => {
        let fallback = this.#fail[node] ?? 0;
        while (fallback !== 0 && this.#child(fallback, symbol) === -1) fallback = this.#fail[fallback] ?? 0;
        const target = this.#child(fallback, symbol);
        const fail = target === -1 || target === child ? 0 : target;
        this.#fail[child] = fail;
        this.#output[child] = (this.#word[fail] ?? -1) !== -1 ? fail : (this.#output[fail] ?? -1);
        queue.push(child);
      });
    }
  }

  #child(node: number, symbol: number): number {
    if (this.#onlySymbol[node] === symbol) return this.#onlyChild[node] ?? -1;
    return this.#children[node]?.get(symbol) ?? -1;
  }

  #forEachChild(node: number, visit: (symbol: number, child: number) => void): void {
    const only = this.#onlySymbol[node] ?? -1;
    if (only !== -1) visit(only, this.#onlyChild[node] ?? 0);
    for (const [symbol, child] of this.#children[node] ?? []) visit(symbol, child);
  }

  #childOrNew(node: number, symbol: number): number {
    const existing = this.#child(node, symbol);
    if (existing !== -1) return existing;
    const child = this.#depth.length;
    this.#onlySymbol.push(-1);
    this.#onlyChild.push(-1);
    this.#children.push(undefined);
    this.#depth.push((this.#depth[node] ?? 0) + 1);
    this.#word.push(-1);
    this.#whole.push(false);
    if (this.#onlySymbol[node] === -1) {
      this.#onlySymbol[node] = symbol;
      this.#onlyChild[node] = child;
    } else {
      let map = this.#children[node];
      if (!map) {
        map = new Map();
        this.#children[node] = map;
      }
      map.set(symbol, child);
    }
    return child;
  }

  /** The matches left to right, none overlapping: at each place, the matching word of highest priority. */
  matches(text: string): WordMatch[] {
    const symbols = symbolsOfText(text);
    const { count, symbol, word: wordChar } = symbols;
    // The best word starting at each symbol, and the symbol it ends on.
    const best = new Int32Array(count).fill(-1);
    const bestEnd = new Int32Array(count);
    let node = 0;
    for (let i = 0; i < count; i++) {
      const next = symbol[i] ?? 0;
      let child = this.#child(node, next);
      while (child === -1 && node !== 0) {
        node = this.#fail[node] ?? 0;
        child = this.#child(node, next);
      }
      node = child === -1 ? 0 : child;
      for (let found = (this.#word[node] ?? -1) !== -1 ? node : (this.#output[node] ?? -1); found !== -1;) {
        const start = i - (this.#depth[found] ?? 0) + 1;
        const word = this.#word[found] ?? -1;
        const whole =
          !this.#whole[found] ||
          ((start === 0 || wordChar[start - 1] === 0) && (i + 1 === count || wordChar[i + 1] === 0));
        const current = best[start] ?? -1;
        if (whole && (current === -1 || word < current)) {
          best[start] = word;
          bestEnd[start] = i;
        }
        found = this.#output[found] ?? -1;
      }
    }
    const matches: WordMatch[] = [];
    for (let i = 0; i < count;) {
      const word = best[i] ?? -1;
      if (word === -1) {
        i += 1;
        continue;
      }
      const last = bestEnd[i] ?? i;
      matches.push({ start: symbols.start[i] ?? 0, end: symbols.end[last] ?? 0, word });
      i = last + 1;
    }
    return matches;
  }
}
