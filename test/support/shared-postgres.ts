// The suite's global setup: one real PostgreSQL server for the whole run (fixtures/store-backends.ts), where each store
// contract file used to start, initialise and migrate its own. Every file still gets databases of its own on it.
import { postgresUnavailable, SHARED_POSTGRES_ENV, startPostgresServer } from '../../fixtures/store-backends.ts';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // test:fast runs without child processes; a PostgreSQL that cannot run here is skipped visibly by the contract suite.
  if (process.env['SAYBOT_TEST_POSTGRES'] === 'off' || postgresUnavailable() !== undefined) return undefined;
  if (process.env[SHARED_POSTGRES_ENV]) return undefined;
  const server = await startPostgresServer();
  // Workers are started after this and inherit the environment.
  process.env[SHARED_POSTGRES_ENV] = server.baseUrl;
  return async () => {
    delete process.env[SHARED_POSTGRES_ENV];
    await server.stop();
  };
}
