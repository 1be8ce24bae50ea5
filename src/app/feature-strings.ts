// Every feature's strings registered in the catalogue: at the app's start, and by a test that renders a feature's
// keys without loading its modules. The app finds them by where a feature keeps them (src/features/<feature>/), since
// it imports a feature's modules only through that feature's index.ts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FEATURES_DIR = fileURLToPath(new URL('../features/', import.meta.url));

/** Each feature's strings module, by feature name, in name order. */
export function featureStringsModules(root = FEATURES_DIR): Map<string, string> {
  return new Map(
    readdirSync(root, { withFileTypes: true })
      .filter((found) => found.isDirectory())
      .map((found) => [found.name, path.join(root, found.name, 'strings.ts')] as const)
      .filter(([, at]) => existsSync(at))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** Registers every feature's strings in the catalogue (a feature's part registers once, however often loaded). */
export async function loadFeatureStrings(): Promise<void> {
  for (const file of featureStringsModules().values()) await import(pathToFileURL(file).href);
}
