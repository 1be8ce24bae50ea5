// Where the features' slash commands and menus live: src/features/<feature>/commands/, one module per command.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyCommandModule } from '../core/interactions/command.ts';
import { loadCommands } from '../core/interactions/command-loader.ts';

export const FEATURES_DIR = fileURLToPath(new URL('../features/', import.meta.url));

/** Each feature's commands/ folder, in name order (a feature without commands has none). */
export function featureCommandDirs(root = FEATURES_DIR): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, entry.name, 'commands'))
    .filter((dir) => existsSync(dir))
    .sort();
}

/** Every feature's command modules, keyed by command name. */
export function loadFeatureCommands(): Promise<Map<string, AnyCommandModule>> {
  return loadCommands(featureCommandDirs());
}
