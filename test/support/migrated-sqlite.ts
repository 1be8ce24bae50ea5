// A bot under test starts on a SQLite file already at the latest schema: a copy of one this process migrated once.
// Migrating from nothing took about 14 ms of CPU at each of the suite's bot starts (hundreds of them, on two cores);
// the migration itself is tested on new files by the store's own tests.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../src/app/store.ts';

let template: Promise<string> | undefined;

async function makeTemplate(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'saybot-schema-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'saybot.sqlite');
  // Closed: its write-ahead log is checkpointed into the file and removed, so the file alone is the whole database.
  await openSqliteStore(file).close();
  return file;
}

/** Writes a new database at `file` (which must not exist), migrated to the latest schema. */
export async function migratedSqliteFile(file: string): Promise<void> {
  template ??= makeTemplate();
  copyFileSync(await template, file);
}
