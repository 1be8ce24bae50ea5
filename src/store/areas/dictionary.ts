import { MAX_ENTRIES, type DictionaryEntry, entryKey, validateEntries, validateEntry } from '../../text/dictionary.ts';
import { Area, type Db } from '../dialect.ts';
import { dictionaryEntryOf } from '../rows.ts';
import type { DictionaryStore, PutDictionaryEntryResult, ReplaceDictionaryResult } from '../types.ts';

/** A guild's pronunciation dictionary (the rules are src/text/dictionary.ts'); changes take the lock `dictionary:<guild>`. */
export class DictionaryArea extends Area implements DictionaryStore {
  async list(guildId: string): Promise<DictionaryEntry[]> {
    return this.#list(this.d.db, guildId);
  }

  async #list(db: Db, guildId: string): Promise<DictionaryEntry[]> {
    const rows = await db.selectFrom('dictionary_entries').select(['word', 'reading']).where('guild_id', '=', guildId).orderBy(this.d.byCodePoint('word_key')).execute();
    return rows.map(dictionaryEntryOf);
  }

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

  async remove(guildId: string, word: string): Promise<DictionaryEntry | undefined> {
    const row = await this.d.db.deleteFrom('dictionary_entries').where('guild_id', '=', guildId).where('word_key', '=', entryKey(word))
      .returning(['word', 'reading']).executeTakeFirst();
    return row && dictionaryEntryOf(row);
  }

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
