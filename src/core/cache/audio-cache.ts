// The audio cache on disk: the entries it is given by key (the key decided by src/core/sourcing/part-request.ts),
// where they are kept, and what is evicted first.
import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { ensureWritableFolder } from '../data-folder.ts';
import type { Logger } from '../log.ts';
import type { CachedAudio } from './audio-fill.ts';
import { CorruptEntryError, entryPieces, readEntryFile } from './entry-file.ts';

interface AudioCacheOptions {
  dir: string;
  /** Total size of the entries at most; the least recently used go first. 0: nothing is kept. */
  maxBytes: number;
  logger: Logger;
  /** Other processes share the directory: a write rescans it when past the cap or its last scan is this old. */
  rescanAfterMs?: number;
}

interface IndexEntry {
  file: string;
  voiceDir: string;
  bytes: number;
}

interface FoundEntry extends IndexEntry {
  key: string;
  usedAt: number;
}

const ENTRY = /^([0-9a-f]{64})\.sbc$/;
const TEMP = /\.tmp$/;
/** A temporary file this old was left by a process that died mid-write; a younger one may be a write under way. */
const STALE_TEMP_MS = 10 * 60_000;
/** Eviction goes this far below the cap, so that the writes after it do not each need a directory scan. */
const LOW_WATER = 0.9;
/** Room a full disk gets back beyond the failed entry: SQLite's write-ahead log (the spend ledger) needs 4 MiB. */
const DISK_FULL_HEADROOM_BYTES = 4 * 1024 * 1024;
const SCAN_BATCH = 64;

const isMissing = (error: unknown): boolean => (error as { code?: unknown } | undefined)?.code === 'ENOENT';

/** Within any system's limit of buffers for one vectored write (IOV_MAX). */
const PIECES_PER_WRITE = 1024;

/** `pieces` written as they are, never joined; a short write goes on from where it stopped, to meet the error. */
async function writeAll(handle: FileHandle, pieces: readonly Buffer[]): Promise<void> {
  let left = pieces.slice();
  while (left.length > 0) {
    const batch = left.slice(0, PIECES_PER_WRITE);
    let { bytesWritten } = await handle.writev(batch);
    if (bytesWritten === 0) throw new Error('cache entry: the file took no more bytes');
    left = left.slice(batch.length);
    const rest: Buffer[] = [];
    for (const piece of batch) {
      if (bytesWritten >= piece.length) bytesWritten -= piece.length;
      else {
        rest.push(piece.subarray(bytesWritten));
        bytesWritten = 0;
      }
    }
    left = [...rest, ...left];
  }
}

