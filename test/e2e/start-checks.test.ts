// What `npm start` checks before anything reaches Discord: a data folder SayBot cannot use (a volume mounted
// wrong) ends the start in one line, and Discord has seen nothing of it: no command registration, no login.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, startLocalServices, type LocalServices } from '../support/harness.ts';
import { runChild } from '../support/run-child.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('npm start with a data folder it cannot use', () => {
  let services: LocalServices;
  let dir: string;
  /** A plain file where a folder should be: refused the same way as root or not. */
  let notAFolder: string;
  beforeAll(async () => {
    services = await startLocalServices();
    dir = mkdtempSync(path.join(tmpdir(), 'saybot-start-checks-'));
    notAFolder = path.join(dir, 'not-a-folder');
    writeFileSync(notAFolder, 'x');
  });
  afterAll(async () => {
    await services?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cases = [
    { setting: 'DATABASE_URL', env: () => ({ DATABASE_URL: `sqlite:${path.join(notAFolder, 'saybot.sqlite')}` }) },
    { setting: 'CACHE_DIR', env: () => ({ CACHE_DIR: path.join(notAFolder, 'cache') }) },
  ];
  for (const { setting, env } of cases) {
    it(`${setting} under a file: one line naming it, exit 1, and no request reached Discord`, async () => {
      const { discord, sandbox, token } = services;
      const requestsBefore = discord.restLog.length;
      const result = await runChild(process.execPath, ['src/bin/start.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          DOTENV_CONFIG_PATH: path.join(dir, 'no.env'),
          DATABASE_URL: `sqlite:${path.join(dir, 'saybot.sqlite')}`,
          CACHE_DIR: path.join(dir, 'cache'),
          DISCORD_TOKEN: token,
          DISCORD_CLIENT_ID: APP_ID,
          DISCORD_API_BASE_URL: discord.restUrl,
          VOICE_API_BASE_URL: sandbox.url,
          VOICE_API_KEY: sandbox.testKey,
          ...env(),
        },
        killAfterMs: 25_000,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^Cannot use \\S+ \\(${setting}\\) as a folder: ${notAFolder} is a file\\.`)),
      ]);
      expect(discord.restLog.slice(requestsBefore).map((r) => `${r.method} ${r.path}`)).toEqual([]);
      expect(discord.registeredCommands()).toEqual([]);
    });
  }
});
