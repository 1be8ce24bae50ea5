// What `npm test` (scripts/test.ts) says of a run from its parts: the checks' verdict, each vitest run's exit code and
// counts, and the filter it was given. A run fails on any failure, whatever a child's exit code said.

export interface ProjectRun {
  code: number;
  counts: [passed: number, failed: number, skipped: number] | undefined;
}

/** Why the run failed (nothing when it passed), and its counts over every vitest run. */
export function verdict(
  checksPassed: boolean,
  runs: readonly ProjectRun[],
  filter: readonly string[],
): { failures: string[]; total: [number, number, number] } {
  const total = runs.reduce<[number, number, number]>(
    (sum, run) => (run.counts ? [sum[0] + run.counts[0], sum[1] + run.counts[1], sum[2] + run.counts[2]] : sum),
    [0, 0, 0],
  );
  const failures = [
    ...(checksPassed ? [] : ['the static checks failed: see their output above']),
    ...(runs.some((run) => run.code !== 0 || run.counts === undefined) ? ['a vitest run failed or ended early'] : []),
    ...(total[1] > 0 ? [`${total[1]} failed`] : []),
    // A filter (files, `-t`) under which no test ran, only skipped ones (a `-t` matching nothing skips the rest): a
    // typo must not read as a pass.
    ...(filter.length > 0 && total[0] + total[1] === 0
      ? [`no test ran for ${filter.join(' ')} (${total[2]} skipped)`]
      : []),
  ];
  return { failures, total };
}
