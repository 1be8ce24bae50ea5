// The backends the store contract suite runs on (fixtures/store-backends.ts), PostgreSQL skipped visibly where it
// cannot run.
import { it } from 'vitest';
import { postgresBackend, postgresUnavailable, sqliteBackend } from '../../../fixtures/store-backends.ts';

export { postgresBackend, postgresUnavailable, sqliteBackend, type Backend } from '../../../fixtures/store-backends.ts';

const postgresSkipped = postgresUnavailable();
if (postgresSkipped !== undefined) it.skip(`PostgreSQL contract tests: ${postgresSkipped}`, () => {});

export const BACKENDS =
  postgresSkipped === undefined ? ([sqliteBackend, postgresBackend] as const) : ([sqliteBackend] as const);
