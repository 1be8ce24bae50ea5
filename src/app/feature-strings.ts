// Every feature's strings (src/features/<feature>/strings.ts), registered in the catalogue. A feature's modules
// register their own strings as they load; the app registers them all at its start, and so does a test that renders
// or checks a feature's keys without loading that feature's modules. Loaded by folder, as the commands are: the
// composition imports a feature's modules only through its index.ts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FEATURES_DIR } from './feature-commands.ts';

/** Each feature's strings module, by feature name, in name order. */
export function featureStringsModules(root = FEATURES_DIR): Map<string, string> {
  return new Map(
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => [entry.name, path.join(root, entry.name, 'strings.ts')] as const)
      .filter(([, file]) => existsSync(file))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Registers every feature's strings in the catalogue (a feature's part registers once, however often loaded). */
export async function loadFeatureStrings(): Promise<void> {
  for (const file of featureStringsModules().values()) await import(pathToFileURL(file).href);
}
