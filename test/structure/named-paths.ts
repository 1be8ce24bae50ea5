// Repository paths named in prose (docs, comments), for the structure tests that check each one exists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './import-graph.ts';

const TOP = ['src', 'test', 'bench', 'packages', 'demo', 'fixtures', 'scripts', 'docs'];
const PATH = new RegExp(`(?<![\\w./-])(?:${TOP.join('|')})/[\\w./{},<>*-]*`, 'g');

/** The paths a text names: `a/{b,c}.ts` is both; a pattern (`<area>`, `*`) names no one path and is left out. */
export function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const match of text.matchAll(PATH)) {
    const raw = match[0].replace(/[.,:]+$/, '');
    if (/[<>*]/.test(raw)) continue;
    const braces = /\{([^}]*)\}/.exec(raw);
    const expanded = braces === null ? [raw] : braces[1]!.split(',').map((part) => raw.replace(braces[0], part));
    for (const path of expanded) paths.add(path);
  }
  return [...paths].sort();
}

/** The text of every comment in a TypeScript file (line and block comments, JSDoc included). */
export function commentsOf(file: string): string[] {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    ts.LanguageVariant.Standard,
    readFileSync(join(ROOT, file), 'utf8'),
  );
  const comments: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push(scanner.getTokenText());
    }
  }
  return comments;
}
