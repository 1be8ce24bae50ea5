// The command loader: the top-level commands/ folder, each module checked as it loads, a bad one named.
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS_DIR, loadCommandModules } from '../../../src/app/command-modules.ts';
import { loadCommands } from '../../../src/core/interactions/command-loader.ts';
import { servicesFor } from '../../../src/core/interactions/router.ts';
import type { AnyCommandModule, CommandContext } from '../../../src/core/interactions/command.ts';
import { SAYBOT_COMMAND_NAMES } from '../../support/command-names.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A commands/ folder of the test's own: file name -> module source. */
function commandsFolder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'saybot-commands-'));
  made.push(root);
  const dir = join(root, 'commands');
  mkdirSync(dir);
  for (const [file, source] of Object.entries(files)) writeFileSync(join(dir, file), source);
  return dir;
}

const command = (name: string): string =>
  `export const data = { name: '${name}', toJSON: () => ({ name: '${name}' }) };\nexport const uses = [];\nexport async function execute() {}\n`;

describe('the command loader', () => {
  it('loads every module of the folder, in file name order, skipping what is not a module', async () => {
    const dir = commandsFolder({ 'two.ts': command('two'), 'one.ts': command('one'), 'notes.md': '# not code\n' });
    expect([...(await loadCommands(dir)).keys()]).toEqual(['one', 'two']);
  });

  it('stops at a module without data and execute, naming its file', async () => {
    const dir = commandsFolder({ 'broken.ts': 'export const data = 1;\n' });
    await expect(loadCommands(dir)).rejects.toThrow(
      'commands/broken.ts must export `data` (a command builder), `execute` and `uses` (the services it is given)',
    );
  });

  it('stops at a module that does not declare the services it uses', async () => {
    const dir = commandsFolder({ 'greedy.ts': command('greedy').replace('export const uses = [];\n', '') });
    await expect(loadCommands(dir)).rejects.toThrow('commands/greedy.ts must export');
  });

  it('gives a command only the services it declares', () => {
    const context = { store: 'the store', speech: 'the pipeline', logger: 'the log' } as unknown as CommandContext;
    const given = servicesFor(context, { uses: ['store'] } as unknown as AnyCommandModule);
    expect(Object.keys(given)).toEqual(['store']);
  });

  it('stops at a command name used twice, naming the second file', async () => {
    const dir = commandsFolder({ 'a.ts': command('same'), 'b.ts': command('same') });
    await expect(loadCommands(dir)).rejects.toThrow('commands/b.ts repeats the command name "same"');
  });

  it("SayBot's commands/ gives its sixteen slash commands and the Speak menu, one module each", async () => {
    const names = [...(await loadCommandModules()).keys()].sort();
    expect(names).toEqual(SAYBOT_COMMAND_NAMES);
    expect(readdirSync(COMMANDS_DIR).filter((file) => file.endsWith('.ts'))).toHaveLength(names.length);
  });
});
