import { describe, expect, it } from 'vitest';
import {
  trimEndOf,
  unmaskLinks,
  unwrapUnderscoreItalics,
} from '../../../../src/features/autoread/text/linear-markup.ts';
import { cleanMessage } from '../../../../src/features/autoread/text/cleanup.ts';

// The patterns clean-up used before: the hand scans must give exactly what they gave.
const formerMaskedLinks = (text: string) => text.replace(/\[([^\]\n]+)\]\(<?https?:\/\/[^\s)>]+>?\)/gi, '$1');
const formerItalics = (text: string) => text.replace(/(?<![\p{L}\p{N}])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}])/gu, '$1');
const formerTrim = (text: string) => text.replace(/[\s,、.。]+$/u, '');

/** A small deterministic generator (mulberry32), so a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function texts(pieces: readonly string[], seed: number, count = 3000): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 14);
    return Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join('');
  });
}

/** Links and near-links: whole ones joined, then a few characters inserted, changed or taken out at random. */
function nearLinks(seed: number, count = 3000): string[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const parts = [
    '[ab](https://x.y)',
    '[a](<http://q>)',
    '[[c]](HTTPS://w)',
    'z[',
    ']',
    '\n',
    ' ',
    '(',
    '[é😀](http://e/😀)',
  ];
  const characters = [...'[]()<> \na:/h😀'];
  return Array.from({ length: count }, () => {
    let text = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(parts)).join('');
    for (let edits = Math.floor(next() * 4); edits > 0; edits--) {
      const at = Math.floor(next() * (text.length + 1));
      const kind = next();
      text = text.slice(0, at) + (kind < 0.66 ? pick(characters) : '') + text.slice(kind < 0.33 ? at : at + 1);
    }
    return text;
  });
}

describe('unmaskLinks', () => {
  it('gives what the former pattern gave, on links and near-links', () => {
    const cases = nearLinks(1);
    for (const text of cases) expect(unmaskLinks(text), JSON.stringify(text)).toBe(formerMaskedLinks(text));
    // The cases mean something: many hold a link the pattern replaced, many do not.
    const replaced = cases.filter((text) => formerMaskedLinks(text) !== text).length;
    expect(replaced).toBeGreaterThan(cases.length / 4);
    expect(replaced).toBeLessThan(cases.length);
  });

  it('reads 4,000 `[` as they are', () => {
    const brackets = '['.repeat(4000);
    expect(unmaskLinks(brackets)).toBe(brackets);
    // Clean-up then caps the run of one character, as it caps wwwww.
    expect(cleanMessage(brackets, { maxLength: 4000 })).toBe('');
    expect(cleanMessage(`a ${brackets} b`, { maxLength: 4000 })).toBe('a [[[ b');
  });

  it('reads every link of a message made of links that never close', () => {
    const open = '[a](http://x'.repeat(333);
    expect(unmaskLinks(open)).toBe(open);
    expect(unmaskLinks(`${'[see]'.repeat(500)}(https://example.com)`)).toBe(`${'[see]'.repeat(499)}see`);
  });
});

describe('unwrapUnderscoreItalics', () => {
  it('gives what the former pattern gave, on random text made of its parts', () => {
    const pieces = ['_', '_', 'a', '1', '!', ' ', '\n', '\r', '한', '😀', '.', '\u2028'];
    const cases = texts(pieces, 2);
    for (const text of cases) expect(unwrapUnderscoreItalics(text), JSON.stringify(text)).toBe(formerItalics(text));
    expect(cases.filter((text) => formerItalics(text) !== text).length).toBeGreaterThan(cases.length / 20);
  });

  it('leaves 4,000 characters of openings that never close as they are', () => {
    const openings = '!_a'.repeat(1333);
    expect(unwrapUnderscoreItalics(openings)).toBe(openings);
  });
});

describe('trimEndOf', () => {
  it('gives what the former pattern gave', () => {
    for (const text of texts([' ', ',', '、', '.', '。', 'a', '가', '😀', '\n'], 3)) {
      expect(trimEndOf(text, /^[\s,、.。]$/u), JSON.stringify(text)).toBe(formerTrim(text));
    }
  });
});
