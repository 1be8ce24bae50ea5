// What `npm test` says of a run (scripts/test-verdict.ts): any failure fails it, and a filter under which nothing ran.
import { describe, expect, it } from 'vitest';
import { verdict } from '../../scripts/test-verdict.ts';

describe("npm test's verdict", () => {
  it('passes a run with every check and test passed, and counts both vitest runs', () => {
    const runs = [
      { code: 0, counts: [10, 0, 1] as [number, number, number] },
      { code: 0, counts: [5, 0, 0] as [number, number, number] },
    ];
    expect(verdict(true, runs, [])).toEqual({ failures: [], total: [15, 0, 1] });
  });

  it('fails a filter under which only skipped tests ran (a -t that matches nothing), saying so', () => {
    const runs = [
      { code: 0, counts: [0, 0, 37] as [number, number, number] },
      { code: 0, counts: [0, 0, 0] as [number, number, number] },
    ];
    const filter = ['test/core/api/errors.test.ts', '-t', 'no-such-test'];
    expect(verdict(true, runs, filter).failures).toEqual([
      'no test ran for test/core/api/errors.test.ts -t no-such-test (37 skipped)',
    ]);
  });

  it('fails a failed check, a run that ended without its counts, and a failed test, whatever the exit codes', () => {
    const runs = [
      { code: 0, counts: [3, 1, 0] as [number, number, number] },
      { code: 0, counts: undefined },
    ];
    expect(verdict(false, runs, []).failures).toEqual([
      'the static checks failed: see their output above',
      'a vitest run failed or ended early',
      '1 failed',
    ]);
  });
});
