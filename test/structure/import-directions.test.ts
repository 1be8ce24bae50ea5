// Who may import whom across the repository's top folders: the app never imports what tests or benchmarks use,
// and the benchmarks stand on their own (what they share with the tests lives in fixtures/ or the local Discord).
import { describe, expect, it } from 'vitest';
import { importGraph, sourceFiles } from './import-graph.ts';

const graph = importGraph(sourceFiles(['src', 'packages', 'demo', 'bench', 'fixtures', 'scripts', 'test']));

function importsInto(from: readonly string[], into: readonly string[]): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (!from.some((folder) => file.startsWith(`${folder}/`))) continue;
    for (const target of targets)
      if (into.some((folder) => target.startsWith(`${folder}/`))) found.push(`${file} -> ${target}`);
  }
  return found;
}

describe('import directions', () => {
  it('the app (src/) imports nothing from the tests, the benchmarks, the demo, fixtures or the local Discord', () => {
    expect(importsInto(['src'], ['test', 'bench', 'demo', 'fixtures', 'packages'])).toEqual([]);
  });

  it('the benchmarks, fixtures and the demo import nothing from test/', () => {
    expect(importsInto(['bench', 'fixtures', 'demo', 'packages'], ['test'])).toEqual([]);
  });

  it('nothing imports an entry point (src/bin/): they are run, by npm scripts or as a child process, never imported', () => {
    expect(importsInto(['src', 'packages', 'demo', 'bench', 'fixtures', 'scripts', 'test'], ['src/bin'])).toEqual([]);
  });
});
