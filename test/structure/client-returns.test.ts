// The payment in sight (issue 96): the Voice API client takes no callbacks. What a paid call came to (accepted, not
// charged, maybe charged) is returned to its caller, who writes it on the books in its own steps
// (src/core/quota/paid-call.ts paidCall); nothing the client is given calls back into the books.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './import-graph.ts';

const CLIENT = 'src/core/api/client.ts';

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

  it('finds a callback among options (the rule would see one come back)', () => {
    const file = 'test/structure/fixtures/call-hooks.ts';
    expect(callbacksOf(file, 'CallOptions')).toEqual(['accepted', 'unaccepted', 'control']);
  });
});
