// The entry points live in src/bin/, one per npm script and named after it (`npm run doctor` runs src/bin/doctor.ts),
// so src/'s other folders and files are library modules only, and a same name never means both.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedBy, ROOT } from './import-graph.ts';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** The src/ files a script runs with node, by script name. */
function sourcesRun(all: Record<string, string>): Map<string, string[]> {
  const run = new Map<string, string[]>();
  for (const [name, command] of Object.entries(all)) {
    const files = [...command.matchAll(/(?:^|\s)(src\/\S+\.ts)/g)].map((m) => m[1]!);
    if (files.length > 0) run.set(name, files);
  }
  return run;
}

function problems(all: Record<string, string>, bin: readonly string[]): string[] {
  const found: string[] = [];
  const run = sourcesRun(all);
  for (const [name, files] of run) {
    for (const file of files)
      if (file !== `src/bin/${name}.ts`) found.push(`npm run ${name} runs ${file}, not src/bin/${name}.ts`);
  }
  for (const file of bin)
    if (!run.has(file.replace(/\.ts$/, ''))) found.push(`src/bin/${file} is run by no npm script of its name`);
  return found;
}

describe('entry points', () => {
  const bin = readdirSync(join(ROOT, 'src/bin')).filter((name) => name.endsWith('.ts'));

  it('each npm script that runs SayBot code runs src/bin/<its name>.ts, and each file there is such a script', () => {
    expect(sourcesRun(scripts).size).toBeGreaterThanOrEqual(4);
    expect(problems(scripts, bin)).toEqual([]);
  });

  it('names an entry point kept outside src/bin/ and a file there that no script runs', () => {
    expect(problems({ ...scripts, doctor: 'node src/doctor.ts' }, [...bin, 'old.ts'])).toEqual([
      'npm run doctor runs src/doctor.ts, not src/bin/doctor.ts',
      'src/bin/old.ts is run by no npm script of its name',
    ]);
  });
});

// `npm run forget` needs the store, the configuration and the cache, never a bot: the bot's libraries (discord.js and
// every @discordjs/ package, the voice's and the dashboard's) cost each run most of a second of CPU, which the operator
// and the tests that run it pay every time.
const isBotLibrary = (name: string): boolean =>
  name.startsWith('@discordjs/') || ['discord.js', 'prism-media', 'hono', '@hono/node-server'].includes(name);

describe("an entry point's load", () => {
  it("npm run forget loads none of the bot's Discord, voice or dashboard libraries", () => {
    expect(loadedBy('src/bin/forget.ts').libraries.filter(isBotLibrary)).toEqual([]);
  });

  it('sees the libraries an entry point reaches through its modules', () => {
    expect(loadedBy('src/bin/start.ts').libraries).toEqual(expect.arrayContaining(['discord.js', '@discordjs/voice']));
    expect(loadedBy('src/bin/forget.ts').libraries).toContain('kysely');
  });
});
