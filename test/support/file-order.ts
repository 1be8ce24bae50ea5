// The order files start in (vitest.config.ts): longest first, so that no long file starts last and keeps the run
// going alone at its end. vitest orders by the last run's times (its cache under node_modules/.vite), and without them
// by file size, which on a clean checkout (every CI run) starts a small file that waits 17 s among the last. Here a
// file without a time of vitest's own takes its time from file-seconds.json (a quiet run's, written by
// `node scripts/file-seconds.ts`); a file in neither (a new one) starts first. Failed files first, as vitest does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const FILE_SECONDS = path.join(import.meta.dirname, 'file-seconds.json');

/** Each test file's seconds in a quiet run, by its path from the repository's root. */
export function knownSeconds(): Record<string, number> {
  return JSON.parse(readFileSync(FILE_SECONDS, 'utf8')) as Record<string, number>;
}

const repoPath = (spec: TestSpecification): string => path.relative(ROOT, spec.moduleId).split(path.sep).join('/');

/** Longer first; two unknown (infinite) times are equal, not NaN apart. */
const compareLongestFirst = (a: number, b: number): number => (a === b ? 0 : b > a ? 1 : -1);

export class FileOrder extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = knownSeconds();
    // Each file's time (vitest's own, else the kept one, else none: first) and whether it failed last, read once.
    const last = new Map(
      files.map((spec) => {
        const result = this.ctx.cache.getTestSpecificationResult(spec);
        const ms = result?.duration ?? (known[repoPath(spec)] ?? Infinity) * 1000;
        return [spec, { ms, failed: result?.failed === true ? 1 : 0 }] as const;
      }),
    );
    const timeMs = (spec: TestSpecification): number => last.get(spec)?.ms ?? Infinity;
    const failed = (spec: TestSpecification): number => last.get(spec)?.failed ?? 0;
    const order = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder;
    return Promise.resolve(
      [...files].sort(
        (a, b) =>
          order(a) - order(b) ||
          a.project.name.localeCompare(b.project.name) ||
          Number(b.project.config.isolate) - Number(a.project.config.isolate) ||
          failed(b) - failed(a) ||
          compareLongestFirst(timeMs(a), timeMs(b)),
      ),
    );
  }
}
