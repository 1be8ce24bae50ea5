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

// `npm run test:fast` starts no child process, PostgreSQL's server among them; `npm test` runs this half.
const postgresSkipped =
  process.env['SAYBOT_TEST_POSTGRES'] === 'off'
    ? 'skipped by SAYBOT_TEST_POSTGRES=off (npm run test:fast); npm test runs them'
    : postgresUnavailable();
if (postgresSkipped !== undefined) it.skip(`PostgreSQL contract tests: ${postgresSkipped}`, () => {});

// The run's shared server, where the project's global setup started one (test/support/shared-postgres.ts).
const shared = inject('sharedPostgresUrl');
if (shared) process.env[SHARED_POSTGRES_ENV] = shared;

export const BACKENDS =
  postgresSkipped === undefined ? ([sqliteBackend, postgresBackend] as const) : ([sqliteBackend] as const);
