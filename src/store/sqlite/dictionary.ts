import { MAX_ENTRIES, type DictionaryEntry, entryKey, validateEntries, validateEntry } from '../../text/dictionary.ts';
import { dictionaryEntryOf } from '../rows.ts';
import type { DictionaryStore, PutDictionaryEntryResult, ReplaceDictionaryResult } from '../types.ts';
import type { SqliteDb } from './db.ts';

/** A guild's pronunciation dictionary on SQLite; the rules are src/text/dictionary.ts'. */
export class SqliteDictionary implements DictionaryStore {
  readonly #db: SqliteDb;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  async listDictionary(guildId: string): Promise<DictionaryEntry[]> {
    return this.#list(guildId);
  }

  #list(guildId: string): DictionaryEntry[] {
    return this.#db.all('SELECT word, reading FROM dictionary_entries WHERE guild_id = ? ORDER BY word_key', guildId).map(dictionaryEntryOf);
  }

  async putDictionaryEntry(guildId: string, word: string, reading: string, updatedBy: string): Promise<PutDictionaryEntryResult> {
    const valid = validateEntry(word, reading);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    const entry = valid.value;
    const key = entryKey(entry.word);
    const db = this.#db;
    return db.transaction((): PutDictionaryEntryResult => {
      const now = Date.now();
      if (db.get('SELECT 1 AS x FROM dictionary_entries WHERE guild_id = ? AND word_key = ?', guildId, key)) {
        db.run('UPDATE dictionary_entries SET word = ?, reading = ?, updated_by = ?, updated_at = ? WHERE guild_id = ? AND word_key = ?', entry.word, entry.reading, updatedBy, now, guildId, key);
        return { status: 'replaced', entry };
      }
      const count = Number(db.get('SELECT count(*) AS n FROM dictionary_entries WHERE guild_id = ?', guildId)?.['n'] ?? 0);
      if (count >= MAX_ENTRIES) return { status: 'refused', problem: { code: 'full', params: { max: MAX_ENTRIES } } };
      db.run('INSERT INTO dictionary_entries (guild_id, word_key, word, reading, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)', guildId, key, entry.word, entry.reading, updatedBy, now);
      return { status: 'added', entry };
    });
  }

  async removeDictionaryEntry(guildId: string, word: string): Promise<DictionaryEntry | undefined> {
    const db = this.#db;
    const key = entryKey(word);
    return db.transaction(() => {
      const row = db.get('SELECT word, reading FROM dictionary_entries WHERE guild_id = ? AND word_key = ?', guildId, key);
      if (!row) return undefined;
      db.run('DELETE FROM dictionary_entries WHERE guild_id = ? AND word_key = ?', guildId, key);
      return dictionaryEntryOf(row);
    });
  }

  async replaceDictionary(guildId: string, entries: readonly DictionaryEntry[], updatedBy: string): Promise<ReplaceDictionaryResult> {
    const valid = validateEntries(entries);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    const db = this.#db;
    return db.transaction((): ReplaceDictionaryResult => {
      const now = Date.now();
      db.run('DELETE FROM dictionary_entries WHERE guild_id = ?', guildId);
      for (const entry of valid.value) {
        db.run('INSERT INTO dictionary_entries (guild_id, word_key, word, reading, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)', guildId, entryKey(entry.word), entry.word, entry.reading, updatedBy, now);
      }
      return { status: 'replaced', entries: this.#list(guildId) };
    });
  }
}
