// The unit project's global setup: one real PostgreSQL server for the whole run (fixtures/store-backends.ts), where
// each store contract file used to start, initialise and migrate its own. Every file still gets databases of its own
// on it. Its address reaches the files as `inject('sharedPostgresUrl')` (test/core/store/backends.ts).
import type { TestProject } from 'vitest/node';
import { postgresUnavailable, startPostgresServer } from '../../fixtures/store-backends.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared PostgreSQL server's base URL, or '' where the run has none. */
    sharedPostgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // test:fast runs without child processes; a PostgreSQL that cannot run here is skipped visibly by the contract suite.
  if (process.env['SAYBOT_TEST_POSTGRES'] === 'off' || postgresUnavailable() !== undefined) {
    project.provide('sharedPostgresUrl', '');
    return undefined;
  }
  const server = await startPostgresServer();
  project.provide('sharedPostgresUrl', server.baseUrl);
  return () => server.stop();
}
