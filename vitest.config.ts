import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end suites play real-time audio; files run in parallel, tests in a file in order. Most of a file's time
    // is waiting on that real-time audio, not the CPU: two files at once even on two cores (vitest's default there
    // is one, which ran the files one after another).
    fileParallelism: true,
    maxWorkers: 2,
  },
});
