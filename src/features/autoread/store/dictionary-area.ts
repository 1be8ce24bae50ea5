import { randomUUID } from 'node:crypto';
import { MAX_ENTRIES, MAX_PATTERNS } from '../dictionary/dictionary-limits.ts';
import { type DictionaryEntry, type EntryName, isPattern, keyOf, keyOfEntry } from '../dictionary/dictionary.ts';
import { validateEntriesOffThread, validateEntryOffThread } from '../dictionary/dictionary-thread.ts';
import { Area, type Db } from '../../../core/store/dialect.ts';
import type {
  DictionaryRecord,
  MoveDictionaryEntryResult,
  PutDictionaryEntryResult,
  ReplaceDictionaryResult,
} from './dictionary-store.ts';

type Row = { kind: 'word' | 'pattern'; word: string; reading: string };
const dictionaryEntryOf = (row: Row): DictionaryEntry =>
  row.kind === 'pattern' ? { pattern: row.word, reading: row.reading } : { word: row.word, reading: row.reading };
const columnsOf = (entry: DictionaryEntry) =>
  isPattern(entry)
    ? { kind: 'pattern' as const, word: entry.pattern, reading: entry.reading }
    : { kind: 'word' as const, word: entry.word, reading: entry.reading };

/** A guild's dictionary (lock `dictionary:<guild>`); every change writes its version in the same transaction. */
export class DictionaryArea extends Area {
  /** A token changing with every change of the guild's entries, never coming back; undefined when there is none. */
  async version(guildId: string): Promise<string | undefined> {
    const row = await this.d.db
      .selectFrom('dictionary_versions')
      .select('version')
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return row?.version;
  }

