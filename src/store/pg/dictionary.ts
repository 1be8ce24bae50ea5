import { MAX_ENTRIES, type DictionaryEntry, entryKey, validateEntries, validateEntry } from '../../text/dictionary.ts';
import { dictionaryEntryOf, num } from '../rows.ts';
import type { DictionaryStore, PutDictionaryEntryResult, ReplaceDictionaryResult } from '../types.ts';
import type { PgDb, PgQueries } from './db.ts';

const LIST = 'SELECT word, reading FROM dictionary_entries WHERE guild_id = $1 ORDER BY word_key COLLATE "C"';
const INSERT = 'INSERT INTO dictionary_entries (guild_id, word_key, word, reading, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6)';

/** A guild's pronunciation dictionary on PostgreSQL; changes take the lock `dictionary:<guild>` (the count check). */
export class PgDictionary implements DictionaryStore {
  readonly #db: PgDb;

  constructor(db: PgDb) {
    this.#db = db;
  }

  async listDictionary(guildId: string): Promise<DictionaryEntry[]> {
    return this.#list(this.#db, guildId);
  }

  async #list(db: PgQueries, guildId: string): Promise<DictionaryEntry[]> {
    return (await db.all(LIST, [guildId])).map(dictionaryEntryOf);
  }

  async putDictionaryEntry(guildId: string, word: string, reading: string, updatedBy: string): Promise<PutDictionaryEntryResult> {
    const valid = validateEntry(word, reading);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    const entry = valid.value;
    const key = entryKey(entry.word);
    return this.#db.transaction(`dictionary:${guildId}`, async (db): Promise<PutDictionaryEntryResult> => {
      const now = Date.now();
      const replaced = await db.run(
        'UPDATE dictionary_entries SET word = $1, reading = $2, updated_by = $3, updated_at = $4 WHERE guild_id = $5 AND word_key = $6',
        [entry.word, entry.reading, updatedBy, now, guildId, key],
      );
      if (replaced > 0) return { status: 'replaced', entry };
      const count = num((await db.get('SELECT count(*) AS n FROM dictionary_entries WHERE guild_id = $1', [guildId]))?.['n']) ?? 0;
      if (count >= MAX_ENTRIES) return { status: 'refused', problem: { code: 'full', params: { max: MAX_ENTRIES } } };
      await db.run(INSERT, [guildId, key, entry.word, entry.reading, updatedBy, now]);
      return { status: 'added', entry };
    });
  }

  async removeDictionaryEntry(guildId: string, word: string): Promise<DictionaryEntry | undefined> {
    const row = await this.#db.get('DELETE FROM dictionary_entries WHERE guild_id = $1 AND word_key = $2 RETURNING word, reading', [guildId, entryKey(word)]);
    return row && dictionaryEntryOf(row);
  }

  async replaceDictionary(guildId: string, entries: readonly DictionaryEntry[], updatedBy: string): Promise<ReplaceDictionaryResult> {
    const valid = validateEntries(entries);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    return this.#db.transaction(`dictionary:${guildId}`, async (db): Promise<ReplaceDictionaryResult> => {
      const now = Date.now();
      await db.run('DELETE FROM dictionary_entries WHERE guild_id = $1', [guildId]);
      for (const entry of valid.value) await db.run(INSERT, [guildId, entryKey(entry.word), entry.word, entry.reading, updatedBy, now]);
      return { status: 'replaced', entries: await this.#list(db, guildId) };
    });
  }
}
