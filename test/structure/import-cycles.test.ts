import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFiles } from './import-graph.ts';

const FOLDERS = ['commands', 'src', 'packages', 'demo', 'bench', 'fixtures', 'scripts', 'test'];

describe('import cycles', () => {
  it('finds none in the repository (type-only imports included)', () => {
    const cycles = importCycles(importGraph(sourceFiles(FOLDERS)));
    expect(cycles.map((files) => files.join(' <-> '))).toEqual([]);
  });

  it('names the files of a cycle it is shown', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});
