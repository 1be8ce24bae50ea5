import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AudioCache } from '../../../src/core/cache/audio-cache.ts';
import { partCacheKey } from '../../../src/core/sourcing/part-request.ts';
import { silentLogger } from '../../../src/core/log.ts';
import { openSqliteStore } from '../../../src/app/store.ts';
import { buildWav, sine } from '../audio/fixtures.ts';
import { runChild } from '../../support/run-child.ts';

// A cache write that fails (a full disk, a file-size limit) removes its temporary file, is
// counted, and runs eviction; on a full disk the cache gives room back, so the spend ledger beside it goes on.

const VOICE = 'voice-b-en-f-01';
const key = (text: string) => partCacheKey({ kind: 'tts', text, voice: VOICE, format: 'wav' }, text);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-disk-full-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a cache write over a file-size limit (ulimit -f, any machine)', () => {
  const CHILD = fileURLToPath(new URL('./disk-full-child.ts', import.meta.url));

  it('leaves no temporary file, is counted, and runs eviction on the directory as it is', async () => {
    // 100 blocks per file (51 kB in dash's 512-byte blocks, 100 kB in bash's): the 40 kB entries fit, the 160 kB one
    // does not (EFBIG; Node ignores SIGXFSZ).
    const { code, stdout, stderr } = await runChild('/bin/sh', [
      '-c',
      'ulimit -f 100 && exec "$0" "$1" "$2"',
      process.execPath,
      CHILD,
      dir,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      writeFailures: 1,
      temps: 0,
      // The other process's 5 entries are over this one's cap (4.3): the failed write's eviction went down to 90 %.
      entries: 3,
      bigWritten: false,
    });
  });
});

/** A tmpfs of `bytes` at a new directory, or why one cannot be made here (not root, no mount in a container). */
function mountTmpfs(bytes: number): { dir: string } | { reason: string } {
  const at = mkdtempSync(path.join(tmpdir(), 'saybot-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', at], { stdio: 'pipe' });
    return { dir: at };
  } catch (error) {
    rmSync(at, { recursive: true, force: true });
    return { reason: (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error) };
  }
}

const small = mountTmpfs(4 * 1024 * 1024);
afterAll(() => {
  if (!('dir' in small)) return;
  execFileSync('umount', [small.dir]);
  rmSync(small.dir, { recursive: true, force: true });
});

describe.skipIf(!('dir' in small))(
  `a full disk (a 4 MiB tmpfs${'reason' in small ? `; skipped: cannot mount one here: ${small.reason}` : ''})`,
  () => {
    it('removes the failed write, gives room back below the cap, and the SQLite spend ledger on the same disk goes on', async () => {
      if (!('dir' in small)) return;
      const disk = small.dir;
      const store = openSqliteStore(path.join(disk, 'saybot.db'));
      try {
        // A cap far above the disk: only the disk can say no.
        const cache = await AudioCache.open({
          dir: path.join(disk, 'cache'),
          maxBytes: 100 * 1024 * 1024,
          logger: silentLogger,
        });
        const entry = (i: number) => ({
          format: 'wav' as const,
          audio: [buildWav(sine(200 + i, 2, 16_000), { sampleRate: 16_000, channels: 1 })],
          packets: [Buffer.alloc(100)],
        });
        let i = 0;
        while (cache.writeFailures === 0 && i < 120) await cache.put(key(`part ${i}`), VOICE, entry(i++), 0);
        expect(cache.writeFailures).toBe(1);
        const names = await readdir(path.join(disk, 'cache', VOICE));
        expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
        // Room given back: at least the failed entry's size and a tenth of what the cache held.
        const { bavail, bsize } = await statfs(disk);
        expect(bavail * bsize).toBeGreaterThan(64_000 + cache.size.bytes / 10);
        expect(cache.size.entries).toBe(names.filter((n) => n.endsWith('.sbc')).length);

        // The ledger on the same disk records spends as before.
        for (let n = 0; n < 20; n++)
          await store.spends.record({
            guildId: '1',
            userId: '2',
            command: 'say',
            endpoint: 'tts',
            characters: 10,
            cached: false,
          });
        // And the cache writes again.
        await cache.put(key('after'), VOICE, entry(99), 0);
        expect(cache.writeFailures).toBe(1);
        await cache.close();
      } finally {
        await store.close();
      }
    });
  },
);
