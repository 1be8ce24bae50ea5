// No hubs: a module that exports many names mixes what its importers need (rights, targets, words and buttons in
// one index.ts), so none of them can be read or moved alone. Every exported name counts, types included, and a
// re-export as much as a declaration; `export * from` counts what it passes on (`export * as name`, one name).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { resolveImport, ROOT, sourceFiles } from './import-graph.ts';

const MOST = 25;

/** The names a module exports, `export *` followed through the repository's modules. */
function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause)) for (const e of clause.elements) names.add(e.name.text);
      else if (clause !== undefined) names.add(clause.name.text);
      else {
        const target = resolveImport(file, (statement.moduleSpecifier as ts.StringLiteral).text);
        if (target !== undefined) for (const name of exportedNames(target, seen)) names.add(name);
      }
    } else if (ts.isExportAssignment(statement)) names.add('default');
    else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations) names.add(declaration.name.getText(source));
      else names.add((statement as { name?: ts.Identifier }).name?.text ?? 'default');
    }
  }
  return names;
}

describe('exports', () => {
  it(`no module of src/ exports more than ${MOST} names`, () => {
    const files = sourceFiles(['src']);
    expect(files.length).toBeGreaterThan(300);
    const hubs = files.flatMap((file) => {
      const count = exportedNames(file).size;
      return count > MOST ? [`${file}: ${count}`] : [];
    });
    expect(hubs).toEqual([]);
  });

  it('counts declarations, re-exports and what `export *` passes on', () => {
    expect([...exportedNames('test/structure/fixtures/exports-a-few.ts')].sort()).toEqual([
      'Five',
      'Four',
      'Six',
      'one',
      'request',
      'seven',
      'three',
      'two',
    ]);
  });
});
