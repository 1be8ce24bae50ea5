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
 * for typescript-eslint, which needs its JavaScript API): a whole check from nothing takes 6 s of CPU against 18 s,
 * and `npm test` runs on a clean checkout on two cores, where every second of CPU is one the tests wait for. One
 * thread: beside the tests, more checkers only add CPU.
 */
const TYPECHECK: readonly string[] = [
  path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc'),
  '--noEmit',
  '--singleThreaded',
];

const CHECKS: readonly Step[] = [
  {
    name: 'typecheck',
    command: process.execPath,
    args: [...TYPECHECK, '--incremental', '--tsBuildInfoFile', path.join(cache, 'tsconfig-7.tsbuildinfo')],
  },
  {
    name: 'lint',
    command: bin('eslint'),
    // No cache: its type-aware rules (no-floating-promises) judge a file by the types of the files it imports, and
    // ESLint's cache keeps a file's verdict while only what it imports changed.
    args: ['.'],
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

interface StartedChecks {
  /** True once every check is done and passed; each one's verdict printed, a failed one's output whole. */
  passed: Promise<boolean>;
  /** Once every check but lint is done: lint, the longest (one process through its type-aware rules), goes on. */
  allButLint: Promise<void>;
}

/** Starts the checks side by side. */
export function startChecks(): StartedChecks {
  const running = CHECKS.map((check) => ({ check, result: runHeld(check) }));
  const passed = Promise.all(running.map(async ({ check, result }) => ({ check, ...(await result) }))).then(
    (results) => {
      for (const { check, code, output } of results) {
        process.stdout.write(code === 0 ? `${check.name}: passed\n` : `${check.name}: failed\n${output.trimEnd()}\n`);
      }
      return results.every((r) => r.code === 0);
    },
  );
  const others = running.filter(({ check }) => check.name !== 'lint').map(({ result }) => result);
  return { passed, allButLint: Promise.all(others).then(() => undefined) };
}

if (import.meta.main) process.exitCode = (await startChecks().passed) ? 0 : 1;
