// Each server's dictionary compiled once per change and kept while its entries are unchanged (a change anywhere is
// seen); the Speak menu asks by the store's version instead. Bounded by MAX_CACHED_DICTIONARIES, least used out.
import { compileDictionary, isPattern, type DictionaryEntry } from './dictionary.ts';
import { applyOffThread } from './dictionary-thread.ts';

/** Servers whose compiled dictionary is kept; a reading server also keeps its own while it reads. */
export const MAX_CACHED_DICTIONARIES = 100;

/** A server's dictionary, ready to apply. */
export interface ServerDictionary {
  /** `texts` as the dictionary says them, in their order; rejects with DictionaryUnavailableError when it cannot run now. */
  say(texts: readonly string[]): Promise<string[]>;
  /** It has no entries: it says every text as it is. */
  readonly empty: boolean;
}

/** Dictionaries compiled in this process, numbered: the worker keeps them by number. */
let compiledCount = 0;

function prepare(guildId: string, entries: readonly DictionaryEntry[]): ServerDictionary {
  const empty = entries.length === 0;
  if (!entries.some(isPattern)) {
    const apply = compileDictionary(entries);
    return { say: (texts) => Promise.resolve(texts.map(apply)), empty };
  }
  const number = (compiledCount += 1);
  return { say: (texts) => applyOffThread(number, entries, texts, guildId), empty };
}

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
  readonly #byGuild = new Map<
    string,
    {
      entries: readonly DictionaryEntry[];
      compiled: ServerDictionary;
      /** The store's version of the entries when they were read (current()); none when given by a caller. */
      version?: string;
    }
  >();

  constructor(max = MAX_CACHED_DICTIONARIES) {
    this.#max = max;
  }

  get size(): number {
    return this.#byGuild.size;
  }

  /** The server's dictionary for `entries`, compiled now only when they differ from the ones last compiled. */
  compiled(guildId: string, entries: readonly DictionaryEntry[]): ServerDictionary {
    const cached = this.#byGuild.get(guildId);
    this.#byGuild.delete(guildId);
    const kept =
      cached && sameEntries(cached.entries, entries)
        ? cached
        : (() => {
            const copy = entries.map((entry) => ({ ...entry }));
            return { entries: copy, compiled: prepare(guildId, copy) };
          })();
    this.#byGuild.set(guildId, kept);
    for (const guild of this.#byGuild.keys()) {
      if (this.#byGuild.size <= this.#max) break;
      this.#byGuild.delete(guild);
    }
    return kept.compiled;
  }

  /** The store's dictionary: `read` only when `version` changed; read first, so the version is never the newer. */
  async current(
    guildId: string,
    version: string | undefined,
    read: () => Promise<readonly DictionaryEntry[]>,
  ): Promise<ServerDictionary> {
    const cached = this.#byGuild.get(guildId);
    if (version !== undefined && cached?.version === version) {
      this.#byGuild.delete(guildId);
      this.#byGuild.set(guildId, cached);
      return cached.compiled;
    }
    const compiled = this.compiled(guildId, await read());
    const kept = this.#byGuild.get(guildId);
    if (kept?.compiled === compiled) {
      if (version === undefined) delete kept.version;
      else kept.version = version;
    }
    return compiled;
  }
}

/** The one cache of this process: auto-read and the Speak menu share it. */
export const dictionaries = new DictionaryCache();
