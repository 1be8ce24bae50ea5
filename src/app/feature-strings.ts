// Every feature's strings registered in the catalogue: at the app's start, and by a test that renders a feature's
// keys without loading its modules.
import { pathToFileURL } from 'node:url';
import { FEATURES_DIR, featurePaths } from './features.ts';

/** Each feature's strings module, by feature name, in name order. */
export function featureStringsModules(root = FEATURES_DIR): Map<string, string> {
  return featurePaths('strings.ts', root);
}

/** Registers every feature's strings in the catalogue (a feature's part registers once, however often loaded). */
export async function loadFeatureStrings(): Promise<void> {
  for (const file of featureStringsModules().values()) await import(pathToFileURL(file).href);
}
