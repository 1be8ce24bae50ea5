import { MAX_ENTRIES, type DictionaryEntry, entryKey, validateEntries, validateEntry } from '../../text/dictionary.ts';
import { Area, type Db } from '../dialect.ts';
import type { PutDictionaryEntryResult, ReplaceDictionaryResult } from '../dictionary-store.ts';

const dictionaryEntryOf = (row: { word: string; reading: string }): DictionaryEntry => ({ word: row.word, reading: row.reading });

/**
 * A guild's pronunciation dictionary (table dictionary_entries; changes take the lock `dictionary:<guild>`):
 * `store.dictionary`. The rules are src/text/dictionary.ts': entries are validated and tidied by its validateEntry,
 * one per word whatever its case (entryKey), at most MAX_ENTRIES per guild; the problems returned are its codes.
 */
export class DictionaryArea extends Area {
  /** The guild's entries in word order (by entryKey, code point order), as stored (tidied). */
  async list(guildId: string): Promise<DictionaryEntry[]> {
    return this.#list(this.d.db, guildId);
  }

  async #list(db: Db, guildId: string): Promise<DictionaryEntry[]> {
    const rows = await db.selectFrom('dictionary_entries').select(['word', 'reading']).where('guild_id', '=', guildId).orderBy(this.d.byCodePoint('word_key')).execute();
    return rows.map(dictionaryEntryOf);
  }

  /**
   * Adds `word` -> `reading`, or replaces the reading of that word (any case; the word is stored as typed this
   * time). Refused when invalid, or when a new word would pass MAX_ENTRIES ('full').
   */
  async put(guildId: string, word: string, reading: string, updatedBy: string): Promise<PutDictionaryEntryResult> {
    const valid = validateEntry(word, reading);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    const entry = valid.value;
    const key = entryKey(entry.word);
    return this.d.transaction(`dictionary:${guildId}`, async (trx): Promise<PutDictionaryEntryResult> => {
      const values = { word: entry.word, reading: entry.reading, updated_by: updatedBy, updated_at: Date.now() };
      const replaced = await trx.updateTable('dictionary_entries').set(values).where('guild_id', '=', guildId).where('word_key', '=', key).executeTakeFirst();
      if (replaced.numUpdatedRows > 0n) return { status: 'replaced', entry };
      const { n } = await trx.selectFrom('dictionary_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('guild_id', '=', guildId).executeTakeFirstOrThrow();
      if (Number(n) >= MAX_ENTRIES) return { status: 'refused', problem: { code: 'full', params: { max: MAX_ENTRIES } } };
      await trx.insertInto('dictionary_entries').values({ guild_id: guildId, word_key: key, ...values }).execute();
      return { status: 'added', entry };
    });
  }

  /** Removes the word (any case); the entry removed, or undefined when there was none. */
  async remove(guildId: string, word: string): Promise<DictionaryEntry | undefined> {
    const row = await this.d.db.deleteFrom('dictionary_entries').where('guild_id', '=', guildId).where('word_key', '=', entryKey(word))
      .returning(['word', 'reading']).executeTakeFirst();
    return row && dictionaryEntryOf(row);
  }

  /**
   * Replaces the whole dictionary with `entries` (an import) in one transaction: all of them or, when any is
   * refused (validateEntries: 'tooManyEntries', 'badEntry', 'duplicate'), nothing changes.
   */
  async replace(guildId: string, entries: readonly DictionaryEntry[], updatedBy: string): Promise<ReplaceDictionaryResult> {
    const valid = validateEntries(entries);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    return this.d.transaction(`dictionary:${guildId}`, async (trx): Promise<ReplaceDictionaryResult> => {
      const now = Date.now();
      await trx.deleteFrom('dictionary_entries').where('guild_id', '=', guildId).execute();
      for (const entry of valid.value) {
        await trx.insertInto('dictionary_entries')
          .values({ guild_id: guildId, word_key: entryKey(entry.word), word: entry.word, reading: entry.reading, updated_by: updatedBy, updated_at: now }).execute();
      }
      return { status: 'replaced', entries: await this.#list(trx, guildId) };
    });
  }
}
