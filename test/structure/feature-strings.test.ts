// A feature's strings are registered by its strings module (src/features/<feature>/strings.ts) when it loads, so a
// module of the feature that names one of its keys (a reply, a table of clauses) must load that module at run time,
// the feature's surfaces (index.ts, index-<part>.ts) load it too, and a command module (commands/) that names a
// feature's key (its name, an option, a reply) loads one of them: then no key can be rendered unregistered, whoever
// renders it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveImport, runtimeImports, sourceFiles } from './import-graph.ts';
import { isFeatureSurface } from './layers.ts';

const FEATURES = [...new Set(sourceFiles(['src/features']).map((file) => file.split('/')[2] as string))].sort();

/** The repository files a module loads at run time. */
const runtimeFiles = (file: string): string[] =>
  runtimeImports(file)
    .map((specifier) => resolveImport(file, specifier))
    .filter((target) => target !== undefined);

/** Whether `text` names a key of `keys`: quoted whole, or as the fixed start of a template (`budget.name.${…}`). */
function namesAKey(text: string, keys: readonly string[]): boolean {
  const prefixes = [...text.matchAll(/`([\w-]+(?:\.[\w-]+)*\.)\$\{/g)].map((m) => m[1] as string);
  return keys.some(
    (key) =>
      [`'${key}'`, `"${key}"`, `\`${key}\``].some((quoted) => text.includes(quoted)) ||
      prefixes.some((prefix) => key.startsWith(prefix)),
  );
}

/** Each feature's keys (its English strings), by feature name. */
async function featureKeys(): Promise<Map<string, string[]>> {
  const keys = new Map<string, string[]>();
  for (const feature of FEATURES) {
    const { en } = (await import(join(ROOT, `src/features/${feature}/strings/en.ts`))) as {
      en: Record<string, string>;
    };
    keys.set(feature, Object.keys(en));
  }
  return keys;
}

describe("a feature's strings", () => {
  it('are loaded by every module of the feature that names one of its keys, and by its index.ts and index-<part>.ts', async () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [feature, keys] of await featureKeys()) {
      const strings = `src/features/${feature}/strings.ts`;
      for (const file of sourceFiles([`src/features/${feature}`])) {
        if (file === strings || file.startsWith(`src/features/${feature}/strings/`)) continue;
        const text = readFileSync(join(ROOT, file), 'utf8');
        if (!isFeatureSurface(file) && !namesAKey(text, keys)) continue;
        checked += 1;
        if (!runtimeFiles(file).includes(strings)) missing.push(`${file} (loads no ${strings})`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("are loaded by every command module that names one of a feature's keys, through one of that feature's surfaces (index.ts, index-<part>.ts)", async () => {
    const missing: string[] = [];
    const commands = sourceFiles(['commands']);
    for (const file of commands) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [feature, keys] of await featureKeys()) {
        const surface = (target: string) => target.startsWith(`src/features/${feature}/`) && isFeatureSurface(target);
        if (namesAKey(text, keys) && !runtimeFiles(file).some(surface))
          missing.push(`${file} (loads no surface of src/features/${feature}/)`);
      }
    }
    expect(commands.length).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  it('are found where a module names a key whole or by the start of a template', () => {
    expect(namesAKey("t(locale, 'usage.title')", ['usage.title'])).toBe(true);
    expect(namesAKey('t(locale, `budget.name.${name}`)', ['budget.name.memberDailyChars'])).toBe(true);
    expect(namesAKey("t(locale, 'usage.titles')", ['usage.title'])).toBe(false);
  });
});
