// The payment in sight (issue 96): the Voice API client takes no callbacks. What a paid call saw (accepted, or the
// facts of one that was not) is returned to its caller, who decides what it cost (charged, not charged, maybe charged)
// in one function, src/core/quota/paid-call.ts `chargeOf`, and writes it on the books in its own steps (paidCall);
// nothing the client is given calls back into the books. errors.ts only declares the charges.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const CLIENT = 'src/core/api/client.ts';
const CHARGES = new Set(['charged', 'not-charged', 'maybe-charged']);

/** Where `file` marks an error with a charge (`chargedAs`) or writes a charge as a value (not in a type, nor compared
 * with one, which reads it): `line: text`. */
function chargesIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node)) return;
    const compared = (kind: ts.SyntaxKind) =>
      kind === ts.SyntaxKind.EqualsEqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsEqualsToken;
    if (ts.isBinaryExpression(node) && compared(node.operatorToken.kind) && ts.isStringLiteral(node.right)) {
      visit(node.left);
      return;
    }
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

/** Where `file` sends again: a request or an attempt called inside a loop, or a wait before one (`sleep(`, `delay(`). */
function resendsIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node, inLoop: boolean): void => {
    const loop = inLoop || ts.isIterationStatement(node, false);
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (loop && /(?:#attempt|^request)$/.test(callee)) found.push(`${file}: ${callee}( in a loop`);
      if (/(?:^|\.)(?:sleep|delay)$/.test(callee)) found.push(`${file}: ${callee}(`);
    }
    // A function declared in a loop runs when it is called, not once per turn.
    ts.forEachChild(node, (child) => visit(child, loop && !ts.isFunctionLike(child)));
  };
  visit(source, false);
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

  it('decides what a call cost in one function, the paid call’s: the client marks nothing, past its 2xx either', () => {
    const RULE = 'src/core/quota/paid-call.ts';
    // errors.ts declares the charges (ChargeAnswer), `chargedAs`, and the one error charged by its kind (UndeliveredError, after a 2xx).
    const others = sourceFiles(['src']).filter((file) => file !== RULE && file !== 'src/core/api/errors.ts');
    const found = others.flatMap((file) => chargesIn(file).map((where) => ({ file, where })));
    // Elsewhere a charge is read (a caller's words, its books), never decided; the client returns facts, its Call
    // marking an error that breaks off a call past its 2xx only as the paid call reading its answer says (`read`).
    const deciding = found.filter(({ file, where }) => file.startsWith('src/core/api/') || where.endsWith('chargedAs'));
    expect(deciding.map(({ where }) => where.replace(/:\d+:/, ':'))).toEqual([]);
    const rule = chargesIn(RULE).join('\n');
    for (const mark of [/chargedAs/, /'not-charged'/, /'maybe-charged'/, /'charged'/]) expect(rule).toMatch(mark);
    expect(
      sourceFiles(['src']).filter((file) => /\bfunction chargeOf\b/.test(readFileSync(join(ROOT, file), 'utf8'))),
    ).toEqual([RULE]);
  });

  it('holds no resend rule: one attempt per send, for every endpoint; sending again is the paid call’s (resend)', () => {
    // No call of src/core/api/ (paid, or free as checkAccess) is sent again from there: no request or attempt inside a
    // loop, nothing waits to send again (a backoff, a sleep), and the backoff is reckoned in the paid call alone.
    const api = sourceFiles(['src']).filter((file) => file.startsWith('src/core/api/'));
    expect(api.flatMap(resendsIn)).toEqual([]);
    const backoff = sourceFiles(['src']).filter((file) =>
      /(?<!function )\bretryDelayMs\(/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(backoff).toEqual(['src/core/quota/paid-call.ts']);
  });

  it('finds a resend among a client’s attempts (the rule would see one come back)', () => {
    expect(resendsIn('test/structure/fixtures/client-resends.ts')).toEqual([
      'test/structure/fixtures/client-resends.ts: this.#attempt( in a loop',
      'test/structure/fixtures/client-resends.ts: call.sleep(',
    ]);
  });

  it('finds a callback among options (the rule would see one come back)', () => {
    const file = 'test/structure/fixtures/call-hooks.ts';
    expect(callbacksOf(file, 'CallOptions')).toEqual(['accepted', 'unaccepted', 'control']);
  });
});
