// Where the features' slash commands and menus live: src/features/<feature>/commands/, one module per command.
import type { AnyCommandModule } from '../core/interactions/command.ts';
import { loadCommands } from '../core/interactions/command-loader.ts';
import { FEATURES_DIR, featurePaths } from './features.ts';

/** Each feature's commands/ folder, in feature name order (a feature without commands has none). */
export function featureCommandDirs(root = FEATURES_DIR): string[] {
  return [...featurePaths('commands', root).values()];
}

/** Every feature's command modules, keyed by command name. */
export function loadFeatureCommands(): Promise<Map<string, AnyCommandModule>> {
  return loadCommands(featureCommandDirs());
}
