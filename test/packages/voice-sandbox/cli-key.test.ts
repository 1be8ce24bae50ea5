// `npm run sandbox` keeps its test key across restarts, so the key put in SayBot's .env stays valid.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runChild } from '../../support/run-child.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'saybot-sandbox-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the sandbox CLI, reads what it prints up to its key, then stops it with SIGTERM. */
async function startAndStop(
  env: Record<string, string>,
): Promise<{ key: string; output: string; code: number | null }> {
  let key = '';
  const { code, stdout, stderr } = await runChild(
    process.execPath,
    ['packages/voice-sandbox/src/cli.ts', '--port', '0'],
    {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      killAfterMs: 20_000,
      onStdout: (output, signal) => {
        const found = /^VOICE_API_KEY=(\S+)$/m.exec(output)?.[1];
        if (found !== undefined && key === '') {
          key = found;
          signal('SIGTERM');
        }
      },
    },
  );
  return { key, output: stdout + stderr, code };
}

describe('npm run sandbox', () => {
  it('makes a key at the first start, keeps it in its file (owner-only), and uses it again at the next start', async () => {
    const keyFile = path.join(dir, 'data', 'sandbox-key');
    const first = await startAndStop({ SANDBOX_KEY_FILE: keyFile });
    expect(first.key).toMatch(/^sandbox_[0-9a-f]{32}$/);
    expect(first.output).toContain(`Made and kept in ${keyFile}`);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(first.key);
    expect(statSync(keyFile).mode & 0o077).toBe(0);

    const second = await startAndStop({ SANDBOX_KEY_FILE: keyFile });
    expect(second.key).toBe(first.key);
    expect(second.output).toContain(`Kept in ${keyFile}`);
  });

  it('uses a key given in SANDBOX_KEY instead, and writes no file', async () => {
    const keyFile = path.join(dir, 'unused', 'sandbox-key');
    const given = await startAndStop({ SANDBOX_KEY: 'sk-given-by-the-owner', SANDBOX_KEY_FILE: keyFile });
    expect(given.key).toBe('sk-given-by-the-owner');
    expect(() => statSync(keyFile)).toThrow();
  });
});
