// A comment that names a repository path (src/..., test/...) must name one that exists, as docs/architecture.md
// must: a move or a rename that forgets a comment fails here.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';
import { commentsOf, namedPaths } from './named-paths.ts';

describe('paths named in comments', () => {
  it('exist, in every TypeScript file of the repository', () => {
    const missing: string[] = [];
    let named = 0;
    const files = sourceFiles(['src', 'commands', 'packages', 'bench', 'demo', 'fixtures', 'scripts', 'test']);
    for (const file of files.filter((name) => !name.startsWith('test/structure/fixtures/'))) {
      for (const path of namedPaths(commentsOf(file).join('\n'))) {
        named += 1;
        if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
      }
    }
    expect(named).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('are read from comments only, not from code or strings', () => {
    const file = 'test/structure/fixtures/comment-paths-sample.ts';
    expect(namedPaths(commentsOf(file).join('\n'))).toEqual(['src/in-a-block-comment.ts', 'src/in-a-line-comment.ts']);
  });
});
