import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, importDictionary } from '../../src/text/dictionary.ts';
import { forEachBackend } from './contract.ts';

const G1 = '200000000000000001';
const G2 = '200000000000000002';
const ADMIN = '300000000000000001';

// The Dictionary area of the store contract (issue 14): a server's words and how to say them.
forEachBackend((store, backend) => {
  describe('pronunciation dictionary', () => {
    it('adds, replaces a word in any case, and lists in word order per guild', async () => {
      expect(await store.dictionary.list(G1)).toEqual([]);
      expect(await store.dictionary.put(G1, 'SayBot', 'say bot', ADMIN)).toEqual({ status: 'added', entry: { word: 'SayBot', reading: 'say bot' } });
      expect((await store.dictionary.put(G1, 'ＡＰＩ', '에이피아이', ADMIN)).status).toBe('added');
      expect((await store.dictionary.put(G1, 'api', 'a p i', ADMIN)).status).toBe('added'); // NFC, not NFKC: another word
      expect((await store.dictionary.put(G1, 'ぬるぽ', 'ガッ', ADMIN)).status).toBe('added');
      // Tidied as validateEntry tidies: spaces folded, ends trimmed.
      expect(await store.dictionary.put(G1, '  saybot ', '  say   bot  ', ADMIN)).toEqual({ status: 'replaced', entry: { word: 'saybot', reading: 'say bot' } });
      expect(await store.dictionary.list(G1)).toEqual([
        { word: 'api', reading: 'a p i' },
        { word: 'saybot', reading: 'say bot' },
        { word: 'ぬるぽ', reading: 'ガッ' },
        { word: 'ＡＰＩ', reading: '에이피아이' },
      ]);
      expect(await store.dictionary.list(G2)).toEqual([]);
    });

    it("refuses what src/text/dictionary.ts refuses, with its problem", async () => {
      expect(await store.dictionary.put(G1, '   ', 'x', ADMIN)).toEqual({ status: 'refused', problem: { code: 'emptyWord', params: {} } });
      expect(await store.dictionary.put(G1, 'word', 'x'.repeat(101), ADMIN)).toMatchObject({ status: 'refused', problem: { code: 'readingTooLong' } });
      expect(await store.dictionary.put(G1, 'a\u0007b', 'x', ADMIN)).toMatchObject({ status: 'refused', problem: { code: 'controlCharacter' } });
      expect(await store.dictionary.list(G1)).toEqual([]);
    });

    it(`holds at most ${MAX_ENTRIES} words per guild, and still replaces one when full`, async () => {
      const full = Array.from({ length: MAX_ENTRIES }, (_, i) => ({ word: `w${i}`, reading: `r${i}` }));
      expect(await store.dictionary.replace(G1, full, ADMIN)).toMatchObject({ status: 'replaced' });
      expect(await store.dictionary.put(G1, 'one more', 'x', ADMIN)).toEqual({ status: 'refused', problem: { code: 'full', params: { max: MAX_ENTRIES } } });
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
      const file = importDictionary(JSON.stringify({ version: 1, entries: [{ word: 'zeta', reading: 'z' }, { word: 'Alpha', reading: 'a' }] }));
      if (!file.ok) throw new Error('the test file should import');
      expect(await store.dictionary.replace(G1, file.value, ADMIN)).toEqual({ status: 'replaced', entries: [{ word: 'Alpha', reading: 'a' }, { word: 'zeta', reading: 'z' }] });
      expect(await store.dictionary.list(G1)).toEqual([{ word: 'Alpha', reading: 'a' }, { word: 'zeta', reading: 'z' }]);

      const before = await store.dictionary.list(G1);
      expect(await store.dictionary.replace(G1, [{ word: 'x', reading: 'y' }, { word: 'X', reading: 'z' }], ADMIN)).toEqual({
        status: 'refused', problem: { code: 'duplicate', params: { entry: 2, first: 1, word: 'X' } },
      });
      expect(await store.dictionary.replace(G1, [{ word: 'ok', reading: 'fine' }, { word: '', reading: 'y' }], ADMIN)).toEqual({
        status: 'refused', problem: { code: 'badEntry', params: { entry: 2, reason: 'emptyWord' } },
      });
      const tooMany = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ word: `w${i}`, reading: 'r' }));
      expect(await store.dictionary.replace(G1, tooMany, ADMIN)).toMatchObject({ status: 'refused', problem: { code: 'tooManyEntries' } });
      expect(await store.dictionary.list(G1)).toEqual(before);

      expect(await store.dictionary.replace(G1, [], ADMIN)).toEqual({ status: 'replaced', entries: [] });
      expect(await store.dictionary.list(G1)).toEqual([]);
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
  });
});
