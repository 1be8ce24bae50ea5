// Tests mirror the code: a module's tests are found by its path (src/core/order/pipeline.ts ->
// test/core/order/pipeline.test.ts, bench/stats.ts -> test/bench/stats.test.ts), and a folder of tests names a
// folder of code. The folders of whole-system tests
// (test/e2e, test/deploy, test/demo, test/structure) and the shared test/support sit beside them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './import-graph.ts';

const SYSTEM = ['e2e', 'deploy', 'demo', 'structure', 'support'];

/** Top-level folders of code outside src/ whose tests mirror them as they are: the packages and the benchmark. */
const BESIDE_SRC = ['packages', 'bench'];

/** Where a folder of test/ points: one under packages/ or bench/ at that folder, any other at src/<same path>. */
function codeFolderOf(testFolder: string): string {
  return BESIDE_SRC.includes(testFolder.split('/')[0] ?? '') ? testFolder : join('src', testFolder);
}

function foldersUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const at = join(prefix, name);
    return statSync(join(dir, at)).isDirectory() && name !== 'fixtures' ? [at, ...foldersUnder(dir, at)] : [];
  });
}

describe('the layout of test/', () => {
  it('each folder of tests names a folder of code, apart from the whole-system ones', () => {
    const folders = foldersUnder(join(ROOT, 'test')).filter((folder) => !SYSTEM.includes(folder.split('/')[0]!));
    expect(folders.length).toBeGreaterThan(20);
    expect(folders.filter((folder) => !existsSync(join(ROOT, codeFolderOf(folder))))).toEqual([]);
  });

  it('points a folder of tests at its code', () => {
    expect(codeFolderOf('core/speech')).toBe('src/core/speech');
    expect(codeFolderOf('packages/local-discord')).toBe('packages/local-discord');
    expect(codeFolderOf('bench')).toBe('bench');
  });
});
