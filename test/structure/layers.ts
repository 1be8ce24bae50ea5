// The app's layers and who may import whom among them (the core, the features, the command modules, the
// composition), as rules the structure tests apply to the import graph. Tests, benchmarks and the demo are outside these rules.

/** The layers, each with the rules of what it may import (below). */
export type Layer =
  | { kind: 'core' }
  | { kind: 'feature'; name: string }
  | { kind: 'commands' }
  | { kind: 'app' }
  | { kind: 'bin' }
  | { kind: 'other' };

/** The layer a file of src/ or commands/ belongs to; a feature is named by its folder. */
export function layerOf(file: string): Layer {
  const parts = file.split('/');
  if (parts[0] === 'commands') return { kind: 'commands' };
  if (parts[0] !== 'src') return { kind: 'other' };
  if (parts[1] === 'features' && parts.length > 3) return { kind: 'feature', name: parts[2]! };
  if (parts[1] === 'core' || parts[1] === 'app' || parts[1] === 'bin') return { kind: parts[1] };
  return { kind: 'other' };
}

/**
 * A feature's public surface: what anything outside the feature may import of it. Its index.ts, and where one
 * index would pass on too much, an index-<part>.ts beside it for a part others use on its own.
 */
export function isFeatureSurface(file: string): boolean {
  return /^src\/features\/[^/]+\/index(-[a-z]+)?\.ts$/.test(file);
}

/**
 * Every import of the graph that breaks a rule, as "from -> to (rule)":
 * - the core imports only the core: no feature, nothing of the composition (src/app, src/bin);
 * - a feature imports the core, its own folder, and another feature only through that feature's surface, and
 *   nothing of the composition;
 * - a command module (commands/) imports the core and a feature only through its surface, and nothing of the
 *   composition; nothing of src/ imports a command module (the app loads commands/ by folder);
 * - the composition (src/app, src/bin) imports a feature only through its surface;
 * - nothing in src/ lies outside those folders.
 */
export function layerViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const source = layerOf(from);
    if (!from.startsWith('src/') && source.kind !== 'commands') continue;
    if (source.kind === 'other') {
      found.push(`${from} (a file of src/ outside core/, features/, app/ and bin/)`);
      continue;
    }
    for (const to of targets) {
      const target = layerOf(to);
      const breaks = (rule: string): void => void found.push(`${from} -> ${to} (${rule})`);
      if (target.kind === 'commands') {
        breaks('commands/ is loaded by folder, never imported');
        continue;
      }
      if (!to.startsWith('src/')) continue;
      if (source.kind === 'core' && target.kind !== 'core') breaks('the core imports only the core');
      else if (
        (source.kind === 'feature' || source.kind === 'commands') &&
        (target.kind === 'app' || target.kind === 'bin')
      )
        breaks(`${source.kind === 'feature' ? 'a feature' : 'a command module'} imports no composition`);
      else if (
        target.kind === 'feature' &&
        !(source.kind === 'feature' && source.name === target.name) &&
        !isFeatureSurface(to)
      )
        breaks(`outside ${target.name}, only src/features/${target.name}/index.ts`);
    }
  }
  return found;
}