  /** A new version for the guild, in the change's transaction. */
  async #changed(db: Db, guildId: string): Promise<void> {
    const version = randomUUID();
    await db
      .insertInto('dictionary_versions')
      .values({ guild_id: guildId, version })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet({ version }))
      .execute();
  }

  /** The guild's entries in the order they apply, as stored (tidied). */
  async list(guildId: string): Promise<DictionaryEntry[]> {
    return this.#list(this.d.db, guildId);
  }

  /** The guild's entries in order, each with who changed it last and when (the dashboard's table). */
  async listWithChanges(guildId: string): Promise<DictionaryRecord[]> {
    const rows = await this.d.db
      .selectFrom('dictionary_entries')
      .select(['kind', 'word', 'reading', 'updated_by', 'updated_at'])
      .where('guild_id', '=', guildId)
      .orderBy('position')
      .orderBy(this.d.byCodePoint('word_key'))
      .execute();
    return rows.map((row) => ({
      entry: dictionaryEntryOf(row),
      updatedBy: row.updated_by,
      updatedAt: Number(row.updated_at),
    }));
  }

  async #list(db: Db, guildId: string): Promise<DictionaryEntry[]> {
    const rows = await db
      .selectFrom('dictionary_entries')
      .select(['kind', 'word', 'reading'])
      .where('guild_id', '=', guildId)
      .orderBy('position')
      .orderBy(this.d.byCodePoint('word_key'))
      .execute();
    return rows.map(dictionaryEntryOf);
  }

  /** Adds an entry at the end, or replaces the reading of that entry where it stands; refused when invalid or full. */
  async put(guildId: string, name: EntryName, reading: string, updatedBy: string): Promise<PutDictionaryEntryResult> {
    const valid = await validateEntryOffThread(name, reading, guildId);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    const entry = valid.value;
    const key = keyOfEntry(entry);
    return this.d.transaction(`dictionary:${guildId}`, async (trx): Promise<PutDictionaryEntryResult> => {
      const values = { ...columnsOf(entry), updated_by: updatedBy, updated_at: Date.now() };
      const replaced = await trx
        .updateTable('dictionary_entries')
        .set(values)
        .where('guild_id', '=', guildId)
        .where('word_key', '=', key)
        .executeTakeFirst();
      if (replaced.numUpdatedRows > 0n) {
        await this.#changed(trx, guildId);
        return { status: 'replaced', entry };
      }
      const counts = await trx
        .selectFrom('dictionary_entries')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max<number | null>('position').as('last')])
        .where('guild_id', '=', guildId)
        .executeTakeFirstOrThrow();
      if (Number(counts.n) >= MAX_ENTRIES)
        return { status: 'refused', problem: { code: 'full', params: { max: MAX_ENTRIES } } };
      if (isPattern(entry)) {
        const { n } = await trx
          .selectFrom('dictionary_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('guild_id', '=', guildId)
          .where('kind', '=', 'pattern')
          .executeTakeFirstOrThrow();
        if (Number(n) >= MAX_PATTERNS)
          return { status: 'refused', problem: { code: 'patternsFull', params: { max: MAX_PATTERNS } } };
      }
      await trx
        .insertInto('dictionary_entries')
        .values({ guild_id: guildId, word_key: key, position: Number(counts.last ?? 0) + 1, ...values })
        .execute();
      await this.#changed(trx, guildId);
      return { status: 'added', entry };
    });
  }

  /** Removes the entry (a word in any case, or `{ pattern }`); the entry removed, or undefined when there was none. */
  async remove(guildId: string, name: EntryName): Promise<DictionaryEntry | undefined> {
    return this.d.transaction(`dictionary:${guildId}`, async (trx) => {
      const row = await trx
        .deleteFrom('dictionary_entries')
        .where('guild_id', '=', guildId)
        .where('word_key', '=', keyOf(name))
        .returning(['kind', 'word', 'reading'])
        .executeTakeFirst();
      if (!row) return undefined;
      await this.#changed(trx, guildId);
      return dictionaryEntryOf(row);
    });
  }

  /** Moves the entry to `position` (from 1); the whole order after it, or 'unknown'. */
  async move(
    guildId: string,
    name: EntryName,
    position: number,
    updatedBy: string,
  ): Promise<MoveDictionaryEntryResult> {
    const key = keyOf(name);
    return this.d.transaction(`dictionary:${guildId}`, async (trx): Promise<MoveDictionaryEntryResult> => {
      const keys = (
        await trx
          .selectFrom('dictionary_entries')
          .select('word_key')
          .where('guild_id', '=', guildId)
          .orderBy('position')
          .orderBy(this.d.byCodePoint('word_key'))
          .execute()
      ).map((row) => row.word_key);
      const from = keys.indexOf(key);
      if (from === -1) return { status: 'unknown' };
      keys.splice(from, 1);
      const to = Math.min(Math.max(1, Math.trunc(position)), keys.length + 1) - 1;
      keys.splice(to, 0, key);
      const now = Date.now();
      for (const [index, each] of keys.entries()) {
        const set =
          each === key ? { position: index + 1, updated_by: updatedBy, updated_at: now } : { position: index + 1 };
        await trx
          .updateTable('dictionary_entries')
          .set(set)
          .where('guild_id', '=', guildId)
          .where('word_key', '=', each)
          .execute();
      }
      await this.#changed(trx, guildId);
      return { status: 'moved', position: to + 1, entries: await this.#list(trx, guildId) };
    });
  }

  /** Replaces the whole dictionary (an import) in one transaction: all of `entries`, or nothing when one is refused. */
  async replace(
    guildId: string,
    entries: readonly DictionaryEntry[],
    updatedBy: string,
  ): Promise<ReplaceDictionaryResult> {
    const valid = await validateEntriesOffThread(entries, guildId);
    if (!valid.ok) return { status: 'refused', problem: valid.problem };
    return this.d.transaction(`dictionary:${guildId}`, async (trx): Promise<ReplaceDictionaryResult> => {
      const now = Date.now();
      await trx.deleteFrom('dictionary_entries').where('guild_id', '=', guildId).execute();
      for (const [index, entry] of valid.value.entries()) {
        await trx
          .insertInto('dictionary_entries')
          .values({
            guild_id: guildId,
            word_key: keyOfEntry(entry),
            ...columnsOf(entry),
            position: index + 1,
            updated_by: updatedBy,
            updated_at: now,
          })
          .execute();
      }
      await this.#changed(trx, guildId);
      return { status: 'replaced', entries: await this.#list(trx, guildId) };
    });
  }
}
