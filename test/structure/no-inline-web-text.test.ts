// The dashboard's stylesheets and page scripts are files (src/features/dashboard/web/, served by web-files.ts), where
// the formatter and lint read them: no TypeScript module under src/ holds one as a string. A string (a literal or a
// template, its holes read as `${}`) holds one when it has a CSS rule (a selector's `{` and a `property: value;`), a
// <style> element, a <script> element with a body (a <script src> has none), or browser script (document., window.,
// localStorage. or addEventListener( in the text). Code and comments do not count: src/ is compiled without the DOM's
// types, so browser code written as TypeScript would not compile. Nothing needs to be let through today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const WEB_TEXT: readonly RegExp[] = [
  /[\w\])*>-]\s*\{\s*-{0,2}[a-z][\w-]*\s*:[^;{}]+;/i,
  /<style[\s>]/i,
  /<script\b[^>]*>\s*[^<\s]/i,
  /\b(?:document|window|localStorage)\.[a-z]|\baddEventListener\s*\(/,
];

/** Every string of a TypeScript file, a template's holes as `${}`. */
function stringsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const strings: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) strings.push(node.text);
    else if (ts.isTemplateExpression(node))
      strings.push(node.head.text + node.templateSpans.map((span) => '${}' + span.literal.text).join(''));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return strings;
}

/** Each string of `files` that holds a stylesheet or a page script, as "file: its start". */
function webTextIn(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    stringsOf(file)
      .filter((text) => WEB_TEXT.some((pattern) => pattern.test(text)))
      .map((text) => `${file}: ${text.slice(0, 24)}`),
  );
}

describe('stylesheets and page scripts', () => {
  it('are held as a string by no TypeScript module under src/', () => {
    const files = sourceFiles(['src']);
    expect(files.length).toBeGreaterThan(100);
    expect(webTextIn(files)).toEqual([]);
  });

  it('are found in a string, a template included, and not in comments, code or plain words', () => {
    const file = 'test/structure/fixtures/holds-web-text.ts';
    expect(webTextIn([file])).toEqual([
      `${file}: .card { padding: var(--s`,
      `${file}: <style>p{}</style>`,
      `${file}: <script>\${}</script>`,
      `${file}: document.getElementById(`,
    ]);
  });
});
