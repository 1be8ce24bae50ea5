import { describe, expect, it } from 'vitest';
import { addMessages } from '../../../src/core/i18n/catalogue.ts';
import { t, type MessageKey } from '../../../src/core/i18n/translate.ts';

// A part of this test's own: a count's words in each language, as the dashboard's and the replies' texts write them.
addMessages('translate-test', {
  en: {
    'test.hits':
      'Since it started: {hits, plural, one {# hit} other {# hits}}, {misses, plural, one {# miss} other {# misses}}.',
    'test.entries': '{count, plural, =0 {No entries} one {# entry} other {# entries}} (at most {max})',
  },
  ko: { 'test.hits': '시작 이후: 적중 {hits}, 실패 {misses}.', 'test.entries': '항목 {count}개 (최대 {max}개)' },
  ja: { 'test.hits': '起動以来: ヒット {hits}、ミス {misses}。', 'test.entries': '{count} 件 (最大 {max} 件)' },
});
const key = (name: string) => name as MessageKey;

describe('t: a count in words', () => {
  it('picks the branch Intl.PluralRules gives the count in English: one, other, an exact =N first', () => {
    expect(t('en-US', key('test.hits'), { hits: 1, misses: 2 })).toBe('Since it started: 1 hit, 2 misses.');
    expect(t('en-US', key('test.hits'), { hits: 0, misses: 1 })).toBe('Since it started: 0 hits, 1 miss.');
    expect(t('en-US', key('test.entries'), { count: 0, max: 500 })).toBe('No entries (at most 500)');
    expect(t('en-US', key('test.entries'), { count: 1, max: 500 })).toBe('1 entry (at most 500)');
  });

  it('writes the count as the reader writes numbers, and takes a count already written so', () => {
    expect(t('en-US', key('test.entries'), { count: 1234, max: 500 })).toBe('1,234 entries (at most 500)');
    expect(t('en-US', key('test.hits'), { hits: '1', misses: '12,345' })).toBe(
      'Since it started: 1 hit, 12,345 misses.',
    );
  });

  it('leaves Korean and Japanese, one form for every count, as they are written', () => {
    expect(t('ko', key('test.entries'), { count: 1, max: 500 })).toBe('항목 1개 (최대 500개)');
    expect(t('ja', key('test.hits'), { hits: 1, misses: 1 })).toBe('起動以来: ヒット 1、ミス 1。');
  });

  it('puts a written value in as it is: no replacement pattern read in it', () => {
    expect(t('en-US', key('test.entries'), { count: "$'1$&", max: 500 })).toBe("$'1$& entry (at most 500)");
  });
});
