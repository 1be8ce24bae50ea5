import { describe, expect, it } from 'vitest';
import { fitLines } from '../../../src/features/speaking/listing.ts';
import { echo } from '../../../src/core/interactions/replies.ts';
import { isValidName, nameKey } from '../../../src/core/store/names.ts';

describe('fitLines', () => {
  it('keeps whole lines within the budget and says how many were left out', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(30)}`);
    const fitted = fitLines(lines, 'en-US', 500);
    expect(fitted.join('\n').length).toBeLessThanOrEqual(500);
    const kept = fitted.length - 1;
    expect(fitted.slice(0, kept)).toEqual(lines.slice(0, kept));
    expect(fitted.at(-1)).toBe(`…and ${100 - kept} more.`);
    expect(fitLines(lines.slice(0, 3), 'ko', 500)).toEqual(lines.slice(0, 3));
  });
});

describe('echo', () => {
  it('cannot form a mention, a channel link or a code span, and is cut to length', () => {
    expect(echo('<@123> hi @everyone `x`\nnext', 100)).toBe('123 hi everyone xnext');
    expect(echo('abcdef', 4)).toBe('abc…');
  });
});

describe('names', () => {
  it('allow letters and digits of any script with inner separators, and nothing that could ping', () => {
    for (const ok of ['narrator', 'News KO', '나레이터', 'ナレーター_2', "o'brien", 'a.b-c'])
      expect(isValidName(ok)).toBe(true);
    for (const bad of ['', ' x', 'x ', '<@1>', '@here', 'a`b', '#chan', '-x', 'x'.repeat(33)])
      expect(isValidName(bad)).toBe(false);
  });

  it('are one name across case, width and spacing', () => {
    expect(nameKey('  News   KO ')).toBe(nameKey('news ko'));
    expect(nameKey('ＮＥＷＳ')).toBe('news');
  });
});
