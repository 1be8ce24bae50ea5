// Every feature's strings (src/features/<feature>/strings.ts), registered in the catalogue. A feature's modules
// register their own strings as they load; the app registers them all at its start, and so does a test that renders
// or checks a feature's keys without loading that feature's modules. Loaded by folder, as the commands are: the
// composition imports a feature's modules only through its index.ts.
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
