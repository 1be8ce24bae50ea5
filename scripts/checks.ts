// The static checks `npm test` runs: the type check, lint and the formatter, each one process; the type check's and
// the formatter's caches are under node_modules/.cache/saybot (a second run checks again only what changed).
// `npm run check` runs them side by side alone.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cache = path.join(root, 'node_modules', '.cache', 'saybot');
export const bin = (name: string): string => path.join(root, 'node_modules', '.bin', name);

interface Step {
  name: string;
  command: string;
  args: string[];
}

/**
 * The type check runs TypeScript 7, the compiler written in Go (installed as `typescript-7`; `typescript` stays 5.9
 * for the structure tests, which read sources with its JavaScript API): a whole check from nothing takes 6 s of CPU
 * against 18 s, and `npm test` runs on a clean checkout on two cores, where every second of CPU is one the tests wait
 * for. One thread: beside the tests, more checkers only add CPU.
 */
const TYPECHECK: readonly string[] = [
  path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc'),
  '--noEmit',
  '--singleThreaded',
];

/** Lint's flags (test/structure/lint-rules.test.ts runs it with them on files written to break each rule). */
export const LINT: readonly string[] = ['--report-unused-disable-directives-severity=error'];

const CHECKS: readonly Step[] = [
  {
    name: 'typecheck',
    command: process.execPath,
    args: [...TYPECHECK, '--incremental', '--tsBuildInfoFile', path.join(cache, 'tsconfig-7.tsbuildinfo')],
  },
  {
    name: 'lint',
    // Oxlint (.oxlintrc.json: ESLint's recommended rules, typescript-eslint's recommended ones and the typed
    // no-floating-promises and no-misused-promises, through tsgolint on TypeScript 7): the same verdicts as ESLint
    // with typescript-eslint, from nothing 9 s of CPU against 42 s. No cache to go stale: a typed rule judges a file by
    // the types of the files it imports.
    command: bin('oxlint'),
    args: [...LINT],
  },
  // Prettier parses with oxc (the plugin in .prettierrc.json): the same output, from nothing 13 s of CPU against 20 s.
  {
    name: 'format',
    command: bin('prettier'),
    args: [
      '--check',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      path.join(cache, 'prettiercache'),
      '--log-level',
      'warn',
      '**/*.{ts,mjs,js,css}',
    ],
  },
];

/** Runs one step with its output held; resolves with its exit code and everything it printed. */
function runHeld(step: Step): Promise<{ code: number; output: string }> {
  mkdirSync(cache, { recursive: true });
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/**
 * Runs the checks side by side; true once every one is done and passed, each one's verdict printed, a failed one's
 * output whole.
 */
export async function runChecks(): Promise<boolean> {
  const results = await Promise.all(CHECKS.map(async (check) => ({ check, ...(await runHeld(check)) })));
  for (const { check, code, output } of results) {
    process.stdout.write(code === 0 ? `${check.name}: passed\n` : `${check.name}: failed\n${output.trimEnd()}\n`);
  }
  return results.every((r) => r.code === 0);
}

if (import.meta.main) process.exitCode = (await runChecks()) ? 0 : 1;
