// A data folder SayBot may not write (Docker: a host folder bind-mounted at /app/data belongs to root, the image
// runs as uid 1000) is one line naming the folder, the user and the fix, not SQLite's "unable to open database file".
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AudioCache } from '../../src/core/cache/audio-cache.ts';
import { createLogger } from '../../src/core/log.ts';
import { openSqliteStore } from '../../src/app/store.ts';

const CHILD = fileURLToPath(new URL('./store/data-folder-child.ts', import.meta.url));
const isRoot = process.getuid?.() === 0;
/** The user SayBot's Docker image runs as. */
const IMAGE_UID = 1000;

describe('a data folder SayBot cannot use', () => {
  let dir: string | undefined;
  const tempDir = () => (dir = mkdtempSync(path.join(tmpdir(), 'saybot-data-folder-')));
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`names the folder, SayBot's user and the chown fix when that user may not write it (${isRoot ? 'run as root: the store opens as uid 1000, root keeps the folder' : 'the folder made read-only'})`, () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    const data = path.join(root, 'data');
    mkdirSync(data);
    // As root, the folder stays root's (mode 755), like a host folder Docker bind-mounts; the child drops to 1000.
    if (!isRoot) chmodSync(data, 0o555);
    const uid = isRoot ? IMAGE_UID : process.getuid!();
    const gid = isRoot ? IMAGE_UID : process.getgid!();
    for (const file of [path.join(data, 'saybot.sqlite'), path.join(data, 'missing', 'saybot.sqlite')]) {
      const run = spawnSync(process.execPath, [CHILD, file, ...(isRoot ? [String(IMAGE_UID)] : [])], {
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      const output = run.stdout.trim();
      expect(output.split('\n')).toHaveLength(1);
      expect(output).toMatch(
        new RegExp(`^Cannot write ${path.dirname(file)} \\(DATABASE_URL\\): ${data} belongs to uid \\d+`),
      );
      expect(output).toContain(`SayBot runs as uid ${uid}`);
      expect(output).toContain(`chown -R ${uid}:${gid} ${data}`);
      expect(output).toContain('sudo chown');
    }
    expect(existsSync(path.join(data, 'saybot.sqlite'))).toBe(false);
  });

  it('says the path is under a file when DATABASE_URL or CACHE_DIR points inside one (root too)', async () => {
    const root = tempDir();
    const file = path.join(root, 'not-a-folder');
    writeFileSync(file, 'x');
    expect(() => openSqliteStore(path.join(file, 'saybot.sqlite'))).toThrow(
      `Cannot use ${file} (DATABASE_URL) as a folder: ${file} is a file.`,
    );
    const opening = AudioCache.open({
      dir: path.join(file, 'cache'),
      maxBytes: 1024,
      logger: createLogger({ level: 'silent' }),
    });
    await expect(opening).rejects.toThrow(
      `Cannot use ${path.join(file, 'cache')} (CACHE_DIR) as a folder: ${file} is a file.`,
    );
  });
});
