// The features' folders (src/features/<feature>/): the app finds what each brings by where it keeps it, since it
// imports a feature's modules only through that feature's index.ts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FEATURES_DIR = fileURLToPath(new URL('../features/', import.meta.url));

/** Each feature that has `entry` (a folder or a module in its own folder): feature name -> its path, in name order. */
export function featurePaths(entry: string, root = FEATURES_DIR): Map<string, string> {
  return new Map(
    readdirSync(root, { withFileTypes: true })
      .filter((found) => found.isDirectory())
      .map((found) => [found.name, path.join(root, found.name, entry)] as const)
      .filter(([, at]) => existsSync(at))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
