import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../../../src/core/store/types.ts';
import { forwardingTo } from '../../support/forwarding.ts';
import { BACKENDS, notePostgresSkipped, type Backend } from './backends.ts';

/**
 * The store contract: `body` declares the same tests once per backend (SQLite, and a real PostgreSQL started for
 * this file), inside a describe named after it. Each test gets a fresh, empty, migrated store: `store` always
 * forwards to the one open for the test running now. Each contract file covers one area of the Store.
 */
export function forEachBackend(body: (store: Store, backend: Backend) => void): void {
  notePostgresSkipped();
  describe.each(BACKENDS.map((make) => ({ make, name: make.name.replace('Backend', '') })))('$name', ({ make }) => {
    const backend = make();
    let current: Store | undefined;
    beforeEach(async () => {
      current = await backend.open();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    afterAll(() => backend.stop());
    const store = forwardingTo(() => current, 'the contract store is open only while a test runs');
    body(store, backend);
  });
}

/** Two guilds of the store contract tests (plain IDs: no Discord behind them). */
export const G1 = '200000000000000001';
export const G2 = '200000000000000002';
/** The member who sets a server's things (presets, defaults, the dictionary). */
export const ADMIN = '300000000000000001';
/** Three members of those guilds, in the order of their IDs. */
export const MEMBER = '300000000000000002';
export const OTHER_MEMBER = '300000000000000003';
export const THIRD_MEMBER = '300000000000000004';
