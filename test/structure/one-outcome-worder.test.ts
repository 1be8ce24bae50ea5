// One outcome, worded in one place: src/features/speaking/outcome-words.ts is the one module that turns a speech
// outcome (played, skipped, stopped, cut-off, files, voice-message, failed) into the member's words, so every
// front-end (/say, the user install, the reply buttons, the soundboard, /scene, the studio, the dashboard's samples)
// only posts what it is given, and a new outcome is worded for all of them at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const WORDER = 'src/features/speaking/outcome-words.ts';

/**
 * Files that read an outcome's kind without wording it, and why. Auto-read answers no member per line: it reads an
 * outcome only to open its own gates (the paid voice back, a failure to report once to the operator).
 */
const READS_WITHOUT_WORDING = new Set(['src/features/autoread/reading/reader.ts']);

/** What switching on an outcome's kind looks like: reading `outcome.kind`, or a case of a kind only an outcome has. */
const SWITCHES_ON_KIND = [
  /\boutcome\.kind\b/,
  /case '(played|skipped|stopped|cut-off|files)'/,
  /ended as|rendered as|came back as/,
];

/** The lines of `text`, comments aside, that switch on an outcome's kind. */
function kindSwitches(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*/g, '');
  return code.split('\n').filter((line) => SWITCHES_ON_KIND.some((pattern) => pattern.test(line)));
}

describe('one outcome, worded in one place', () => {
  it('only the worder switches on an outcome kind among the features and the command modules', () => {
    const files = sourceFiles(['src/features', 'commands']);
    const found = files
      .filter((file) => file !== WORDER && !READS_WITHOUT_WORDING.has(file))
      .flatMap((file) => kindSwitches(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
    expect(files).toContain(WORDER);
  });

  it('the worder itself words every kind (the test above would pass on an empty file)', () => {
    const text = readFileSync(join(ROOT, WORDER), 'utf8');
    for (const kind of ['played', 'skipped', 'stopped', 'cut-off', 'files', 'voice-message', 'failed'])
      expect(text, kind).toContain(`'${kind}'`);
  });

  it('finds a switch on a kind, and not a mention of one in a comment or another word', () => {
    expect(kindSwitches("  if (outcome.kind === 'failed') throw outcome.error;")).toHaveLength(1);
    expect(kindSwitches("    case 'played':")).toHaveLength(1);
    expect(kindSwitches('throw new Error(`a sound rendered as ${x}`);')).toHaveLength(1);
    expect(kindSwitches("// case 'played': said in the worder\nconst played = 1;")).toEqual([]);
    expect(kindSwitches("if (target.kind === 'voice') return;")).toEqual([]);
  });
});
