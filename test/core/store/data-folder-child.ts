// Opens the SQLite store as another user, for test/core/data-folder.test.ts: run as root it drops to the uid it
// is given once its modules are loaded (so root, who may write anywhere, meets a folder as SayBot's user does).
// Usage: node data-folder-child.ts <database file> [uid]. Prints the store's error message, or "opened".
import { openSqliteStore } from '../../../src/app/store.ts';

const [file, uid] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: data-folder-child.ts <database file> [uid]');
if (uid !== undefined) {
  process.setgid?.(Number(uid));
  process.setuid?.(Number(uid));
}
try {
  await openSqliteStore(file).close();
  process.stdout.write('opened\n');
} catch (error) {
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
}
