// Each server's dictionary compiled once per change and kept, so that neither a read message nor a Speak compiles
// it again: a compiled dictionary is reused while the server's entries are the ones it was compiled from (compared
// entry by entry, so a change made anywhere — a command, an import, another shard, a deletion — is seen at once).
// Bounded: the servers used least recently are forgotten past MAX_CACHED_DICTIONARIES.
import { compileDictionary, isPattern, type DictionaryEntry } from './dictionary.ts';

/** Servers whose compiled dictionary is kept; a reading server also keeps its own while it reads. */
export const MAX_CACHED_DICTIONARIES = 100;

export type CompiledDictionary = (text: string) => string;

const sameEntry = (a: DictionaryEntry, b: DictionaryEntry): boolean =>
  a.reading === b.reading &&
  (isPattern(a) ? isPattern(b) && a.pattern === b.pattern : !isPattern(b) && a.word === b.word);

const sameEntries = (a: readonly DictionaryEntry[], b: readonly DictionaryEntry[]): boolean =>
  a.length === b.length &&
  a.every((entry, i) => {
    const other = b[i];
    return other !== undefined && sameEntry(entry, other);
  });

export class DictionaryCache {
  readonly #max: number;
  /** By server, the least recently used first (a Map keeps insertion order). */
  readonly #byGuild = new Map<string, { entries: readonly DictionaryEntry[]; compiled: CompiledDictionary }>();

  constructor(max = MAX_CACHED_DICTIONARIES) {
    this.#max = max;
  }

  get size(): number {
    return this.#byGuild.size;
  }

  /** The server's dictionary for `entries`, compiled now only when they differ from the ones last compiled. */
  compiled(guildId: string, entries: readonly DictionaryEntry[]): CompiledDictionary {
    const cached = this.#byGuild.get(guildId);
    this.#byGuild.delete(guildId);
    const kept =
      cached && sameEntries(cached.entries, entries)
        ? cached
        : { entries: entries.map((entry) => ({ ...entry })), compiled: compileDictionary(entries) };
    this.#byGuild.set(guildId, kept);
    for (const guild of this.#byGuild.keys()) {
      if (this.#byGuild.size <= this.#max) break;
      this.#byGuild.delete(guild);
    }
    return kept.compiled;
  }
}

/** The one cache of this process: auto-read and the Speak menu share it. */
export const dictionaries = new DictionaryCache();
