// The payment in sight (issue 96): the Voice API client takes no callbacks. What a paid call came to (accepted, not
// charged, maybe charged) is returned to its caller, who writes it on the books in its own steps
// (src/core/quota/paid-call.ts paidCall); nothing the client is given calls back into the books. What it came to is
// decided in one module, src/core/api/response.ts (the retry rule and its Call); errors.ts only declares it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const CLIENT = 'src/core/api/client.ts';
const CHARGES = new Set(['charged', 'not-charged', 'maybe-charged']);

/** Where `file` marks an error with a charge (`chargedAs`) or writes a charge as a value (not in a type): `line: text`. */
function chargesIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node)) return;
    const marks = ts.isPropertyAccessExpression(node) && node.name.text === 'chargedAs';
    if (marks || (ts.isStringLiteral(node) && CHARGES.has(node.text))) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${file}:${line + 1}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each member of `name` in `file` whose type is (or includes) a function: a callback the caller hands over. */
function callbacksOf(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  let seen = false;
  const isFunction = (node: ts.Node): boolean =>
    ts.isFunctionTypeNode(node) || ts.isMethodSignature(node) || ts.forEachChild(node, isFunction) === true;
  ts.forEachChild(source, (node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== name) return;
    seen = true;
    for (const member of node.members)
      if (ts.isMethodSignature(member) || (ts.isPropertySignature(member) && member.type && isFunction(member.type)))
        found.push(member.name.getText(source));
  });
  if (!seen) throw new Error(`${file} declares no ${name}`);
  return found;
}

describe('the Voice API client', () => {
  it('takes no callback with a call: its options are signals, and what the call came to is returned', () => {
    expect(callbacksOf(CLIENT, 'CallOptions')).toEqual([]);
  });

  it('decides what a call came to in one module: no other marks a charge, nor writes a charge in src/core/api/', () => {
    const RULE = 'src/core/api/response.ts';
    // errors.ts declares the charges (ChargeAnswer), `chargedAs`, and the one error charged by its kind (UndeliveredError, after a 2xx).
    const others = sourceFiles(['src']).filter((file) => file !== RULE && file !== 'src/core/api/errors.ts');
    const found = others.flatMap((file) => chargesIn(file).map((where) => ({ file, where })));
    // Elsewhere a charge is read (a caller's words, its books), never decided.
    const deciding = found.filter(({ file, where }) => file.startsWith('src/core/api/') || where.endsWith('chargedAs'));
    expect(deciding.map(({ where }) => where)).toEqual([]);
    expect(chargesIn(RULE).length).toBeGreaterThan(5);
  });

  it('finds a callback among options (the rule would see one come back)', () => {
    const file = 'test/structure/fixtures/call-hooks.ts';
    expect(callbacksOf(file, 'CallOptions')).toEqual(['accepted', 'unaccepted', 'control']);
  });
});
