// Where the suite's own temporary files go (each bot's SQLite file and audio cache, the store contract's files, the
// shared PostgreSQL's data): a memory file system when the host has one with room, as Linux's /dev/shm. SQLite
// commits with synchronous=FULL, and on a disk other work shares each fsync waits its turn: a harness's bot started
// in 270-460 ms there against 120-160 ms in memory (its store's schema made in 115-220 ms against 15-25 ms), and the
// store contract files took a third less time. No test needs its files to outlive the host, only a killed process,
// which they do in memory too. Elsewhere (no /dev/shm, a container's 64 MB one) the system's own folder is kept.
import { statfsSync } from 'node:fs';

const MEMORY = '/dev/shm';
/** statfs's type of a tmpfs (linux/magic.h). */
const TMPFS = 0x01021994;
/** Room enough for a run's files at once (bots' caches, PostgreSQL's data), with a margin. */
const ROOM_BYTES = 2 * 1024 ** 3;

/** A memory file system's folder for temporary files, or undefined where the host has none with room. */
export function memoryTmpDir(): string | undefined {
  try {
    const fs = statfsSync(MEMORY);
    return fs.type === TMPFS && fs.bavail * fs.bsize >= ROOM_BYTES ? MEMORY : undefined;
  } catch {
    return undefined;
  }
}
