import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log.ts';
import type { CachedAudio } from './audio-fill.ts';
import { decodeEntry, encodeEntry } from './entry-file.ts';

export interface AudioCacheOptions {
  dir: string;
  /** Total size of the entries at most; the least recently used go first. 0: nothing is kept. */
  maxBytes: number;
  logger: Logger;
}

interface IndexEntry {
  file: string;
  voiceDir: string;
  bytes: number;
}

const ENTRY = /^([0-9a-f]{64})\.sbc$/;
const TEMP = /\.tmp$/;

/**
 * The folder a voice's entries live in: its ID when that is a plain lower-case name (operators can see which
 * voice is which), else a hash. One folder per voice makes purging a deleted voice one removal.
 */
function voiceDirOf(voice: string): string {
  return /^[a-z0-9_-]{1,64}$/.test(voice) ? voice : `h-${createHash('sha256').update(voice).digest('hex').slice(0, 32)}`;
}

/**
 * Finished audio parts on disk, one file per part under `<dir>/<voice>/<key>.sbc`, at most `maxBytes` in all.
 *
 * - Restarts: the index is rebuilt from the directory at open (name = key, size, last use = mtime, which a
 *   hit refreshes), so nothing else has to be kept in step with it.
 * - Crashes: an entry is written to a temporary file, fsynced, then renamed over its name, so a name only ever
 *   holds a whole entry; leftover temporary files are removed at open. Each read still checks the entry's
 *   checksum (a disk or an operator can damage files too): a bad entry is deleted and counts as a miss.
 * - Eviction: least recently used first, in memory (Map order), after every write that passes the cap.
 */
export class AudioCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #log: Logger;
  /** Least recently used first. */
  readonly #index = new Map<string, IndexEntry>();
  #bytes = 0;
  /** Bumped when a voice is purged, so a fill that started before cannot put its entry back afterwards. */
  readonly #generations = new Map<string, number>();
  readonly #pending = new Set<Promise<unknown>>();

  private constructor(options: AudioCacheOptions) {
    this.#dir = path.resolve(options.dir);
    this.#maxBytes = options.maxBytes;
    this.#log = options.logger.child({ component: 'audio-cache' });
  }

  static async open(options: AudioCacheOptions): Promise<AudioCache> {
    const cache = new AudioCache(options);
    if (options.maxBytes > 0) await cache.#load();
    return cache;
  }

  get enabled(): boolean {
    return this.#maxBytes > 0;
  }

  /** Entries and their total size in bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#index.size, bytes: this.#bytes };
  }

  async #load(): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const found: Array<IndexEntry & { key: string; usedAt: number }> = [];
    for (const voiceDir of await readdir(this.#dir, { withFileTypes: true })) {
      if (!voiceDir.isDirectory()) continue;
      const folder = path.join(this.#dir, voiceDir.name);
      for (const name of await readdir(folder)) {
        const file = path.join(folder, name);
        if (TEMP.test(name)) {
          // A write that never finished (the process died between creating and renaming it).
          await unlink(file).catch(() => undefined);
          continue;
        }
        const key = ENTRY.exec(name)?.[1];
        if (key === undefined) continue;
        const info = await stat(file).catch(() => undefined);
        if (info) found.push({ key, file, voiceDir: voiceDir.name, bytes: info.size, usedAt: info.mtimeMs });
      }
    }
    found.sort((a, b) => a.usedAt - b.usedAt);
    for (const { key, file, voiceDir, bytes } of found) {
      this.#index.set(key, { file, voiceDir, bytes });
      this.#bytes += bytes;
    }
    await this.#evict();
    this.#log.info({ dir: this.#dir, entries: this.#index.size, bytes: this.#bytes, maxBytes: this.#maxBytes }, 'audio cache open');
  }

  has(key: string): boolean {
    return this.#index.has(key);
  }

  /** The entry, verified; undefined when absent or unusable (which is then deleted). Counts as a use. */
  async get(key: string): Promise<CachedAudio | undefined> {
    const entry = this.#index.get(key);
    if (!entry) return undefined;
    try {
      const { voice: _voice, ...audio } = decodeEntry(await readFile(entry.file), key);
      this.#index.delete(key);
      this.#index.set(key, entry);
      const now = new Date();
      // The file's mtime is its last use, for the order after a restart; losing one touch costs nothing.
      this.#track(utimes(entry.file, now, now).catch(() => undefined));
      return audio;
    } catch (error) {
      this.#log.warn({ err: error, key }, 'cache entry unusable: deleted, will be fetched again');
      this.#forget(key, entry);
      await unlink(entry.file).catch(() => undefined);
      return undefined;
    }
  }

  /** A token to pass to put(): a purge of the voice in between makes that put a no-op. */
  generation(voice: string): number {
    return this.#generations.get(voiceDirOf(voice)) ?? 0;
  }

  /** Stores a finished part. Failures are logged, never thrown: a cache that cannot write is only slower. */
  put(key: string, voice: string, audio: CachedAudio, generation: number): Promise<void> {
    const task = this.#put(key, voice, audio, generation).catch((error: unknown) => this.#log.warn({ err: error, key }, 'could not write cache entry'));
    this.#track(task);
    return task;
  }

  async #put(key: string, voice: string, audio: CachedAudio, generation: number): Promise<void> {
    if (!this.enabled || this.generation(voice) !== generation) return;
    const data = encodeEntry(key, voice, audio);
    if (data.length > this.#maxBytes) return;
    const voiceDir = voiceDirOf(voice);
    const folder = path.join(this.#dir, voiceDir);
    const file = path.join(folder, `${key}.sbc`);
    const temp = `${file}.${randomUUID()}.tmp`;
    await mkdir(folder, { recursive: true });
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    if (this.generation(voice) !== generation) {
      // The voice was purged while this was being written.
      await unlink(file).catch(() => undefined);
      return;
    }
    const previous = this.#index.get(key);
    if (previous) this.#forget(key, previous);
    this.#index.set(key, { file, voiceDir, bytes: data.length });
    this.#bytes += data.length;
    await this.#evict();
  }

  async #evict(): Promise<void> {
    while (this.#bytes > this.#maxBytes) {
      const oldest = this.#index.entries().next().value;
      if (!oldest) return;
      const [key, entry] = oldest;
      this.#forget(key, entry);
      this.#log.debug({ key, bytes: entry.bytes }, 'cache entry evicted (least recently used)');
      await unlink(entry.file).catch(() => undefined);
    }
  }

  #forget(key: string, entry: IndexEntry): void {
    if (this.#index.get(key) !== entry) return;
    this.#index.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Removes every entry of a voice (a cloned voice being deleted); returns how many. */
  async purgeVoice(voice: string): Promise<number> {
    const voiceDir = voiceDirOf(voice);
    this.#generations.set(voiceDir, this.generation(voice) + 1);
    let removed = 0;
    for (const [key, entry] of [...this.#index]) {
      if (entry.voiceDir !== voiceDir) continue;
      this.#forget(key, entry);
      removed++;
    }
    if (this.enabled) await rm(path.join(this.#dir, voiceDir), { recursive: true, force: true });
    this.#log.info({ voice, removed }, 'cache entries of a deleted voice purged');
    return removed;
  }

  #track(task: Promise<unknown>): void {
    this.#pending.add(task);
    void task.finally(() => this.#pending.delete(task));
  }

  /** Waits for the writes under way, so that a restart finds them whole. */
  async close(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
