// `npm test`: the static checks (scripts/checks.ts) and the suite's projects (vitest.config.ts) side by side, as two
// vitest processes: `wall` (files that mostly wait: real-time audio, a browser, a child process) starts at once with
// many files at a time; `unit` and `own-graph` (files that use the CPU) start when the checks are done, one file a
// core, so that CPU-bound work runs about as much at once as there are cores. Arguments after `--` go to both vitest
// runs (a file filter, `-t`). Ends with one plain line, "N passed, N failed, N skipped", for the whole suite.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { bin, runChecks } from './checks.ts';
import { ownAsked, projectsAsked } from './test-projects.ts';
import { verdict, type ProjectRun } from './test-verdict.ts';

const PLAIN_REPORTER = './test/support/plain-summary-reporter.ts';
const PLAIN_SUMMARY = /^(\d+) passed, (\d+) failed, (\d+) skipped$/;
// `node scripts/test.ts -- <filter>` as `npm test -- <filter>`: vitest would read what follows a `--` as nothing.
const extra = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));

/**
 * With SAYBOT_TEST_TIMES=<folder>, each vitest run also writes vitest's JSON report there (per file and per case:
 * state and duration), as docs/guide-developers.md's table of the slowest files was measured.
 */
function timesReport(projects: readonly string[]): string[] {
  const folder = process.env['SAYBOT_TEST_TIMES'];
  if (folder === undefined || folder === '') return [];
  const file = path.resolve(folder, `${projects.join('+')}.json`);
  return ['--reporter=default', `--reporter=${PLAIN_REPORTER}`, '--reporter=json', `--outputFile.json=${file}`];
}

const asked = projectsAsked(extra);

/**
 * Runs vitest on its projects (those of them the caller named, if the caller named any: none, no run), its lines
 * passed through as they come, its own plain summary line kept back.
 */
function runProject(own: readonly string[]): Promise<ProjectRun> {
  const projects = ownAsked(own, asked.projects);
  if (projects.length === 0) return Promise.resolve({ code: 0, counts: [0, 0, 0] });
  const args = [
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    ...(extra.length > 0 ? ['--passWithNoTests', ...asked.rest] : []),
    ...timesReport(projects),
  ];
  return new Promise((resolve) => {
    const child = spawn(bin('vitest'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let counts: ProjectRun['counts'];
    const forward = (stream: NodeJS.ReadableStream, to: NodeJS.WriteStream): void => {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        const summary = PLAIN_SUMMARY.exec(line);
        if (summary) counts = [Number(summary[1]), Number(summary[2]), Number(summary[3])];
        else to.write(`${line}\n`);
      });
    };
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('error', () => resolve({ code: 1, counts }));
    child.on('close', (code) => resolve({ code: code ?? 1, counts }));
  });
}

// Every Node process of the run (vitest's workers, the bots, shards and servers the tests start, the checks' tsc and
// Prettier) keeps V8's compiled code in one folder and loads it from there the next time: on two cores the suite is
// CPU-bound, and each process start compiled the same modules again (about 40 % of a bot's
// start). node_modules/.cache is the repository's own, ignored by git; an owner's NODE_COMPILE_CACHE is kept.
process.env['NODE_COMPILE_CACHE'] ??= path.resolve('node_modules/.cache/node-compile');

const wall = runProject(['wall']);
const checksPassed = await runChecks();
const unit = runProject(['unit', 'own-graph']);
const runs = [await wall, await unit];

const { failures, total } = verdict(checksPassed, runs, extra);
for (const failure of failures) process.stdout.write(`\n${failure}`);
process.stdout.write(`\n${total[0]} passed, ${total[1]} failed, ${total[2]} skipped\n`);
const ok = failures.length === 0;
process.exitCode = ok ? 0 : 1;
