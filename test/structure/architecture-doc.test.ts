// docs/architecture.md describes the tree and docs/decisions.md points into it: every file or folder path they name
// must exist, so a move or a rename that forgets a document fails here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './import-graph.ts';
import { namedPaths } from './named-paths.ts';

describe('docs/architecture.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

  it('names only paths that exist', () => {
    const paths = namedPaths(doc);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('docs/decisions.md names only paths that exist', () => {
    const paths = namedPaths(readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8'));
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('reads paths the way the document writes them', () => {
    expect(namedPaths('see src/core/i18n/{en,ko}.ts, src/core/store/<area>-store.ts and (src/core/speech/).')).toEqual([
      'src/core/i18n/en.ts',
      'src/core/i18n/ko.ts',
      'src/core/speech/',
    ]);
  });
});
