// The backends the store contract suite runs on (fixtures/store-backends.ts), PostgreSQL skipped visibly where it
// cannot run.
import { inject, it } from 'vitest';
import {
  postgresUnavailable,
  SHARED_POSTGRES_ENV,
  postgresBackend,
  sqliteBackend,
} from '../../../fixtures/store-backends.ts';

export { postgresBackend, postgresUnavailable, sqliteBackend, type Backend } from '../../../fixtures/store-backends.ts';

/**
 * Why the PostgreSQL half does not run, if it does not: `npm run test:fast` starts no child process, PostgreSQL's
 * server among them (`npm test` runs this half), or PostgreSQL cannot run here.
 */
export const POSTGRES_SKIPPED: string | undefined =
  process.env['SAYBOT_TEST_POSTGRES'] === 'off'
    ? 'skipped by SAYBOT_TEST_POSTGRES=off (npm run test:fast); npm test runs them'
    : postgresUnavailable();

/**
 * Declares, in the file that calls it, one skipped test saying why its PostgreSQL half does not run: visible in every
 * such file, not only in the first a worker loads.
 */
export function notePostgresSkipped(): void {
  if (POSTGRES_SKIPPED !== undefined) it.skip(`PostgreSQL contract tests: ${POSTGRES_SKIPPED}`, () => {});
}

// The run's shared server, where the project's global setup started one (test/support/shared-postgres.ts).
const shared = inject('sharedPostgresUrl');
if (shared) process.env[SHARED_POSTGRES_ENV] = shared;

export const BACKENDS =
  POSTGRES_SKIPPED === undefined ? ([sqliteBackend, postgresBackend] as const) : ([sqliteBackend] as const);
