import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isCommandModule, type CommandModule } from './command.ts';

export const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

/** Loads every command module in commands/, keyed by command name. A malformed module stops start-up. */
export async function loadCommands(dir = COMMANDS_DIR): Promise<Map<string, CommandModule>> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
  const commands = new Map<string, CommandModule>();
  for (const file of files) {
    const mod: unknown = await import(pathToFileURL(path.join(dir, file)).href);
    if (!isCommandModule(mod)) throw new Error(`commands/${file} must export \`data\` (a command builder) and \`execute\``);
    if (commands.has(mod.data.name)) throw new Error(`commands/${file} repeats the command name "${mod.data.name}"`);
    commands.set(mod.data.name, mod);
  }
  return commands;
}
