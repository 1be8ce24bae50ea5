// Who may import whom across the repository's top folders: the app never imports what tests or benchmarks use,
// and the benchmarks stand on their own (what they share with the tests lives in fixtures/ or the test doubles).
// The test doubles (packages/: the local Discord, the Voice API sandbox, the engine doubles) and SayBot share no code
// either way, so that a bug in SayBot's audio or protocol code cannot hide in the double that checks it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, resolveImport, ROOT, sourceFiles } from './import-graph.ts';
import { layerViolations } from './layers.ts';

const graph = importGraph(sourceFiles(['src', 'commands', 'packages', 'demo', 'bench', 'fixtures', 'scripts', 'test']));

function importsInto(from: readonly string[], into: readonly string[]): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (!from.some((folder) => file.startsWith(`${folder}/`))) continue;
    for (const target of targets)
      if (into.some((folder) => target.startsWith(`${folder}/`))) found.push(`${file} -> ${target}`);
  }
  return found;
}

describe('import directions', () => {
  it('the app (src/, commands/) imports nothing from the tests, the benchmarks, the demo or fixtures', () => {
    expect(importsInto(['src', 'commands'], ['test', 'bench', 'demo', 'fixtures'])).toEqual([]);
  });

  it('the app imports no test double, but for the in-process sandbox SayBot starts when no Voice API is configured', () => {
    expect(importsInto(['src', 'commands'], ['packages'])).toEqual([
      'src/app/start-saybot.ts -> packages/voice-sandbox/src/index.ts',
    ]);
  });

  it('the test doubles import nothing of SayBot (src/, commands/), nor each other, statically or by import()', () => {
    expect(importsInto(['packages'], ['src', 'commands', 'fixtures', 'scripts'])).toEqual([]);
    expect(importsInto(['packages/local-discord'], ['packages/voice-sandbox'])).toEqual([]);
    expect(importsInto(['packages/voice-sandbox'], ['packages/local-discord'])).toEqual([]);
    expect(importsInto(['packages/engine-doubles'], ['packages/local-discord', 'packages/voice-sandbox'])).toEqual([]);
    expect(importsInto(['packages/local-discord', 'packages/voice-sandbox'], ['packages/engine-doubles'])).toEqual([]);
    const dynamic = sourceFiles(['packages']).flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)]
        .map((match) => resolveImport(file, match[1]!))
        .filter((target) => target !== undefined && !target.startsWith(file.split('/').slice(0, 2).join('/')))
        .map((target) => `${file} -> ${target}`),
    );
    expect(dynamic).toEqual([]);
  });

  it('the benchmarks, fixtures and the demo import nothing from test/', () => {
    expect(importsInto(['bench', 'fixtures', 'demo', 'packages'], ['test'])).toEqual([]);
  });

  it('nothing imports an entry point (src/bin/): they are run, by npm scripts or as a child process, never imported', () => {
    expect(importsInto(['src', 'packages', 'demo', 'bench', 'fixtures', 'scripts', 'test'], ['src/bin'])).toEqual([]);
  });

  it('the layers of src/ hold: the core imports no feature and no composition, a feature reaches another only through its index.ts', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('names each import that breaks a layer rule it is shown', () => {
    const shown = new Map([
      ['src/core/order/pipeline.ts', ['src/core/api/client.ts', 'src/features/autoread/index.ts']],
      ['commands/myvoice.ts', ['src/features/autoread/reading/voice.ts', 'src/core/log.ts']],
      ['commands/voices.ts', ['src/features/privacy/index.ts', 'src/app/saybot.ts']],
      ['commands/dictionary.ts', ['src/features/autoread/index-dictionary.ts']],
      ['src/features/voices/clone-form.ts', ['commands/clone.ts']],
      ['src/features/autoread/autoread-members.ts', ['src/features/autoread/reading/voice.ts']],
      ['src/app/saybot.ts', ['src/features/autoread/autoread-wiring.ts', 'src/core/log.ts']],
      ['src/stray.ts', []],
    ]);
    expect(layerViolations(shown)).toEqual([
      'src/core/order/pipeline.ts -> src/features/autoread/index.ts (the core imports only the core)',
      'commands/myvoice.ts -> src/features/autoread/reading/voice.ts (outside autoread, only src/features/autoread/index.ts)',
      'commands/voices.ts -> src/app/saybot.ts (a command module imports no composition)',
      'src/features/voices/clone-form.ts -> commands/clone.ts (commands/ is loaded by folder, never imported)',
      'src/app/saybot.ts -> src/features/autoread/autoread-wiring.ts (outside autoread, only src/features/autoread/index.ts)',
      'src/stray.ts (a file of src/ outside core/, features/, app/ and bin/)',
    ]);
  });
});
