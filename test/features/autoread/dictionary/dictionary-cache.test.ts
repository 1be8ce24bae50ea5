import { describe, expect, it } from 'vitest';
import { DictionaryCache } from '../../../../src/features/autoread/dictionary/dictionary-cache.ts';
import { compileDictionary, type DictionaryEntry } from '../../../../src/features/autoread/dictionary/dictionary.ts';
import {
  DictionaryUnavailableError,
  MAX_DICTIONARY_JOBS_PER_GUILD,
} from '../../../../src/features/autoread/dictionary/dictionary-thread.ts';

const words: DictionaryEntry[] = [
  { word: 'SayBot', reading: 'say bot' },
  { pattern: '(\\d+)km', reading: '$1 kilometres' },
];

describe('DictionaryCache', () => {
  it("compiles a server's dictionary once while its entries stay the same", async () => {
    const cache = new DictionaryCache(10);
    const first = cache.compiled('g1', words);
    // Entries read again from the store are new objects with the same contents.
    expect(
      cache.compiled(
        'g1',
        words.map((entry) => ({ ...entry })),
      ),
    ).toBe(first);
    // With a pattern: applied in the worker thread.
    expect(await first.say(['SayBot ran 5km', 'no entry here'])).toEqual(['say bot ran 5 kilometres', 'no entry here']);
  });

  it('compiles again after any change: a reading, an entry added, the order', async () => {
    const cache = new DictionaryCache(10);
    const first = cache.compiled('g1', words);
    const reread = cache.compiled('g1', [
      { word: 'SayBot', reading: 'sei bot' },
      { pattern: '(\\d+)km', reading: '$1 kilometres' },
    ]);
    expect(reread).not.toBe(first);
    expect(await reread.say(['SayBot'])).toEqual(['sei bot']);
    const added = cache.compiled('g1', [...words, { word: 'x', reading: 'y' }]);
    expect(added).not.toBe(reread);
    const moved = cache.compiled('g1', [...words].reverse());
    expect(moved).not.toBe(added);
    // A word and a pattern written the same are different entries.
    const asWord = cache.compiled('g2', [{ word: 'lol', reading: 'laugh' }]);
    expect(await asWord.say(['lol LOL'])).toEqual(['laugh laugh']);
    expect(cache.compiled('g2', [{ pattern: 'lol', reading: 'laugh' }])).not.toBe(asWord);
  });

  it("reads a server's entries only when the store's version of them is not the one they were read at", async () => {
    const cache = new DictionaryCache(10);
    let reads = 0;
    let stored: DictionaryEntry[] = [{ word: 'SayBot', reading: 'say bot' }];
    const read = () => {
      reads += 1;
      return Promise.resolve(stored.map((entry) => ({ ...entry })));
    };
    const first = await cache.current('g1', 'v1', read);
    expect(await cache.current('g1', 'v1', read)).toBe(first);
    expect(reads).toBe(1);
    expect(await first.say(['SayBot'])).toEqual(['say bot']);
    // A new version: read again; the same entries keep what was compiled.
    expect(await cache.current('g1', 'v2', read)).toBe(first);
    expect(reads).toBe(2);
    stored = [{ word: 'SayBot', reading: 'sei bot' }];
    const changed = await cache.current('g1', 'v3', read);
    expect(await changed.say(['SayBot'])).toEqual(['sei bot']);
    expect(reads).toBe(3);
    // No version (never changed since it was kept, or deleted): read every time.
    stored = [];
    const none = await cache.current('g1', undefined, read);
    expect(none.empty).toBe(true);
    await cache.current('g1', undefined, read);
    expect(reads).toBe(5);
    // The one compiled from entries a caller gave (the reader's) answers a version only once read under it.
    cache.compiled('g2', stored);
    await cache.current('g2', 'v1', read);
    expect(reads).toBe(6);
  });

  it('keeps a bounded number of servers, forgetting the least recently used', () => {
    const cache = new DictionaryCache(2);
    const one = cache.compiled('g1', words);
    cache.compiled('g2', words);
    cache.compiled('g1', words);
    cache.compiled('g3', words);
    expect(cache.size).toBe(2);
    // g2 was used least recently and went; g1 is still the same compiled dictionary.
    expect(cache.compiled('g1', words)).toBe(one);
  });
});

describe('a dictionary with patterns, applied in the worker thread', () => {
  it('says what the dictionary says on the main thread, for the costliest patterns over a long message', async () => {
    const costly: DictionaryEntry[] = [
      { word: 'aa', reading: 'double' },
      ...Array.from({ length: 19 }, (_, i) => ({ pattern: `(?:a?){200}a{${200 - i}}`, reading: `x${i}` })),
      { pattern: '(a)(b)', reading: '$2$1' },
    ];
    const texts = ['a'.repeat(1000), 'ab aa ab', ''];
    const said = await new DictionaryCache().compiled('g1', costly).say(texts);
    expect(said).toEqual(texts.map(compileDictionary(costly)));
  });

  it(`refuses a server more than ${MAX_DICTIONARY_JOBS_PER_GUILD} texts at once, and serves the others`, async () => {
    const dictionary = new DictionaryCache().compiled('busy', [{ pattern: '(?:a?){200}a{200}', reading: 'x' }]);
    const long = 'a'.repeat(1000);
    const results = await Promise.allSettled(
      Array.from({ length: MAX_DICTIONARY_JOBS_PER_GUILD + 3 }, () => dictionary.say([long])),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(refused).toHaveLength(3);
    for (const reason of refused) expect(reason).toBeInstanceOf(DictionaryUnavailableError);
    const other = new DictionaryCache().compiled('calm', [{ pattern: 'b', reading: 'c' }]);
    expect(await other.say(['abc'])).toEqual(['acc']);
  });
});
