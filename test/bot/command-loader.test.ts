// The command loader: every feature's commands/ folder, each module checked as it loads, a bad one named.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { featureCommandDirs, loadFeatureCommands } from '../../src/app/feature-commands.ts';
import { loadCommands } from '../../src/core/interactions/command-loader.ts';
import { SAYBOT_COMMAND_NAMES } from '../support/command-names.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A features folder of the test's own: feature name -> file name -> module source. */
function featuresFolder(features: Record<string, Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'saybot-commands-'));
  made.push(root);
  for (const [feature, files] of Object.entries(features)) {
    mkdirSync(join(root, feature, 'commands'), { recursive: true });
    for (const [file, source] of Object.entries(files)) writeFileSync(join(root, feature, 'commands', file), source);
  }
  mkdirSync(join(root, 'no-commands'));
  return root;
}

const command = (name: string): string =>
  `export const data = { name: '${name}', toJSON: () => ({ name: '${name}' }) };\nexport async function execute() {}\n`;

describe('the command loader', () => {
  it("loads every feature's commands, and only the features that have a commands/ folder", async () => {
    const root = featuresFolder({ alpha: { 'one.ts': command('one') }, beta: { 'two.ts': command('two') } });
    const dirs = featureCommandDirs(root);
    expect(dirs).toEqual([join(root, 'alpha', 'commands'), join(root, 'beta', 'commands')]);
    expect([...(await loadCommands(dirs)).keys()]).toEqual(['one', 'two']);
  });

  it('stops at a module without data and execute, naming its feature and file', async () => {
    const root = featuresFolder({ alpha: { 'broken.ts': 'export const data = 1;\n' } });
    await expect(loadCommands(featureCommandDirs(root))).rejects.toThrow(
      'alpha/commands/broken.ts must export `data` (a command builder) and `execute`',
    );
  });

  it('stops at a command name used twice, naming the second file', async () => {
    const root = featuresFolder({ alpha: { 'a.ts': command('same') }, beta: { 'b.ts': command('same') } });
    await expect(loadCommands(featureCommandDirs(root))).rejects.toThrow(
      'beta/commands/b.ts repeats the command name "same"',
    );
  });

  it("SayBot's features give its sixteen slash commands and the Speak menu", async () => {
    const names = [...(await loadFeatureCommands()).keys()].sort();
    expect(names).toEqual(SAYBOT_COMMAND_NAMES);
  });
});
