// An order changes only through its own methods (src/core/order/order-record.ts `Order`): the part source and the renders return
// what they learn and the order records it, so nothing writes onto it from outside. Read from the declarations, not
// from a list: every field of the Order class is readonly, #private or a getter without a setter, and every member of
// the interfaces it implements is readonly, so the type checker refuses a write from outside; and no other module
// that can hold an order (one importing from src/core/order/ or src/core/sourcing/order-account.ts) assigns to a
// property named as a field of it, which a cast would get past.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, importGraph, sourceFiles } from './import-graph.ts';

const ORDER = 'src/core/order/order-record.ts';
const CLASS = 'Order';
const ROOMS = ['src/core/order', 'src/core/sourcing'];

const parse = (file: string): ts.SourceFile =>
  ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);

const nameOf = (name: ts.PropertyName | ts.PrivateIdentifier): string =>
  ts.isPrivateIdentifier(name) ? name.text.slice(1) : name.getText();

const has = (node: ts.Node, kind: ts.SyntaxKind): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === kind);

/** The class's fields (properties and accessors, a #private one by its bare name), those writable from outside, and the interfaces it implements. */
function classFields(
  source: ts.SourceFile,
  name: string,
): { fields: string[]; writable: string[]; implemented: string[] } {
  const declaration = source.statements.find(
    (statement): statement is ts.ClassDeclaration => ts.isClassDeclaration(statement) && statement.name?.text === name,
  );
  if (declaration === undefined) return { fields: [], writable: [], implemented: [] };
  const fields: string[] = [];
  const writable: string[] = [];
  for (const member of declaration.members) {
    if (ts.isPropertyDeclaration(member)) {
      fields.push(nameOf(member.name));
      const hidden =
        ts.isPrivateIdentifier(member.name) ||
        has(member, ts.SyntaxKind.PrivateKeyword) ||
        has(member, ts.SyntaxKind.ProtectedKeyword);
      if (!hidden && !has(member, ts.SyntaxKind.ReadonlyKeyword)) writable.push(nameOf(member.name));
    } else if (ts.isGetAccessorDeclaration(member)) {
      fields.push(nameOf(member.name));
    } else if (ts.isSetAccessorDeclaration(member)) {
      fields.push(nameOf(member.name));
      if (!ts.isPrivateIdentifier(member.name)) writable.push(nameOf(member.name));
    }
  }
  const implemented = (declaration.heritageClauses ?? [])
    .filter((clause) => clause.token === ts.SyntaxKind.ImplementsKeyword)
    .flatMap((clause) => clause.types.map((type) => type.expression.getText()));
  return { fields: [...new Set(fields)], writable, implemented };
}

/** The members of the named interfaces declared in `files` that are not readonly, as "Interface.member". */
function writableMembers(files: readonly string[], names: readonly string[]): { found: string[]; writable: string[] } {
  const found: string[] = [];
  const writable: string[] = [];
  for (const file of files)
    for (const statement of parse(file).statements) {
      if (!ts.isInterfaceDeclaration(statement) || !names.includes(statement.name.text)) continue;
      found.push(statement.name.text);
      for (const member of statement.members)
        if (ts.isPropertySignature(member) && !has(member, ts.SyntaxKind.ReadonlyKeyword))
          writable.push(`${statement.name.text}.${nameOf(member.name)}`);
    }
  return { found, writable };
}

const ASSIGNS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** Where `file` writes to a property named in `fields` of something other than `this`, as "file:line: target". */
function writesTo(file: string, fields: ReadonlySet<string>): string[] {
  const source = parse(file);
  const found: string[] = [];
  const named = (target: ts.Expression): boolean => {
    if (ts.isPropertyAccessExpression(target))
      return target.expression.kind !== ts.SyntaxKind.ThisKeyword && fields.has(target.name.text);
    if (ts.isElementAccessExpression(target) && ts.isStringLiteralLike(target.argumentExpression))
      return target.expression.kind !== ts.SyntaxKind.ThisKeyword && fields.has(target.argumentExpression.text);
    return false;
  };
  const note = (target: ts.Expression): void => {
    const { line } = source.getLineAndCharacterOfPosition(target.getStart());
    found.push(`${file}:${line + 1}: ${target.getText()}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && ASSIGNS.has(node.operatorToken.kind) && named(node.left)) note(node.left);
    else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) &&
      named(node.operand)
    )
      note(node.operand);
    else if (ts.isDeleteExpression(node) && named(node.expression)) note(node.expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("an order's fields", () => {
  const order = classFields(parse(ORDER), CLASS);

  it('are read from its class, and none is writable from outside', () => {
    expect(order.fields).toEqual(expect.arrayContaining(['phase', 'lines', 'standIn', 'charge', 'outcome']));
    expect(order.writable).toEqual([]);
  });

  it('are readonly in every interface it implements', () => {
    const interfaces = writableMembers(sourceFiles(ROOMS), order.implemented);
    expect(order.implemented.length).toBeGreaterThan(0);
    expect(interfaces.found.sort()).toEqual([...order.implemented].sort());
    expect(interfaces.writable).toEqual([]);
  });

  it('are written by no other module that can hold an order', () => {
    const graph = importGraph(sourceFiles(['src', 'commands']));
    const holders = [...graph]
      .filter(
        // The pipeline too: the run writes through the record's methods only.
        ([, targets]) =>
          targets.some(
            (target) => target.startsWith('src/core/order/') || target === 'src/core/sourcing/order-account.ts',
          ),
      )
      .map(([file]) => file);
    expect(holders).toEqual(expect.arrayContaining(['src/core/order/pipeline.ts', 'src/core/sourcing/part-source.ts']));
    const fields = new Set(order.fields);
    expect(holders.flatMap((file) => writesTo(file, fields))).toEqual([]);
  });

  it('finds a write through a property, an index or a step, and none on `this`', () => {
    const file = 'test/structure/fixtures/writes-an-order.ts';
    expect(writesTo(file, new Set(['freeVoice', 'lines', 'ahead']))).toEqual([
      `${file}:4: order.freeVoice`,
      `${file}:5: order.ahead`,
      `${file}:6: order.ahead`,
      `${file}:7: order['lines']`,
    ]);
  });

  it('reads a class: its fields, which of them may be written from outside, what it implements', () => {
    const text = [
      'export class Order implements A, B {',
      '  readonly a = 1;',
      '  b = 2;',
      '  #c = 3;',
      '  private d = 4;',
      '  get e() { return 5; }',
      '  set f(value: number) {}',
      '  g(): void {}',
      '}',
    ].join('\n');
    const source = ts.createSourceFile('order.ts', text, ts.ScriptTarget.Latest, true);
    expect(classFields(source, 'Order')).toEqual({
      fields: ['a', 'b', 'c', 'd', 'e', 'f'],
      writable: ['b', 'f'],
      implemented: ['A', 'B'],
    });
  });
});
