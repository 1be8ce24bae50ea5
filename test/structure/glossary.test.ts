// One name per concept, written down: docs/architecture.md's Glossary gives the core's words, and every type src/core
// exports (an interface, a type, a class, an enum) is named there, so a new name for an old thing shows up where it can
// be seen next to the old one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const CORE = ['src/core'];

/** The types `text` (a module) declares and exports: interfaces, type aliases, classes and enums, not re-exports. */
function exportedTypes(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  for (const statement of source.statements) {
    const declares =
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isEnumDeclaration(statement);
    const exported = ts.canHaveModifiers(statement)
      ? (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (declares && exported && statement.name !== undefined) names.push(statement.name.text);
  }
  return names;
}

/** The words of a Markdown section (`## title` to the next `## `) written as code. */
function codeWordsOf(markdown: string, title: string): Set<string> {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) return new Set();
  const rest = markdown.slice(start + title.length + 5);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return new Set([...section.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** Where `file`'s code names something with `word` in it: each name, and whether it is a property's key or access. */
function namesWith(file: string, text: string, word: RegExp): { name: string; property: boolean }[] {
  const names: { name: string; property: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && word.test(node.text)) {
      const { parent } = node;
      const property =
        (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isPropertyAccessExpression(parent)) &&
        parent.name === node;
      names.push({ name: node.text, property });
    }
    if (ts.isStringLiteral(node) && word.test(node.text) && !/\s/.test(node.text))
      names.push({ name: `'${node.text}'`, property: false });
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return names;
}

describe('the Glossary of docs/architecture.md', () => {
  const glossary = codeWordsOf(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'), 'Glossary');

  it('names every type src/core exports', () => {
    const types = sourceFiles(CORE).flatMap((file) =>
      exportedTypes(file, readFileSync(join(ROOT, file), 'utf8')).map((name) => ({ file, name })),
    );
    expect(types.length).toBeGreaterThan(300);
    expect(types.filter(({ name }) => !glossary.has(name)).map(({ file, name }) => `${file}: ${name}`)).toEqual([]);
  });

  it('means one thing by each name: no two modules of src/core export a type of the same name', () => {
    const files = new Map<string, string[]>();
    for (const file of sourceFiles(CORE))
      for (const name of exportedTypes(file, readFileSync(join(ROOT, file), 'utf8')))
        files.set(name, [...(files.get(name) ?? []), file]);
    expect(files.size).toBeGreaterThan(300);
    expect(
      [...files].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(', ')}`),
    ).toEqual([]);
  });

  it("means an order's acceptance by accept: the Voice API's 2xx is a call's ok, its row confirmed", () => {
    // The order's words, where it is accepted (its record, the pipeline, Money); elsewhere only an HTTP Accept header.
    const ORDER = ['src/core/order/', 'src/core/quota/money.ts'];
    const HEADER = ['src/core/api/client.ts', 'src/core/engines/engine-clients.ts'];
    const found = sourceFiles(CORE).flatMap((file) =>
      namesWith(file, readFileSync(join(ROOT, file), 'utf8'), /accept/i).map((name) => ({ file, ...name })),
    );
    expect(found.length).toBeGreaterThan(10);
    const words = new Set(['accept', 'accepted', "'accepted'", 'Acceptance', 'AcceptedTerms', 'tellAccepted']);
    const strays = found.filter(({ file, name, property }) => {
      if (ORDER.some((where) => file.startsWith(where))) return !words.has(name) && name !== 'acceptInstead';
      return !(HEADER.includes(file) && name === 'accept' && property);
    });
    expect([...new Set(strays.map(({ file, name }) => `${file}: ${name}`))]).toEqual([]);
  });

  it('reads exported declarations only, and code words of the one section', () => {
    const module = [
      'export interface A {}',
      'export type B = string;',
      'export class C {}',
      'export enum D { x }',
      'interface Hidden {}',
      'export function f(): void {}',
      "export type { E } from './e.ts';",
    ].join('\n');
    expect(exportedTypes('m.ts', module)).toEqual(['A', 'B', 'C', 'D']);
    const markdown = '# Doc\n\n## Glossary\n\n- **word** - `A` and `B`\n\n## Next\n\n`C`\n';
    expect([...codeWordsOf(markdown, 'Glossary')]).toEqual(['A', 'B']);
    const accepting =
      "const o = { accept: 'x', kind: 'accepted' }; o.accept; ledger.accept(e); interface I { accept: 1 }";
    expect(namesWith('m.ts', accepting, /accept/)).toEqual([
      { name: 'accept', property: true },
      { name: "'accepted'", property: false },
      { name: 'accept', property: true },
      { name: 'accept', property: true },
      { name: 'accept', property: true },
    ]);
  });
});
