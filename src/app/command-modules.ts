// Where SayBot's slash commands and menus live: the top-level commands/ folder, one module per command, as the
// discord.js guide keeps them; each calls into the features (src/features/*) and the core.
import { fileURLToPath } from 'node:url';
import type { AnyCommandModule } from '../core/interactions/command.ts';
import { loadCommands } from '../core/interactions/command-loader.ts';

export const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

/** Every command module of commands/, keyed by command name. */
export function loadCommandModules(dir = COMMANDS_DIR): Promise<Map<string, AnyCommandModule>> {
  return loadCommands(dir);
}
