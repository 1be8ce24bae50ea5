// The README is a front door (what SayBot is, a picture of it at work, how to try and run it, the commands at a
// glance, links), at most 250 lines; everything else lives in the guides under docs/. Every heading the README had
// before the move has a home, every link between the documents lands on a file and a heading that exist, and the
// check that moved text was moved, not lost (scripts/docs-moved.ts), notices a block that went missing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf, unhomed } from '../../scripts/docs-moved.ts';
import { ROOT } from './import-graph.ts';

const README_MAX_LINES = 250;

/** Each heading of the README before it became a front door (975 lines), and the document that holds it now. */
const HOMES: Record<string, string> = {
  SayBot: 'README.md',
  'Quick start': 'README.md',
  'Try it first: `npm run demo`': 'README.md',
  Licence: 'README.md',
  Commands: 'docs/guide-members.md',
  'Which voice speaks': 'docs/guide-members.md',
  'Speed and volume': 'docs/guide-members.md',
  Scenes: 'docs/guide-members.md',
  'Voice messages and Speak': 'docs/guide-members.md',
  'Buttons under a reply: play again, save as sound': 'docs/guide-members.md',
  Permissions: 'docs/guide-managers.md',
  'Auto-read': 'docs/guide-managers.md',
  '1. Node.js 24': 'docs/guide-owners.md',
  '2. The Discord application': 'docs/guide-owners.md',
  '3. Configure and start': 'docs/guide-owners.md',
  Configuration: 'docs/guide-owners.md',
  'Servers you chose': 'docs/guide-owners.md',
  'Data and backups': 'docs/guide-owners.md',
  'More preset voices': 'docs/guide-owners.md',
  'Free voice': 'docs/guide-owners.md',
  'Outside servers: the user-installable app': 'docs/guide-owners.md',
  'Characters: budgets, the monthly quota and the cache': 'docs/guide-owners.md',
  'Bounded queues': 'docs/guide-owners.md',
  'The audio cache': 'docs/guide-owners.md',
  Privacy: 'docs/guide-owners.md',
  'Running it elsewhere': 'docs/guide-owners.md',
  Docker: 'docs/guide-owners.md',
  'Health and metrics': 'docs/guide-owners.md',
  'Running at scale': 'docs/guide-scale.md',
  Shards: 'docs/guide-scale.md',
  'The audio cache across processes and machines': 'docs/guide-scale.md',
  'For developers': 'docs/guide-developers.md',
  Tests: 'docs/guide-developers.md',
};

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const documents = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function headingsOf(markdown: string): string[] {
  return blocksOf(markdown)
    .filter((block) => block.kind === 'heading')
    .map((block) => block.text);
}

/** GitHub's anchor for each heading of a document (a repeated one gets -1, -2, ...). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headingsOf(markdown)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The links of a document that do not land: a file that does not exist, or an anchor no heading there has. */
function brokenLinks(file: string): string[] {
  const text = blocksOf(read(file))
    .filter((block) => block.kind !== 'code')
    .map((block) => block.text)
    .join('\n');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue;
    const [pathPart, anchor] = target!.split('#') as [string, string | undefined];
    const linked = pathPart === '' ? file : normalize(join(dirname(file), pathPart));
    let exists = true;
    try {
      readFileSync(join(ROOT, linked));
    } catch {
      exists = false;
    }
    if (!exists) broken.push(`${file}: ${target} (no file ${linked})`);
    else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(read(linked)).has(anchor))
      broken.push(`${file}: ${target} (no heading in ${linked})`);
  }
  return broken;
}

describe('the README is a front door', () => {
  it(`is at most ${README_MAX_LINES} lines`, () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('shows SayBot at work with a picture the screenshot script makes (docs/images/ or docs/screenshots/)', () => {
    expect(read('README.md')).toMatch(/docs\/(?:images|screenshots)\/[\w.-]+\.png/);
  });

  it('links to each guide under docs/', () => {
    const readme = read('README.md');
    const guides = documents.filter((file) => /^docs\/guide-[\w-]+\.md$/.test(file));
    expect(guides.length).toBeGreaterThanOrEqual(3);
    for (const guide of guides) expect(readme).toContain(`(${guide}`);
  });

  it('every heading the README had before the move is a heading of its new home', () => {
    const missing = Object.entries(HOMES).filter(([heading, file]) => !headingsOf(read(file)).includes(heading));
    expect(missing).toEqual([]);
  });

  it('every link between the README and docs/ lands on a file, and on a heading when it names one', () => {
    expect(documents.flatMap(brokenLinks)).toEqual([]);
  });
});

describe('the check that moved text was not lost (scripts/docs-moved.ts)', () => {
  const before = [
    '# Title',
    '',
    'A paragraph that says a fact, see [Privacy](#privacy),',
    'wrapped over two lines.',
    '',
    '- **A bullet**: with its own fact',
    '  and a continuation.',
    '',
    '| Setting | Default |',
    '|---|---|',
    '| `QUEUE_MAX_CLIPS` | 20 |',
  ].join('\n');

  it('finds a block at home when it was rewrapped, its link retargeted and its table realigned', () => {
    const after = [
      '## Title',
      '',
      'A paragraph that says a fact, see [Privacy](guide-owners.md#privacy), wrapped over two lines.',
      '',
      '* **A bullet**: with its own fact and a continuation.',
      '',
      '| Setting           | Default |',
      '| ----------------- | ------- |',
      '| `QUEUE_MAX_CLIPS` | 20      |',
    ].join('\n');
    expect(unhomed(before, ['# Front door', after])).toEqual([]);
  });

  it('names each heading, block and table row (its header row too) that has no home', () => {
    const after = ['Title', '', 'A paragraph that says a fact, see Privacy, wrapped over two lines.'].join('\n');
    expect(unhomed(before, [after]).map((block) => [block.kind, block.line])).toEqual([
      ['heading', 1],
      ['text', 6],
      ['text', 9],
      ['text', 11],
    ]);
  });
});
