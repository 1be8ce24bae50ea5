// `node scripts/docs-moved.ts [--from <git revision>]`: checks that every heading and every fact-bearing block of the
// README at that revision (default `main`) still has a home in today's README.md or docs/*.md, so text moved out
// of the README (into the guides under docs/) is moved, not lost. A block is a paragraph, a list item, a table row
// or a code block; it counts as present when its words appear, in order, in one of today's files, whatever its
// wrapping, its links' targets or its list and table markup (a link retargeted from `#privacy` to
// `guide-owners.md#privacy` is the same text). Prints each block without a home and exits 1; exits 0 when all have one.
// For merging a branch that still adds to the README: `--from <that branch>` names what it added and was not re-homed.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export interface Block {
  kind: 'heading' | 'text' | 'code';
  /** The block as written, for the report. */
  text: string;
  /** Its first line in the file, 1-based. */
  line: number;
}

/** The headings, paragraphs, list items, table rows and code blocks of a Markdown text. */
export function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let open: { kind: Block['kind']; lines: string[]; line: number } | undefined;
  const close = (): void => {
    if (open !== undefined) blocks.push({ kind: open.kind, text: open.lines.join('\n'), line: open.line });
    open = undefined;
  };
  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    const trimmed = line.trimStart();
    if (open?.kind === 'code') {
      open.lines.push(line);
      if (trimmed.startsWith('```')) close();
      return;
    }
    if (trimmed.startsWith('```')) {
      close();
      open = { kind: 'code', lines: [line], line: index + 1 };
    } else if (trimmed === '') {
      close();
    } else if (/^#{1,6} /.test(line)) {
      close();
      blocks.push({ kind: 'heading', text: line.replace(/^#+ /, ''), line: index + 1 });
    } else if (trimmed.startsWith('|')) {
      close();
      if (!/^\|[\s|:-]*\|$/.test(trimmed)) blocks.push({ kind: 'text', text: trimmed, line: index + 1 });
    } else if (/^(?:[-*+]|\d+\.) /.test(trimmed) || open === undefined) {
      close();
      open = { kind: 'text', lines: [line], line: index + 1 };
    } else {
      open.lines.push(line);
    }
  });
  close();
  return blocks;
}

/** A text's words as they read: link targets, list and quote markers, table pipes and HTML comments left out. */
export function normalise(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1')
    .replace(/^\s*(?:[-*+>]|\d+\.)\s+/gm, ' ')
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The blocks of `before` that none of `after` holds: a heading must still be a heading, other blocks text. */
export function unhomed(before: string, after: readonly string[]): Block[] {
  const headings = new Set(
    after.flatMap((text) => blocksOf(text).filter((b) => b.kind === 'heading')).map((b) => b.text),
  );
  const bodies = after.map(normalise);
  return blocksOf(before).filter((block) =>
    block.kind === 'heading' ? !headings.has(block.text) : !bodies.some((body) => body.includes(normalise(block.text))),
  );
}

function main(): void {
  const { values } = parseArgs({ options: { from: { type: 'string', default: 'main' } } });
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const before = execFileSync('git', ['show', `${values.from}:README.md`], { cwd: root, encoding: 'utf8' });
  const files = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const missing = unhomed(
    before,
    files.map((file) => readFileSync(path.join(root, file), 'utf8')),
  );
  for (const block of missing) {
    console.log(`README.md@${values.from}:${block.line} (${block.kind}) ${block.text.split('\n')[0]!.slice(0, 120)}`);
  }
  console.log(
    `${missing.length} of ${blocksOf(before).length} blocks of README.md@${values.from} have no home in ${files.join(', ')}`,
  );
  process.exitCode = missing.length === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
