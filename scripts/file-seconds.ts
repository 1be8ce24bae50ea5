// `node scripts/file-seconds.ts <folder>`: writes test/support/file-seconds.json, each test file's seconds, from the
// JSON reports `SAYBOT_TEST_TIMES=<folder> npm test` wrote there (a quiet run's): the order files start in on a clean
// checkout (test/support/file-order.ts).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FILE_SECONDS } from '../test/support/file-order.ts';

interface Report {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

const folder = process.argv[2];
if (folder === undefined) throw new Error('usage: node scripts/file-seconds.ts <folder of SAYBOT_TEST_TIMES reports>');
const root = path.resolve(import.meta.dirname, '..');

/** The file's path in this repository (the reports may come from another checkout of it): from a `test/` on. */
function inRepository(file: string): string | undefined {
  const slashed = file.split(path.sep).join('/');
  for (let at = slashed.indexOf('/test/'); at >= 0; at = slashed.indexOf('/test/', at + 1)) {
    const candidate = slashed.slice(at + 1);
    if (existsSync(path.join(root, candidate))) return candidate;
  }
  return undefined;
}

const seconds: Record<string, number> = {};
for (const name of readdirSync(folder).filter((file) => file.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as Report;
  for (const file of report.testResults) {
    const inRepo = inRepository(file.name);
    if (inRepo !== undefined) seconds[inRepo] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(FILE_SECONDS, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`${Object.keys(sorted).length} files' seconds written to ${path.relative(root, FILE_SECONDS)}\n`);
