import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    // Bounds, not figures: beside two busy processes (CI's hosts) a case that plays audio and waits on threads nicer
    // than them takes a minute at worst; a hang is still cut.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event, not a deadline: on a busy machine (CI shares its two cores) the
    // default second is too short for a browser or a voice connection to get there. A poll's wait is never asserted.
    expect: { poll: { timeout: 20_000, interval: 50 } },
    // End-to-end suites play real-time audio; files run in parallel, tests in a file in order. Most of a file's time
    // is waiting on that real-time audio, not the CPU: three files at once even on two cores (vitest's default there
    // is one, which ran the files one after another). Measured on two cores beside other work (load 2-4), the whole
    // suite: 616 s with two at once, 527 s with three, all passing both times.
    fileParallelism: true,
    maxWorkers: 3,
  },
});
