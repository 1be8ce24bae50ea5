import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./store-child.ts', import.meta.url));

/** A fresh directory for database files; removed by the returned cleanup. */
export function tempDir(): { dir: string; file: (name?: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'saybot-store-'));
  return {
    dir,
    file: (name = 'saybot.sqlite') => path.join(dir, name),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** How long a child may run before it is ended as hung (durability.test.ts gives its cases more). */
export const CHILD_BOUND_MS = 90_000;

/**
 * Runs store-child.ts in its own Node process. With `kill`, it is SIGKILLed as soon as it prints "ready" (no
 * chance to close or checkpoint); otherwise it runs to its end. Resolves with how it ended.
 */
export function runChild(
  file: string,
  mode: string,
  options: { arg?: string; kill?: boolean } = {},
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, file, mode, options.arg ?? ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    // A bound for a child that hangs, not a speed: a loaded machine takes tens of seconds to start Node and its writes.
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_BOUND_MS);
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      if (options.kill && c.toString().includes('ready')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}