/** Written to its own temporary file, fsynced and renamed; removed on failure, so a full disk is not left fuller. */
async function writeWhole(folder: string, temp: string, file: string, pieces: Buffer[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  const handle = await open(temp, 'wx');
  try {
    try {
      await writeAll(handle, pieces);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** A voice's folder: its ID when plain (operators can read it), else a hash; a purge is one removal. */
export function voiceDirOf(voice: string): string {
  return /^[a-z0-9_-]{1,64}$/.test(voice)
    ? voice
    : `h-${createHash('sha256').update(voice).digest('hex').slice(0, 32)}`;
}

/** Finished parts on disk, `<dir>/<voice>/<key>.sbc`, at most `maxBytes` in all. Processes (shards) may share the
 * directory: the disk is the truth, each index a cache of it, rebuilt at open (last use = mtime). A name only ever
 * holds a whole entry (temp file, fsync, rename); each read checks the checksum and deletes a bad entry. Eviction is
 * least recently used first by mtime, which every process's hits refresh; a reader reads from its open descriptor,
 * so an eviction never cuts a read short. */
export class AudioCache {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #rescanAfterMs: number;
  readonly #log: Logger;
  readonly #index = new Map<string, IndexEntry>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #scannedAt = 0;
  #evicting: Promise<void> | undefined;
  /** Bumped when a voice is purged, so a fill that started before cannot put its entry back afterwards. */
  readonly #generations = new Map<string, number>();
  readonly #pending = new Set<Promise<unknown>>();
  #writeFailures = 0;

  private constructor(options: AudioCacheOptions) {
    this.#dir = path.resolve(options.dir);
    this.#maxBytes = options.maxBytes;
    this.#rescanAfterMs = options.rescanAfterMs ?? 30_000;
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

  get maxBytes(): number {
    return this.#maxBytes;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#index.size, bytes: this.#bytes };
  }

  async #load(): Promise<void> {
    ensureWritableFolder(this.#dir, 'CACHE_DIR');
    this.#adopt(await this.#scan(true));
    await this.#evict();
    this.#log.info(
      { dir: this.#dir, entries: this.#index.size, bytes: this.#bytes, maxBytes: this.#maxBytes },
      'audio cache open',
    );
  }

  /** Every entry on disk, whoever wrote it; with `removeStaleTemps`, dead processes' unfinished writes go. */
  async #scan(removeStaleTemps: boolean): Promise<FoundEntry[]> {
    const found: FoundEntry[] = [];
    const now = Date.now();
    for (const voiceDir of await readdir(this.#dir, { withFileTypes: true }).catch(() => [])) {
      if (!voiceDir.isDirectory()) continue;
      const folder = path.join(this.#dir, voiceDir.name);
      // Another process may remove a folder (a purge) while this one reads it.
      const names = await readdir(folder).catch(() => [] as string[]);
      // Stats in batches: one at a time, a scan of 20,000 entries takes several times longer.
      for (let i = 0; i < names.length; i += SCAN_BATCH) {
        await Promise.all(
          names.slice(i, i + SCAN_BATCH).map(async (name) => {
            const file = path.join(folder, name);
            const key = ENTRY.exec(name)?.[1];
            if (key === undefined && !(removeStaleTemps && TEMP.test(name))) return;
            const info = await stat(file).catch(() => undefined);
            if (!info) return;
            if (key !== undefined)
              found.push({ key, file, voiceDir: voiceDir.name, bytes: info.size, usedAt: info.mtimeMs });
            else if (now - info.mtimeMs > STALE_TEMP_MS) await unlink(file).catch(() => undefined);
          }),
        );
      }
    }
    return found;
  }

  #adopt(found: FoundEntry[]): void {
    found.sort((a, b) => a.usedAt - b.usedAt);
    this.#index.clear();
    this.#bytes = 0;
    for (const { key, file, voiceDir, bytes } of found) {
      this.#index.set(key, { file, voiceDir, bytes });
      this.#bytes += bytes;
    }
    this.#scannedAt = Date.now();
  }

  /** Whether the key has an entry, here or on disk (a miss costs one stat: the voice names the folder). */
  async has(key: string, voice: string): Promise<boolean> {
    if (!this.enabled) return false;
    const entry = this.#index.get(key) ?? (await this.#locate(key, voice));
    // Counted as cached from here: marked used, so no eviction (this process's or another's) takes it first.
    if (entry) this.#touch(entry);
    return entry !== undefined;
  }

  async #locate(key: string, voice: string): Promise<IndexEntry | undefined> {
    const voiceDir = voiceDirOf(voice);
    const file = path.join(this.#dir, voiceDir, `${key}.sbc`);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    // Another lookup of the same key may have found it while this one waited.
    const known = this.#index.get(key);
    if (known) return known;
    const entry = { file, voiceDir, bytes: info.size };
    this.#index.set(key, entry);
    this.#bytes += info.size;
    return entry;
  }

  #touch(entry: IndexEntry): void {
    const now = new Date();
    // The file's mtime is its last use, for every process's eviction order; losing one touch costs nothing.
    this.#track(utimes(entry.file, now, now).catch(() => undefined));
  }

  /** The entry, verified; undefined when absent or unusable (which is then deleted). Counts as a use. */
  async get(key: string, voice: string): Promise<CachedAudio | undefined> {
    if (!this.enabled) return undefined;
    const found = await this.#read(key, voice);
    if (found === undefined) this.#misses += 1;
    else this.#hits += 1;
    return found;
  }

  get lookups(): { hits: number; misses: number } {
    return { hits: this.#hits, misses: this.#misses };
  }

  async #read(key: string, voice: string): Promise<CachedAudio | undefined> {
    const entry = this.#index.get(key) ?? (await this.#locate(key, voice));
    if (!entry) return undefined;
    let read: (CachedAudio & { voice: string }) | CorruptEntryError;
    let inode: number;
    try {
      // Opened first, then read from the descriptor: an eviction elsewhere from here on unlinks the name, not the data.
      const handle = await open(entry.file, 'r');
      try {
        const info = await handle.stat();
        inode = info.ino;
        read = await readEntryFile(handle, info.size, key).catch((error: unknown) => {
          if (error instanceof CorruptEntryError) return error;
          throw error;
        });
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.#forget(key, entry);
      if (isMissing(error)) this.#log.debug({ key }, 'cache entry removed by another process: a miss');
      else this.#log.warn({ err: error, key }, 'cache entry unreadable: a miss');
      return undefined;
    }
    if (read instanceof CorruptEntryError) {
      this.#log.warn({ err: read, key }, 'cache entry unusable: deleted, will be fetched again');
      this.#forget(key, entry);
      // Only the file that was read: another process may have renamed a whole entry over the name meanwhile.
      if ((await stat(entry.file).catch(() => undefined))?.ino === inode)
        await unlink(entry.file).catch(() => undefined);
      return undefined;
    }
    const { voice: _voice, ...audio } = read;
    this.#index.delete(key);
    this.#index.set(key, entry);
    this.#touch(entry);
    return audio;
  }

  /** A token to pass to put(): a purge of the voice in between makes that put a no-op. */
  generation(voice: string): number {
    return this.#generations.get(voiceDirOf(voice)) ?? 0;
  }

  /** Stores a finished part. Failures are logged, never thrown: a cache that cannot write is only slower. */
  put(key: string, voice: string, audio: CachedAudio, generation: number): Promise<void> {
    const task = this.#put(key, voice, audio, generation).catch((error: unknown) =>
      this.#log.warn({ err: error, key }, 'could not write cache entry'),
    );
    this.#track(task);
    return task;
  }

  async #put(key: string, voice: string, audio: CachedAudio, generation: number): Promise<void> {
    if (!this.enabled || this.generation(voice) !== generation) return;
    // A line cut at its cap (or a copy of one) is heard with a note a hit could not give: made again, it says so.
    if (audio.cutAt !== undefined) return;
    const { pieces, bytes } = await entryPieces(key, voice, audio);
    if (bytes > this.#maxBytes) return;
    const voiceDir = voiceDirOf(voice);
    const folder = path.join(this.#dir, voiceDir);
    const file = path.join(folder, `${key}.sbc`);
    // Unique per process and per write: two processes filling the same key each rename a whole file of their own.
    const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeWhole(folder, temp, file, pieces);
    } catch (error) {
      await this.#writeFailed(error, key, bytes);
      return;
    }
    if (this.generation(voice) !== generation) {
      await unlink(file).catch(() => undefined);
      return;
    }
    const previous = this.#index.get(key);
    if (previous) this.#forget(key, previous);
    this.#index.set(key, { file, voiceDir, bytes });
    this.#bytes += bytes;
    await this.#evict();
  }

  /** A failed write: eviction on the directory as it is; a full disk gets room back (the spend ledger comes first). */
  async #writeFailed(error: unknown, key: string, bytes: number): Promise<void> {
    this.#writeFailures++;
    const code = (error as { code?: unknown } | undefined)?.code;
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    this.#log.warn(
      { err: error, key, bytes, code: 'cache-write-failed', failures: this.#writeFailures },
      'could not write cache entry: its temporary file was removed',
    );
    await this.#evict({ force: true, ...(full ? { freeBytes: bytes + DISK_FULL_HEADROOM_BYTES } : {}) });
  }

  get writeFailures(): number {
    return this.#writeFailures;
  }

  /** Scans and evicts when past the cap or the last scan is old (or `force`); `freeBytes`: room a full disk needs. */
  async #evict(options: { force?: boolean; freeBytes?: number } = {}): Promise<void> {
    while (this.#evicting) await this.#evicting;
    if (!options.force && this.#bytes <= this.#maxBytes && Date.now() - this.#scannedAt < this.#rescanAfterMs) return;
    this.#evicting = this.#scanAndEvict(options.freeBytes).finally(() => (this.#evicting = undefined));
    await this.#evicting;
  }

  async #scanAndEvict(freeBytes?: number): Promise<void> {
    this.#adopt(await this.#scan(false));
    const limit =
      freeBytes === undefined ? this.#maxBytes : Math.max(0, Math.min(this.#maxBytes, this.#bytes - freeBytes));
    if (this.#bytes <= limit) return;
    const target = limit * LOW_WATER;
    for (const [key, entry] of [...this.#index]) {
      if (this.#bytes <= target) break;
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
