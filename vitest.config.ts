import { globSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { FileOrder } from './test/support/file-order.ts';
import { memoryTmpDir } from './test/support/memory-tmpdir.ts';
import { isFast, testKind, type TestKind } from './test/support/test-kinds.ts';

// `npm run test:fast` sets SAYBOT_TEST_FAST: the unit files that start no thread, process or real-time audio, and the
// store contract on SQLite alone (PostgreSQL is a server process; npm test runs that half).
const fast = process.env['SAYBOT_TEST_FAST'] === '1';
if (fast) process.env['SAYBOT_TEST_POSTGRES'] = 'off';
// The tests' temporary files in memory where the host has room (test/support/memory-tmpdir.ts), for every worker. A
// TMPDIR the runner set is kept.
const memory = memoryTmpDir();
if (memory !== undefined) process.env['TMPDIR'] ??= memory;

const files = globSync('test/**/*.test.ts')
  .map((file) => file.split('\\').join('/'))
  .filter((file) => !fast || isFast(file));
const ofKind = (kind: TestKind): string[] => files.filter((file) => testKind(file) === kind);

// `npm test` (scripts/test.ts) runs `wall` in one vitest process and `unit` with `own-graph` in another, side by
// side; `vitest run` alone runs `wall`, then the other two (projects with different maxWorkers need their own
// groupOrder).
export default defineConfig({
  test: {
    environment: 'node',
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    // Bounds, not figures: beside two busy processes (CI's hosts) a case that plays audio and waits on threads nicer
    // than them takes a minute at worst; a hang is still cut.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event, not a deadline: on a busy machine (CI shares its two cores) the
    // default second is too short for a browser or a voice connection to get there. A poll's wait is never asserted.
    expect: { poll: { timeout: 20_000, interval: 50 } },
    // A worker runs its files one after another in one module graph: SayBot, discord.js and the local Discord are
    // loaded once a worker, not once a file (that loading was about a third of the suite's CPU). Every file still
    // starts its own bot, local Discord and sandbox; `own-graph` files keep a graph of their own.
    isolate: false,
    // Tests in a file run in a new order each time; files run longest first (test/support/file-order.ts: the last
    // run's times, or on a clean checkout a quiet run's kept in the repository), so that no long file starts last.
    sequence: { shuffle: { files: false, tests: true }, sequencer: FileOrder },
    projects: [
      {
        extends: true,
        test: {
          name: 'wall',
          include: ofKind('wall'),
          // These files mostly wait (real-time audio, a browser, a child process): more of them at once than cores.
          maxWorkers: 6,
          sequence: { groupOrder: 0 },
          // A failed test prints the last log lines of its file's running bots (test/support/failure-logs.ts).
          setupFiles: ['./test/support/failure-logs.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ofKind('unit'),
          // These use the CPU: one file a core.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // One real PostgreSQL server for the store contract files, each making its own databases on it.
          globalSetup: ['./test/support/shared-postgres.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'own-graph',
          include: ofKind('own-graph'),
          isolate: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
