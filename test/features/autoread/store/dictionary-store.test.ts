import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, MAX_PATTERNS } from '../../../../src/features/autoread/dictionary/dictionary-limits.ts';
import { importDictionary } from '../../../../src/features/autoread/dictionary/dictionary.ts';
import { ADMIN, G1, G2, MEMBER, forEachBackend } from '../../../core/store/contract.ts';

// The Dictionary area of the store contract: a server's words and how to say them.
forEachBackend((store, backend) => {
  describe('pronunciation dictionary', () => {
    it('adds, replaces a word in any case where it stands, and lists in the order entries apply in, per guild', async () => {
      expect(await store.dictionary.list(G1)).toEqual([]);
      expect(await store.dictionary.put(G1, 'SayBot', 'say bot', ADMIN)).toEqual({
        status: 'added',
        entry: { word: 'SayBot', reading: 'say bot' },
      });
      expect((await store.dictionary.put(G1, 'ＡＰＩ', '에이피아이', ADMIN)).status).toBe('added');
      expect((await store.dictionary.put(G1, 'api', 'a p i', ADMIN)).status).toBe('added'); // NFC, not NFKC: another word
      expect((await store.dictionary.put(G1, 'ぬるぽ', 'ガッ', ADMIN)).status).toBe('added');
      // Tidied as validateEntry tidies: spaces folded, ends trimmed.
      expect(await store.dictionary.put(G1, '  saybot ', '  say   bot  ', ADMIN)).toEqual({
        status: 'replaced',
        entry: { word: 'saybot', reading: 'say bot' },
      });
      expect(await store.dictionary.list(G1)).toEqual([
        { word: 'saybot', reading: 'say bot' },
        { word: 'ＡＰＩ', reading: '에이피아이' },
        { word: 'api', reading: 'a p i' },
        { word: 'ぬるぽ', reading: 'ガッ' },
      ]);
      expect(await store.dictionary.list(G2)).toEqual([]);
    });

    it('lists each entry with who changed it last and when, in order (the dashboard)', async () => {
      const before = Date.now();
      await store.dictionary.put(G1, 'gg', 'good game', ADMIN);
      await store.dictionary.put(G1, 'brb', 'be right back', MEMBER);
      await store.dictionary.put(G1, 'GG', 'well played', MEMBER);
      const records = await store.dictionary.listWithChanges(G1);
      expect(records.map(({ entry, updatedBy }) => [entry, updatedBy])).toEqual([
        [{ word: 'GG', reading: 'well played' }, MEMBER],
        [{ word: 'brb', reading: 'be right back' }, MEMBER],
      ]);
      expect(records.every((record) => record.updatedAt >= before && record.updatedAt <= Date.now())).toBe(true);
      expect(await store.dictionary.listWithChanges(G2)).toEqual([]);
    });

    it('refuses what src/features/autoread/dictionary/dictionary.ts refuses, with its problem', async () => {
      expect(await store.dictionary.put(G1, '   ', 'x', ADMIN)).toEqual({
        status: 'refused',
        problem: { code: 'emptyWord', params: {} },
      });
      expect(await store.dictionary.put(G1, 'word', 'x'.repeat(101), ADMIN)).toMatchObject({
        status: 'refused',
        problem: { code: 'readingTooLong' },
      });
      expect(await store.dictionary.put(G1, 'a\u0007b', 'x', ADMIN)).toMatchObject({
        status: 'refused',
        problem: { code: 'controlCharacter' },
      });
      expect(await store.dictionary.list(G1)).toEqual([]);
    });

    it(`holds at most ${MAX_ENTRIES} words per guild, and still replaces one when full`, async () => {
      const full = Array.from({ length: MAX_ENTRIES }, (_, i) => ({ word: `w${i}`, reading: `r${i}` }));
      expect(await store.dictionary.replace(G1, full, ADMIN)).toMatchObject({ status: 'replaced' });
      expect(await store.dictionary.put(G1, 'one more', 'x', ADMIN)).toEqual({
        status: 'refused',
        problem: { code: 'full', params: { max: MAX_ENTRIES } },
      });
      expect((await store.dictionary.put(G1, 'W7', 'seven', ADMIN)).status).toBe('replaced');
      expect((await store.dictionary.put(G2, 'one more', 'x', ADMIN)).status).toBe('added');
      expect(await store.dictionary.list(G1)).toHaveLength(MAX_ENTRIES);
    });

    it('removes a word in any case', async () => {
      await store.dictionary.put(G1, 'SayBot', 'say bot', ADMIN);
      await store.dictionary.put(G2, 'SayBot', 'say bot', ADMIN);
      expect(await store.dictionary.remove(G1, 'SAYBOT')).toEqual({ word: 'SayBot', reading: 'say bot' });
      expect(await store.dictionary.remove(G1, 'saybot')).toBeUndefined();
      expect(await store.dictionary.list(G1)).toEqual([]);
      expect(await store.dictionary.list(G2)).toHaveLength(1);
    });

    it('replaces the whole dictionary from an import, or leaves it as it was when the import is refused', async () => {
      await store.dictionary.put(G1, 'old', 'kept until replaced', ADMIN);
      const file = importDictionary(
        JSON.stringify({
          version: 1,
          entries: [
            { word: 'zeta', reading: 'z' },
            { word: 'Alpha', reading: 'a' },
          ],
        }),
      );
      if (!file.ok) throw new Error('the test file should import');
      // In the file's order: the order they apply in.
      expect(await store.dictionary.replace(G1, file.value, ADMIN)).toEqual({
        status: 'replaced',
        entries: [
          { word: 'zeta', reading: 'z' },
          { word: 'Alpha', reading: 'a' },
        ],
      });
      expect(await store.dictionary.list(G1)).toEqual([
        { word: 'zeta', reading: 'z' },
        { word: 'Alpha', reading: 'a' },
      ]);

      const before = await store.dictionary.list(G1);
      expect(
        await store.dictionary.replace(
          G1,
          [
            { word: 'x', reading: 'y' },
            { word: 'X', reading: 'z' },
          ],
          ADMIN,
        ),
      ).toEqual({
        status: 'refused',
        problem: { code: 'duplicate', params: { entry: 2, first: 1, word: 'X' } },
      });
      expect(
        await store.dictionary.replace(
          G1,
          [
            { word: 'ok', reading: 'fine' },
            { word: '', reading: 'y' },
          ],
          ADMIN,
        ),
      ).toEqual({
        status: 'refused',
        problem: { code: 'badEntry', params: { entry: 2, reason: 'emptyWord' } },
      });
      const tooMany = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ word: `w${i}`, reading: 'r' }));
      expect(await store.dictionary.replace(G1, tooMany, ADMIN)).toMatchObject({
        status: 'refused',
        problem: { code: 'tooManyEntries' },
      });
      expect(await store.dictionary.list(G1)).toEqual(before);

      expect(await store.dictionary.replace(G1, [], ADMIN)).toEqual({ status: 'replaced', entries: [] });
      expect(await store.dictionary.list(G1)).toEqual([]);
    });

    it('keeps patterns beside words, in their place, one per pattern as written', async () => {
      await store.dictionary.put(G1, 'km', 'kilometre', ADMIN);
      expect(await store.dictionary.put(G1, { pattern: ' (\\d+)km ' }, '$1 kilometres', ADMIN)).toEqual({
        status: 'added',
        entry: { pattern: '(\\d+)km', reading: '$1 kilometres' },
      });
      // The same text as a word and as a pattern are two entries; a pattern's case is its own.
      expect((await store.dictionary.put(G1, { pattern: 'km' }, 'k m', ADMIN)).status).toBe('added');
      expect((await store.dictionary.put(G1, { pattern: 'KM' }, 'K M', ADMIN)).status).toBe('added');
      expect((await store.dictionary.put(G1, { pattern: 'km' }, 'kay em', ADMIN)).status).toBe('replaced');
      expect(await store.dictionary.put(G1, { pattern: '(a)\\1' }, 'x', ADMIN)).toMatchObject({
        status: 'refused',
        problem: { code: 'badPattern', params: { syntax: 'backReference' } },
      });
      expect(await store.dictionary.list(G1)).toEqual([
        { word: 'km', reading: 'kilometre' },
        { pattern: '(\\d+)km', reading: '$1 kilometres' },
        { pattern: 'km', reading: 'kay em' },
        { pattern: 'KM', reading: 'K M' },
      ]);
      expect(await store.dictionary.remove(G1, { pattern: 'km' })).toEqual({ pattern: 'km', reading: 'kay em' });
      // A word is named as a word: the pattern written KM stays.
      expect(await store.dictionary.remove(G1, 'KM')).toEqual({ word: 'km', reading: 'kilometre' });
      expect(await store.dictionary.list(G1)).toEqual([
        { pattern: '(\\d+)km', reading: '$1 kilometres' },
        { pattern: 'KM', reading: 'K M' },
      ]);
    });

    it(`holds at most ${MAX_PATTERNS} patterns among the entries`, async () => {
      const patterns = Array.from({ length: MAX_PATTERNS }, (_, i) => ({ pattern: `p${i}`, reading: 'r' }));
      expect((await store.dictionary.replace(G1, patterns, ADMIN)).status).toBe('replaced');
      expect(await store.dictionary.put(G1, { pattern: 'one more' }, 'x', ADMIN)).toEqual({
        status: 'refused',
        problem: { code: 'patternsFull', params: { max: MAX_PATTERNS } },
      });
      expect((await store.dictionary.put(G1, 'a word', 'x', ADMIN)).status).toBe('added');
    });

    it('moves an entry to a place in the order, the others keeping theirs', async () => {
      for (const word of ['a', 'b', 'c', 'd']) await store.dictionary.put(G1, word, word.toUpperCase(), ADMIN);
      await store.dictionary.put(G1, { pattern: 'e+' }, 'E', ADMIN);
      const order = async () =>
        (await store.dictionary.list(G1)).map((entry) => ('word' in entry ? entry.word : `/${entry.pattern}/`));
      expect(await store.dictionary.move(G1, { pattern: 'e+' }, 1, ADMIN)).toMatchObject({
        status: 'moved',
        position: 1,
      });
      expect(await order()).toEqual(['/e+/', 'a', 'b', 'c', 'd']);
      expect(await store.dictionary.move(G1, 'A', 4, ADMIN)).toMatchObject({ status: 'moved', position: 4 });
      expect(await order()).toEqual(['/e+/', 'b', 'c', 'a', 'd']);
      // Past the end is the end.
      expect(await store.dictionary.move(G1, 'b', 99, ADMIN)).toMatchObject({ status: 'moved', position: 5 });
      expect(await order()).toEqual(['/e+/', 'c', 'a', 'd', 'b']);
      await store.dictionary.remove(G1, 'c');
      await store.dictionary.put(G1, 'z', 'Z', ADMIN);
      expect(await order()).toEqual(['/e+/', 'a', 'd', 'b', 'z']);
      expect(await store.dictionary.move(G1, 'nothing', 1, ADMIN)).toEqual({ status: 'unknown' });
      expect(await store.dictionary.move(G2, 'a', 1, ADMIN)).toEqual({ status: 'unknown' });
    });

    it('replaces in one transaction: another connection sees the old dictionary or the new one, never a mix', async () => {
      const old = Array.from({ length: 200 }, (_, i) => ({ word: `old${i}`, reading: 'o' }));
      const next = Array.from({ length: 200 }, (_, i) => ({ word: `new${i}`, reading: 'n' }));
      await store.dictionary.replace(G1, old, ADMIN);
      const other = await backend.openAnother();
      try {
        const replacing = store.dictionary.replace(G1, next, ADMIN);
        const seen = await Promise.all(Array.from({ length: 5 }, () => other.dictionary.list(G1)));
        await replacing;
        for (const list of [...seen, await other.dictionary.list(G1)]) {
          const kinds = new Set(list.map((e) => e.reading));
          expect(list).toHaveLength(200);
          expect(kinds.size).toBe(1);
        }
        expect((await other.dictionary.list(G1))[0]?.reading).toBe('n');
      } finally {
        await other.close();
      }
    });

    it("changes the server's version with every change and only then, in any process, and never gives one back", async () => {
      expect(await store.dictionary.version(G1)).toBeUndefined();
      const seen = new Set<string>();
      /** The version now: a new one after a change, the same after anything else. */
      const after = async (change: () => Promise<unknown>, changes: boolean): Promise<void> => {
        const before = await store.dictionary.version(G1);
        await change();
        const now = await store.dictionary.version(G1);
        if (!changes) return void expect(now).toBe(before);
        expect(now).toBeDefined();
        expect(seen.has(now ?? '')).toBe(false);
        seen.add(now ?? '');
      };
      await after(() => store.dictionary.put(G1, 'a', 'A', ADMIN), true);
      await after(() => store.dictionary.put(G1, 'A', 'ay', ADMIN), true);
      await after(() => store.dictionary.put(G1, 'b', 'B', ADMIN), true);
      await after(() => store.dictionary.put(G1, '   ', 'x', ADMIN), false);
      await after(() => store.dictionary.move(G1, 'b', 1, ADMIN), true);
      await after(() => store.dictionary.move(G1, 'nothing', 1, ADMIN), false);
      await after(() => store.dictionary.remove(G1, 'a'), true);
      await after(() => store.dictionary.remove(G1, 'a'), false);
      await after(() => store.dictionary.replace(G1, [{ word: 'c', reading: 'C' }], ADMIN), true);
      await after(() => store.dictionary.replace(G1, [{ word: '', reading: 'C' }], ADMIN), false);
      await after(() => store.dictionary.list(G1), false);
      expect(await store.dictionary.version(G2)).toBeUndefined();
      // Another process's change is seen here, as its entries are.
      const other = await backend.openAnother();
      try {
        await after(() => other.dictionary.put(G1, 'd', 'D', ADMIN), true);
      } finally {
        await other.close();
      }
      // The server's data deleted: its version goes with its entries, and the next one is new.
      await store.privacy.forgetGuild(G1);
      expect(await store.dictionary.version(G1)).toBeUndefined();
      await after(() => store.dictionary.put(G1, 'a', 'A', ADMIN), true);
    });
  });
});
