// A speech setting is declared once, all the way down: past its declaration (src/core/settings/setting-declarations.ts)
// the request, its body, its cache key, the options and the shown text are built by going over the declarations, so
// a setting's name appears as code in few files: its declaration, and a command it is particular to (/emote's
// exaggeration). Strings (the catalogue, string literals), released schema steps and the Voice API client (which
// speaks the service's own field names) do not count; the sandbox is a package of its own, outside src/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const NOT_COUNTED = [
  /\/strings\//,
  /\/i18n\/(en|ko|ja)\.ts$/,
  /schema-steps\.ts$/,
  /migrations\.ts$/,
  /^src\/core\/api\//,
];

/** The files whose code (identifiers and property names, not strings or comments) names `word`. */
function filesNaming(word: string, files: readonly string[]): string[] {
  return files.filter((file) => {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
    let found = false;
    const visit = (node: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(node) && node.text === word) found = true;
      else ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  });
}

const counted = sourceFiles(['src', 'commands']).filter((file) => !NOT_COUNTED.some((pattern) => pattern.test(file)));

describe('a speech setting declared once', () => {
  it.each(['exaggeration', 'tone'])('%s is named as code in at most 4 files', (word) => {
    const files = filesNaming(word, counted);
    expect(files).toContain('src/core/settings/setting-declarations.ts');
    expect(files.length, files.join(', ')).toBeLessThanOrEqual(4);
  });

  it('counts an identifier or a property name, not a string or a comment', () => {
    expect(filesNaming('tone', ['test/structure/fixtures/names-a-setting.ts'])).toEqual([
      'test/structure/fixtures/names-a-setting.ts',
    ]);
    expect(filesNaming('exaggeration', ['test/structure/fixtures/names-a-setting.ts'])).toEqual([]);
  });
});
