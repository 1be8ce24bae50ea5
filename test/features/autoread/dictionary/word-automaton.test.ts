import { describe, expect, it } from 'vitest';
import {
  compileDictionary,
  entryKey,
  validateEntry,
  type WordEntry,
} from '../../../../src/features/autoread/dictionary/dictionary.ts';
import { foldCase } from '../../../../src/features/autoread/dictionary/word-automaton.ts';
import { formerWordsApplied } from '../../../../fixtures/former-word-regex.ts';

// The words were one large regular expression; the automaton must say exactly what it said. Each case is run
// through both, so a difference names the input.

/** Word entries as the store keeps them (validated, one per key, first kept). */
function stored(pairs: readonly (readonly [string, string])[]): WordEntry[] {
  const entries = new Map<string, WordEntry>();
  for (const [word, reading] of pairs) {
    const valid = validateEntry(word, reading);
    if (valid.ok && !entries.has(entryKey(valid.value.word))) entries.set(entryKey(valid.value.word), valid.value);
  }
  return [...entries.values()];
}

const both = (entries: readonly WordEntry[], text: string) => {
  const normalised = text.normalize('NFC');
  return { automaton: compileDictionary(entries)(normalised), regex: formerWordsApplied(entries)(normalised) };
};

describe('the word automaton says what the regular expression said', () => {
  const cases: { name: string; words: [string, string][]; texts: string[] }[] = [
    {
      name: 'overlapping words: the leftmost start wins, then the longest there',
      words: [
        ['ab', '1'],
        ['bc', '2'],
        ['abc', '3'],
        ['b', '4'],
      ],
      texts: ['ab bc abc b', 'abc', 'bc ab', 'xabc abcx'],
    },
    {
      name: 'prefixes sharing a stem, near-matches between them',
      words: Array.from({ length: 30 }, (_, i): [string, string] => [`charactername${i}`, `name ${i}`]),
      texts: ['charactername1 charactername12 charactername123 charactername characternam', 'charactername29x'],
    },
    {
      name: 'prefixes in an unspaced script match inside text, the longest first',
      words: [
        ['東京', 'とうきょう'],
        ['東京都', 'とうきょうと'],
        ['京都', 'きょうと'],
        ['都庁', 'とちょう'],
      ],
      texts: ['東京都庁に行く', '京都と東京', '東京都京都'],
    },
    {
      name: 'case, including the letters case folding treats apart',
      words: [
        ['straße', 'street'],
        ['ſun', 'long sun'],
        ['kelvin', 'k'],
        ['σας', 'sas'],
        ['ıi', 'dotless'],
        ['istanbul', 'ist'],
      ],
      texts: [
        'STRASSE Straße STRAẞE',
        'sun SUN ſun',
        'KELVIN \u212Aelvin',
        'ΣΑΣ σασ σας',
        'II ıi Iİ',
        'İstanbul ISTANBUL',
      ],
    },
    {
      name: 'mixed scripts: whole words only where spaces separate them',
      words: [
        ['discord', 'ディスコード'],
        ['ㄱㅅ', '감사'],
        ['cat', 'kitty'],
        ['café', 'cafe'],
        ['gg', 'good game'],
      ],
      texts: [
        'Discordで話そう Discord에서 discordian',
        'ㄱㅅㄱㅅ 진짜ㄱㅅ',
        'cat café cafés cat_ 1cat catあ 猫cat',
        'gg2 2gg gg! (gg) gg\u0301',
      ],
    },
    {
      name: 'spaces in words and runs of white space in the text',
      words: [
        ['new york', 'NY'],
        ['new york city', 'NYC'],
        ['a b', 'x'],
      ],
      texts: ['New   York City', 'new\tyork\u00a0city', 'new york\ncity new yorkcity', 'a  b a\u3000b ab'],
    },
    {
      name: 'punctuation and symbols, whole words by their neighbours',
      words: [
        ['c++', 'C plus plus'],
        ['c#', 'C sharp'],
        ['.', 'dot'],
        ['😀', 'smile'],
        ['𝒜', 'script A'],
      ],
      texts: ['C++ and C# c++x xc#', 'a . b a.b .', '😀😀 a😀 𝒜𝒜 x𝒜'],
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { words, texts }) => {
    const entries = stored(words);
    for (const text of texts) {
      const { automaton, regex } = both(entries, text);
      expect({ text, said: automaton }).toEqual({ text, said: regex });
    }
  });

  it('on random dictionaries and texts of tricky characters', () => {
    const alphabet = [
      'a',
      'b',
      'A',
      'B',
      's',
      'S',
      'ſ',
      'k',
      '\u212A',
      'σ',
      'ς',
      'Σ',
      'i',
      'I',
      'ı',
      'İ',
      'ß',
      'ẞ',
      'é',
      'e',
      '\u0301',
      '_',
      '1',
      '.',
      '+',
      ' ',
      ' ',
      '\t',
      '\u00a0',
      '\u3000',
      '\n',
      'あ',
      'ア',
      '漢',
      '가',
      'ㄱ',
      '😀',
      '𝒜',
    ];
    // A fixed seed: a failure is the same on every run.
    let seed = 42;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * below);
    };
    for (let round = 0; round < 1500; round++) {
      // A few characters per round, so that words overlap, share prefixes and sit next to each other often.
      const letters = Array.from({ length: 2 + random(4) }, () => alphabet[random(alphabet.length)]);
      const pick = (count: number) => Array.from({ length: count }, () => letters[random(letters.length)]).join('');
      // Readings one character long, so that no cap on growth is ever reached and only the matching is compared.
      const entries = stored(
        Array.from({ length: 1 + random(8) }, (_, i): [string, string] => [
          pick(1 + random(4)),
          String.fromCodePoint(0x2460 + i),
        ]),
      );
      const text = pick(random(30));
      const { automaton, regex } = both(entries, text);
      expect({ entries, text, said: automaton }).toEqual({ entries, text, said: regex });
    }
  });
});

describe('foldCase', () => {
  it("folds together exactly the code points JavaScript's case-insensitive matching takes for each other", () => {
    const cased: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (/\p{CWCM}/u.test(String.fromCodePoint(cp)) || foldCase(cp) !== cp) cased.push(cp);
    }
    const all = cased.map((cp) => String.fromCodePoint(cp)).join('');
    // Each fold's code points, grouped once (asking foldCase of every pair was most of this test's CPU).
    const byFold = Map.groupBy(cased, (cp) => foldCase(cp));
    const differ: string[] = [];
    for (const cp of cased) {
      const escaped = String.fromCodePoint(cp).replace(/[\]\\^-]/g, '\\$&');
      const regex = new Set([...all.matchAll(new RegExp(`[${escaped}]`, 'giu'))].map((m) => m[0].codePointAt(0)));
      const folded = new Set(byFold.get(foldCase(cp)));
      if (regex.size !== folded.size || [...regex].some((other) => !folded.has(other ?? -1)))
        differ.push(cp.toString(16));
    }
    expect(cased.length).toBeGreaterThan(2000);
    expect(differ).toEqual([]);
  });
});
