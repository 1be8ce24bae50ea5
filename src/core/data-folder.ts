// The folders SayBot writes, made and checked writable first, so a bad one is a line naming the folder, the user and
// the fix rather than SQLite's "unable to open database file" (Docker: a root-owned bind mount, the image at uid 1000).
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';

class DataFolderError extends Error {
  override readonly name = 'DataFolderError';
}

/** This process's user: uid, gid and, when the system knows one, its name (a bare `--user 1234` has none). */
function currentUser(): { uid: number; gid: number; label: string } {
  const uid = process.getuid?.() ?? -1;
  const gid = process.getgid?.() ?? -1;
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // no entry in /etc/passwd for this uid
  }
  return { uid, gid, label: name === undefined ? `uid ${uid}` : `uid ${uid} (${name})` };
}

/** The folder itself, or the nearest one above it that exists (where a missing folder would have been made). */
function nearestExisting(folder: string): string {
  let at = folder;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

function unwritable(folder: string, setting: string, code: string): DataFolderError {
  const blocking = nearestExisting(folder);
  const user = currentUser();
  if (code === 'EROFS') {
    return new DataFolderError(
      `Cannot write ${folder} (${setting}): ${blocking} is on a read-only filesystem (a volume mounted :ro?). Mount it writable, or set ${setting} to a folder SayBot can write.`,
    );
  }
  const owner = statSync(blocking);
  const chown = `chown -R ${user.uid}:${user.gid}`;
  return new DataFolderError(
    `Cannot write ${folder} (${setting}): ${blocking} belongs to uid ${owner.uid} (mode ${(owner.mode & 0o777).toString(8)}) and SayBot runs as ${user.label}, ` +
      `which may not write there. Give that user the folder: \`${chown} ${blocking}\` (with Docker and a host folder mounted there, ` +
      `e.g. -v ./data:/app/data, run \`sudo ${chown} ./data\` on the host), or set ${setting} to a folder SayBot can write.`,
  );
}

/** Makes `folder` and checks files can be created there (and `file` written); a one-line DataFolderError. */
export function ensureWritableFolder(folder: string, setting: string, file?: string): void {
  const absolute = path.resolve(folder);
  try {
    mkdirSync(absolute, { recursive: true });
    accessSync(absolute, constants.W_OK | constants.X_OK);
    if (file !== undefined && existsSync(file)) accessSync(file, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw unwritable(absolute, setting, code);
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new DataFolderError(
        `Cannot use ${absolute} (${setting}) as a folder: ${nearestExisting(absolute)} is a file. Set ${setting} to a path inside a folder.`,
      );
    }
    throw error;
  }
}
