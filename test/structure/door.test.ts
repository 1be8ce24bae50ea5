// The door decides in one file (issue 96): an interaction's way from arrival to its command is read in
// src/core/interactions/router.ts alone. The app hands it data (the commands, their services, the servers the owner
// chose, whether SayBot is stopping, the features' words and a named button handler), never a closure of its own
// making, so that a reader learns nothing about the door by going back to src/app/saybot.ts; who is served and which
// kind of command answers are the router's rules, asked by the rest of SayBot rather than kept beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const ROUTER = 'src/core/interactions/router.ts';
const APP = 'src/app/saybot.ts';
const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);

/** Every node under `node` (itself included). */
function descendants(node: ts.Node): ts.Node[] {
  const found: ts.Node[] = [node];
  node.forEachChild((child) => void found.push(...descendants(child)));
  return found;
}

const isClosure = (node: ts.Node) =>
  ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node);

describe('the door', () => {
  const files = sourceFiles(['src', 'commands']);

  it('is entered from src/app/saybot.ts alone, which hands it no closure of its own making', () => {
    const callers = files.filter((file) => file !== ROUTER && /\bhandleInteraction\(/.test(codeOf(file)));
    expect(callers).toEqual([APP]);
    const nodes = descendants(parse(APP));
    const calls = nodes.filter(
      (node): node is ts.CallExpression =>
        ts.isCallExpression(node) && node.expression.getText() === 'handleInteraction',
    );
    expect(calls).toHaveLength(1);
    // What the call is given, with what saybot.ts makes under the names it passes (its door object).
    const passed = new Set(calls.flatMap((call) => call.arguments.map((arg) => arg.getText())));
    const made = nodes.flatMap((node) => {
      if (ts.isVariableDeclaration(node) && node.initializer && passed.has(node.name.getText()))
        return [node.initializer];
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken)
        return passed.has(node.left.getText()) ? [node.right] : [];
      return [];
    });
    expect(made.length).toBeGreaterThan(0);
    const given = [...calls.flatMap((call) => call.arguments), ...made];
    const closures = given.flatMap(descendants).filter(isClosure);
    expect(closures.map((node) => node.getText())).toEqual([]);
  });

  it('keeps who is served and which kind of command answers as its own rules, declared in router.ts only', () => {
    for (const rule of ['chosenByOwner', 'isMessageMenu']) {
      const declaring = files.filter((file) => new RegExp(`\\bfunction ${rule}\\b`).test(codeOf(file)));
      expect(declaring, rule).toEqual([ROUTER]);
    }
    // ALLOWED_GUILDS' list is asked through the router's rule, never matched against a server by the app itself.
    expect(codeOf('src/app/allowed-guilds.ts')).not.toMatch(/(?:chosen|#allowed)\.has\(/);
  });
});
