// Japanese kanji and mixed text to kana: kuromoji (Apache-2.0, its IPADIC dictionary in its npm package, an
// optional dependency beside eSpeak NG), loaded only in the free voice's worker threads (../espeak-worker.ts), never
// on the main thread: its dictionary takes about a third of a second to load and 170 MB to hold. The dictionary is
// read and unpacked here, synchronously and without the package's loader's extra copies (which hold twice the
// memory); the package's version is pinned, so the modules used are the ones read.
// kuromoji's analysis grows with the square of a sentence's length (each position slices the rest), so the text
// is analysed in chunks of at most MAX_CHUNK characters, cut after punctuation or a space where there is one: the
// work per line is linear in it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import type { JapaneseAnalyser } from './read-line.ts';

/** A morpheme as kuromoji gives it (its IPADIC formatter): readings in katakana, absent or `*` if unknown. */
interface Morpheme {
  surface_form: string;
  pos: string;
  reading?: string;
  pronunciation?: string;
}

interface Tokenizer {
  tokenize(text: string): Morpheme[];
}

interface Dictionaries {
  loadTrie(base: Int32Array, check: Int32Array): void;
  loadTokenInfoDictionaries(tokenInfo: Uint8Array, pos: Uint8Array, targetMap: Uint8Array): void;
  loadConnectionCosts(costs: Int16Array): void;
  loadUnknownDictionaries(
    unknown: Uint8Array,
    pos: Uint8Array,
    targetMap: Uint8Array,
    categories: Uint8Array,
    compatibleCategories: Uint32Array,
    invokeDefinitions: Uint8Array,
  ): void;
}

/** The longest stretch analysed at once (characters); see the header. */
export const MAX_CHUNK = 64;
/** A cut is looked for once a chunk is this long: after punctuation or a space. */
const CUT_AFTER = /[、。，．,.!?！？・\s」』）)]/u;

/** Where the chunk of `text` starting at `start` ends: MAX_CHUNK UTF-16 units on, or after punctuation before that. */
export function chunkEnd(text: string, start: number): number {
  if (text.length - start <= MAX_CHUNK) return text.length;
  let end = start + MAX_CHUNK;
  for (let i = end - 1; i > start + MAX_CHUNK / 2; i--) if (CUT_AFTER.test(text[i]!)) return i + 1;
  if (/[\ud800-\udbff]/u.test(text[end - 1]!)) end -= 1;
  return end;
}

const spoken = (morpheme: Morpheme): string => {
  for (const reading of [morpheme.pronunciation, morpheme.reading])
    if (reading !== undefined && reading !== '*' && reading !== '') return reading;
  return morpheme.surface_form;
};

/** The o-row kana a volitional う lengthens (ましょ + う, said ましょー). */
const O_ROW = /[オコソトノホモヨロゴゾドボポョォ]$/u;

/** ー for the auxiliary う after an o-row kana (its own morpheme, so its pronunciation is not joined), else undefined. */
function longO(before: string, morpheme: Morpheme): string | undefined {
  return morpheme.surface_form === 'う' && morpheme.pos === '助動詞' && O_ROW.test(before) ? 'ー' : undefined;
}

/**
 * The analyser over a built tokenizer, each morpheme read by its pronunciation. A chunk cut short of the text's end
 * gives back its last morpheme, which starts the next chunk: a cut inside a word (a line of kanji alone) is analysed
 * again with what follows it. Each character is analysed at most twice.
 */
export function analyserOf(tokenizer: Tokenizer): JapaneseAnalyser {
  return {
    toKana: (text) => {
      let kana = '';
      for (let start = 0; start < text.length;) {
        const end = chunkEnd(text, start);
        const morphemes = tokenizer.tokenize(text.slice(start, end));
        if (end < text.length && morphemes.length > 1) morphemes.pop();
        const used = end < text.length ? morphemes.reduce((sum, m) => sum + m.surface_form.length, 0) : end - start;
        for (const morpheme of morphemes) kana += longO(kana, morpheme) ?? spoken(morpheme);
        start += used > 0 ? used : end - start;
      }
      return kana;
    },
  };
}

/** kuromoji's dictionary folder and its modules, or undefined when the optional package is not installed. */
function kuromojiModules(): { require: NodeJS.Require; dictionary: string } | undefined {
  const require = createRequire(import.meta.url);
  try {
    return { require, dictionary: new URL('dict/', `file://${require.resolve('kuromoji/package.json')}`).pathname };
  } catch {
    return undefined;
  }
}

/** The analyser with kuromoji's dictionary loaded (synchronously: a worker thread's own time), or undefined without it. */
export function loadJapaneseAnalyser(): JapaneseAnalyser | undefined {
  const found = kuromojiModules();
  if (found === undefined) return undefined;
  const { require, dictionary } = found;
  const file = (name: string): ArrayBuffer => {
    const bytes = gunzipSync(readFileSync(`${dictionary}${name}.dat.gz`));
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return (
      whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    ) as ArrayBuffer;
  };
  const DynamicDictionaries = require('kuromoji/src/dict/DynamicDictionaries.js') as new () => Dictionaries;
  const KuromojiTokenizer = require('kuromoji/src/Tokenizer.js') as new (dictionaries: Dictionaries) => Tokenizer;
  const dictionaries = new DynamicDictionaries();
  dictionaries.loadTrie(new Int32Array(file('base')), new Int32Array(file('check')));
  dictionaries.loadTokenInfoDictionaries(
    new Uint8Array(file('tid')),
    new Uint8Array(file('tid_pos')),
    new Uint8Array(file('tid_map')),
  );
  dictionaries.loadConnectionCosts(new Int16Array(file('cc')));
  dictionaries.loadUnknownDictionaries(
    new Uint8Array(file('unk')),
    new Uint8Array(file('unk_pos')),
    new Uint8Array(file('unk_map')),
    new Uint8Array(file('unk_char')),
    new Uint32Array(file('unk_compat')),
    new Uint8Array(file('unk_invoke')),
  );
  return analyserOf(new KuromojiTokenizer(dictionaries));
}
