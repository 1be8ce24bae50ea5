// Money decided in src/core/quota/ (issue 96): a paid request's steps are awaited in one function beside the books
// (src/core/quota/paid-call.ts `paidCall`, with who pays: `Charge`, its payer), the books (src/core/quota/accounting.ts)
// write each step, the ledger only records (src/core/quota/ledger.ts), and money.ts holds the policy. So no file
// outside src/core/quota/ calls a step on the books; "taken back" is decided by one call; the month's turn is taken
// by one rule; and "settle" means the order's settlement alone (the glossary's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, importGraph, sourceFiles } from './import-graph.ts';

const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
const QUOTA = 'src/core/quota/';
const STEPS = ['payer', 'writeAhead', 'confirm', 'takeBack', 'leaveSpent', 'unaccepted', 'finish', 'settle', 'heard'];
const CALLS_A_STEP = new RegExp(`\\b(?:books|accounting|#accounting)\\.(?:${STEPS.join('|')})\\(`);

describe('money decided in src/core/quota/', () => {
  const files = sourceFiles(['src', 'commands']);

  it('no file outside it calls a paid request’s step on the books', () => {
    expect(files.filter((file) => !file.startsWith(QUOTA) && CALLS_A_STEP.test(codeOf(file)))).toEqual([]);
  });

  it('has the paid call and who pays beside the books, not in the ledger', () => {
    expect(files.filter((file) => /\bfunction paidCall\b/.test(codeOf(file)))).toEqual([`${QUOTA}paid-call.ts`]);
    expect(files.filter((file) => /\bclass Charge\b/.test(codeOf(file)))).toEqual([`${QUOTA}paid-call.ts`]);
    expect(codeOf(`${QUOTA}ledger.ts`)).not.toMatch(/\breserves\(|#releaseHold\b/);
  });

  it('takes a spend back at one call, and the month’s turn by one rule', () => {
    const calls = (pattern: RegExp) => files.flatMap((file) => [...codeOf(file).matchAll(pattern)].map(() => file));
    expect(calls(/\.takeBack\(/g)).toEqual([`${QUOTA}paid-call.ts`]);
    expect(calls(/this\.#takeTurn\(/g)).toEqual([`${QUOTA}accounting.ts`]);
  });

  it('and the part source call each other one way: Money is handed what parts cost, the part source imports no money.ts', () => {
    expect(codeOf(`${QUOTA}money.ts`)).not.toMatch(/\.(?:needs|standIn)\(|\.freeVoice\b/);
    const graph = importGraph(files);
    expect(graph.get(`${QUOTA}money.ts`)?.filter((to) => to.startsWith('src/core/sourcing/'))).toEqual([]);
    expect(graph.get('src/core/sourcing/part-source.ts')).not.toContain(`${QUOTA}money.ts`);
  });

  it('leaves the stand-in’s choice (whether, which voice, its request, whether it fits) to one module', () => {
    const CHOICE = /(?<!function )\b(?:freeRequest|fitsFreeLine|espeakVoiceFor)\(|\.standsIn\b|\bESPEAK_CHOICE\b(?! =)/;
    // start-saybot.ts only words FREE_VOICES' `espeak` as the choice's own word.
    const choosing = files.filter((file) => CHOICE.test(codeOf(file)) && file !== 'src/app/start-saybot.ts');
    expect(choosing).toEqual(['src/core/sourcing/stand-in.ts']);
    // Which failures of the service let one stand in is its rule too, not the money's.
    const failures = files.filter((file) => /\bfunction failingServiceCause\b/.test(codeOf(file)));
    expect(failures).toEqual(['src/core/sourcing/stand-in.ts']);
  });

  it('writes what a failure says of the month as its own step, apart from what the caller is told', () => {
    expect(codeOf(`${QUOTA}paid-call.ts`)).not.toMatch(/throw\s+await\b/);
  });

  it('says "settle" of the order alone: no other settle is declared in it', () => {
    const declared = files
      .filter((file) => file.startsWith(QUOTA))
      .flatMap((file) =>
        [...codeOf(file).matchAll(/^\s*(?:async\s+)?(?:function\s+)?settle\s*[<(]/gm)].map(() => file),
      );
    expect(declared).toEqual([`${QUOTA}money.ts`]);
  });
});
