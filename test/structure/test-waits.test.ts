// A test's wait is a bound for a slow, busy host, never vitest's default: vi.waitFor and vi.waitUntil give up after
// 1 s unless told otherwise, which a request over HTTP or a thread's answer can take on a host half as fast beside
// the rest of the suite. expect.poll's default is the config's (vitest.config.ts, 20 s). Read from the syntax tree.
import { globSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Each vi.waitFor / vi.waitUntil call in `source` without a timeout of its own, as `file:line`. */
function defaultWaits(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && /^vi\.(waitFor|waitUntil)$/.test(node.expression.getText(tree))) {
      const options = node.arguments[1];
      const bounded =
        options !== undefined &&
        !(
          ts.isObjectLiteralExpression(options) &&
          !options.properties.some((property) => property.name?.getText(tree) === 'timeout')
        );
      if (!bounded) found.push(`${file}:${tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe("a test's waits", () => {
  it('every vi.waitFor and vi.waitUntil names its own timeout', () => {
    const files = globSync('test/**/*.ts').map((file) => file.split('\\').join('/'));
    expect(files.flatMap((file) => defaultWaits(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('would see one that does not, and accept a timeout given by name or by a constant', () => {
    const source = [
      'await vi.waitFor(() => expect(a).toBe(1));',
      'await vi.waitFor(() => expect(a).toBe(1), { interval: 5 });',
      'await vi.waitFor(() => expect(a).toBe(1), { timeout: 20_000 });',
      'await vi.waitUntil(() => ready, EVENT);',
    ].join('\n');
    expect(defaultWaits('x.test.ts', source)).toEqual(['x.test.ts:1', 'x.test.ts:2']);
  });
});
