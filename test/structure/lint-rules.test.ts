// Lint (.oxlintrc.json, run by scripts/checks.ts) on files written to break one rule each
// (test/structure/fixtures/lint, which the repository's own lint ignores): each is found by the rule it breaks, and
// only by it, so that a change of linter or configuration cannot drop a rule, or a kind of file, unseen.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, LINT } from '../../scripts/checks.ts';
import { ROOT } from './import-graph.ts';

const FIXTURES = 'test/structure/fixtures/lint';

/** The repository's configuration as it is, but for the ignore pattern that keeps the fixtures out of its own lint. */
function fixturesConfig(folder: string): string {
  const config = JSON.parse(readFileSync(path.join(ROOT, '.oxlintrc.json'), 'utf8')) as {
    $schema?: string;
    ignorePatterns: string[];
  };
  const file = path.join(folder, 'oxlintrc.json');
  const { $schema: _schema, ...rest } = config;
  const ignorePatterns = config.ignorePatterns.filter((pattern) => pattern !== `${FIXTURES}/`);
  expect(ignorePatterns).toHaveLength(config.ignorePatterns.length - 1);
  writeFileSync(file, JSON.stringify({ ...rest, ignorePatterns }));
  return file;
}

const folder = mkdtempSync(path.join(tmpdir(), 'saybot-lint-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Diagnostic {
  code?: string;
  message: string;
  filename: string;
}

describe('lint', () => {
  it('finds what each fixture breaks, with the type-aware rules, in every kind of file it lints', () => {
    const run = spawnSync(bin('oxlint'), [...LINT, '--config', fixturesConfig(folder), '--format', 'json', FIXTURES], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
    const found = diagnostics
      .map(({ code, message, filename }) => `${filename.slice(FIXTURES.length + 1)}: ${code ?? message}`)
      .sort();
    expect(found).toEqual([
      'any.ts: typescript(no-explicit-any)',
      'floating.ts: typescript(no-floating-promises)',
      'misused.ts: typescript(no-misused-promises)',
      'stray.mjs: eslint(no-undef)',
      'type-import.ts: typescript(consistent-type-imports)',
      'unused-directive.ts: Unused oxlint-disable directive (no problems were reported).',
      'var.mts: eslint(no-var)',
    ]);
  });
});
