// The order test files start in (test/support/file-order.ts): longest first, with the times a clean checkout has.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { FileOrder, knownSeconds } from '../support/file-order.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A file of the `wall` project as vitest hands it to the sequencer. */
const spec = (file: string, project = 'wall'): TestSpecification =>
  ({
    moduleId: path.join(ROOT, file),
    project: { name: project, config: { sequence: { groupOrder: project === 'wall' ? 0 : 1 }, isolate: false } },
  }) as unknown as TestSpecification;

/** A sequencer whose vitest has these results of a last run (milliseconds, failed). */
function order(results: Record<string, { duration: number; failed: boolean }>): FileOrder {
  const cache = { getTestSpecificationResult: (s: TestSpecification) => results[path.relative(ROOT, s.moduleId)] };
  return new FileOrder({ cache } as unknown as Vitest);
}

const names = (specs: TestSpecification[]) => specs.map((s) => path.relative(ROOT, s.moduleId));

describe('the order test files start in', () => {
  it("names only test files that exist in file-seconds.json, and times most of the suite's files", () => {
    const known = Object.keys(knownSeconds());
    expect(known.filter((file) => !existsSync(path.join(ROOT, file)) || !file.endsWith('.test.ts'))).toEqual([]);
    expect(known.length).toBeGreaterThan(300);
  });

  it("on a clean checkout: longest first by the repository's times, a file they lack (a new one) before all", async () => {
    const known = knownSeconds();
    const timed = Object.keys(known).filter((file) => file.startsWith('test/e2e/'));
    const files = [...timed.slice(0, 20), 'test/e2e/not-timed-yet.test.ts'].map((file) => spec(file));
    const sorted = names(await order({}).sort(files));
    expect(sorted[0]).toBe('test/e2e/not-timed-yet.test.ts');
    const seconds = sorted.slice(1).map((file) => known[file] as number);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  });

  it("vitest's own last run first: its times over the repository's, and a file that failed before all", async () => {
    const files = ['test/e2e/autoread.test.ts', 'test/e2e/payload-ids.test.ts', 'test/e2e/dave.test.ts'].map((f) =>
      spec(f),
    );
    const sorted = await order({
      'test/e2e/autoread.test.ts': { duration: 1_000, failed: false },
      'test/e2e/payload-ids.test.ts': { duration: 2_000, failed: false },
      'test/e2e/dave.test.ts': { duration: 500, failed: true },
    }).sort(files);
    expect(names(sorted)).toEqual([
      'test/e2e/dave.test.ts',
      'test/e2e/payload-ids.test.ts',
      'test/e2e/autoread.test.ts',
    ]);
  });

  it('keeps projects apart, in their group order', async () => {
    const sorted = await order({}).sort([spec('test/core/a.test.ts', 'unit'), spec('test/e2e/autoread.test.ts')]);
    expect(sorted.map((s) => s.project.name)).toEqual(['wall', 'unit']);
  });
});
