// Money decided in src/core/quota/ (issue 96): a paid request's steps are awaited in one function
// (src/core/quota/paid-call.ts `paidCall`, with who pays, its payer; who still waits is its flight's Waiters), the books
// (src/core/quota/accounting.ts: the budgets' hold on the rules money.ts hands them, what an order is held and
// paid on, `Charge`, a refused write kept) write each step, the month as the service counts it is one record
// (src/core/quota/month.ts: its mark, figures and the probe kept), the ledger only records (src/core/quota/ledger.ts:
// which answer, once, a late write and a kept one are the books'), the store only sums (spends.ts), and
// money.ts holds the policy and the rules: the budgets' and the month's probe's. So no file outside
// src/core/quota/ calls a step on the books; "taken back" is decided by one call; the month's probe is taken by one
// rule, as a step of its own in sight; and "settle" means the order's settlement alone (the glossary's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, importGraph, sourceFiles } from './import-graph.ts';

const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
const QUOTA = 'src/core/quota/';
const STEPS = [
  'payer',
  'monthProbe',
  'writeAhead',
  'confirm',
  'takeBack',
  'leaveSpent',
  'unaccepted',
  'finish',
  'settle',
  'heard',
];
const CALLS_A_STEP = new RegExp(`\\b(?:books|accounting|#accounting)\\.(?:${STEPS.join('|')})\\(`);

describe('money decided in src/core/quota/', () => {
  const files = sourceFiles(['src', 'commands']);

  it('no file outside it calls a paid request’s step on the books', () => {
    expect(files.filter((file) => !file.startsWith(QUOTA) && CALLS_A_STEP.test(codeOf(file)))).toEqual([]);
  });

  it('has the paid call beside the books, the charge in them, neither in the ledger', () => {
    expect(files.filter((file) => /\bfunction paidCall\b/.test(codeOf(file)))).toEqual([`${QUOTA}paid-call.ts`]);
    expect(files.filter((file) => /\bclass Charge\b/.test(codeOf(file)))).toEqual([`${QUOTA}accounting.ts`]);
    // Who still waits for a flight (a paid call's, an engine line's) beside the flight it forgets, not in the part source.
    expect(files.filter((file) => /\bclass Waiters\b/.test(codeOf(file)))).toEqual(['src/core/sourcing/flights.ts']);
    expect(codeOf(`${QUOTA}ledger.ts`)).not.toMatch(/\breserves\(|#releaseHold\b/);
    // Which answer is written once, and how long a write is waited for, are the books' (Accounting), not the ledger's.
    expect(codeOf(`${QUOTA}ledger.ts`)).not.toMatch(/if \(entry\.(?:answer|outcome) [^)]*\) return;|books-write-late/);
    expect(codeOf(`${QUOTA}accounting.ts`)).toMatch(/books-write-late/);
    // A write the store refused is kept, and spending stopped while any is, by the books: the ledger keeps when told.
    expect(codeOf(`${QUOTA}ledger.ts`)).not.toMatch(/\bget failing\b|#keep\(|spend-not-recorded/);
    expect(codeOf(`${QUOTA}accounting.ts`)).toMatch(/#ledger\.keep\(/);
    // Which refused writes are kept and which dropped (a saving past MAX_KEPT) is the books' too; the ledger keeps all.
    expect(codeOf(`${QUOTA}ledger.ts`)).not.toMatch(/savings-not-recorded|\bcached &&/);
    expect(codeOf(`${QUOTA}accounting.ts`)).toMatch(/savings-not-recorded/);
  });

  it('names the figure each step on the books moves (Charge.count), never by position', () => {
    const figures = [...codeOf(`${QUOTA}accounting.ts`).matchAll(/\bcharge\.count\(([^,)]*)/g)].map((m) => m[1]);
    expect(figures.length).toBeGreaterThan(3);
    expect(figures.filter((figure) => !/^'(?:written|paid|delivered)'$/.test(figure ?? ''))).toEqual([]);
  });

  it('takes a spend back at one call, and the month’s probe by one rule', () => {
    const calls = (pattern: RegExp) => files.flatMap((file) => [...codeOf(file).matchAll(pattern)].map(() => file));
    expect(calls(/\.takeBack\(/g)).toEqual([`${QUOTA}paid-call.ts`]);
    // The month keeps its probe in the store; when a request takes it is one rule of acceptance's (money.ts), asked by
    // the books at acceptance and as a part leaves; the books word none of it, the month's record decides none of it.
    expect(calls(/\.takeProbe\(/g)).toEqual([`${QUOTA}money.ts`]);
    expect(calls(/\.probeFor\(/g)).toEqual([`${QUOTA}accounting.ts`]);
    expect(files.filter((file) => /\bprobeFor\b/.test(codeOf(file)))).toEqual([
      `${QUOTA}accounting.ts`,
      `${QUOTA}money.ts`,
    ]);
    expect(codeOf(`${QUOTA}money.ts`)).toMatch(/\basync function probeFor\(/);
    expect(codeOf(`${QUOTA}month.ts`)).not.toMatch(/finding out|asking: true|\.markedAt >|\.saidAt >/);
    expect(codeOf(`${QUOTA}accounting.ts`)).not.toMatch(/quota-used-up|quota-too-few-left|asking: true|finding out/);
    // As a part leaves, the month's probe is a step of the paid call, in sight, apart from its write ahead.
    expect(calls(/\.monthProbe\(/g)).toEqual([`${QUOTA}paid-call.ts`]);
    const writeAhead = /\n {2}async writeAhead\([\s\S]*?\n {2}\}\n/.exec(codeOf(`${QUOTA}accounting.ts`))?.[0];
    expect(writeAhead).toMatch(/#ledger\.writeAhead\(/);
    expect(writeAhead).not.toMatch(/monthProbe|month\.probe|#sending/);
  });

  it('decides the budgets’ rules at acceptance (money.ts) and the month’s figures in one module, each once', () => {
    const declaring = (name: string) => files.filter((file) => new RegExp(`\\bfunction ${name}\\b`).test(codeOf(file)));
    for (const rule of ['effectiveBudgets', 'cooldownRefusal', 'budgetRefusal', 'serverValueAllowed'])
      expect(declaring(rule)).toEqual([`${QUOTA}money.ts`]);
    // The store sums inside its hold's transaction, the books hold what the rule they are handed allows: the
    // comparison with a limit, the cooldown and the server's share are acceptance's (budgetPassed, money.ts).
    expect(codeOf('src/core/store/areas/spends.ts')).not.toMatch(/[<>]=? *limit\b/);
    expect(codeOf(`${QUOTA}money.ts`)).toMatch(/\bbudgetPassed: BudgetRule = [^;]*> limit\)/);
    expect(codeOf(`${QUOTA}accounting.ts`)).not.toMatch(
      /\bbudgetPassed\b|[<>]=? *limit\b|CooldownSeconds|Math\.min\(|budget-(?:cooldown|member-day|guild-month|bot-month)/,
    );
    // Whether the month refuses an order is acceptance's; what an answer says of it, the payment's (below).
    for (const rule of ['monthRefusal', 'standingMark', 'tooFewRefusal'])
      expect(declaring(rule)).toEqual([`${QUOTA}money.ts`]);
    for (const rule of ['monthAnswer', 'serviceFiguresOf', 'usedUp', 'figuresSaid'])
      expect(declaring(rule)).toEqual([`${QUOTA}paid-call.ts`]);
  });

  it('and the part source call each other one way: Money is handed what parts cost, the part source imports no money.ts', () => {
    expect(codeOf(`${QUOTA}money.ts`)).not.toMatch(/\.(?:needs|standIn)\(|\.freeVoice\b/);
    const graph = importGraph(files);
    expect(graph.get(`${QUOTA}money.ts`)?.filter((to) => to.startsWith('src/core/sourcing/'))).toEqual([]);
    expect(graph.get('src/core/sourcing/part-source.ts')).not.toContain(`${QUOTA}money.ts`);
  });

  it('leaves the stand-in’s choice (whether, which voice, its request, whether it fits) to one module', () => {
    const CHOICE =
      /(?<!function )\b(?:freeRequest|espeakVoiceFor)\(|\bfreeLine\([^()]*\)\.fits\b|\.standsIn\b|\bESPEAK_CHOICE\b(?! =)/;
    // start-saybot.ts only words FREE_VOICES' `espeak` as the choice's own word.
    const choosing = files.filter((file) => CHOICE.test(codeOf(file)) && file !== 'src/app/start-saybot.ts');
    expect(choosing).toEqual(['src/core/sourcing/stand-in.ts']);
    // Which refusals a free voice may stand in for, at acceptance and as a part fails, is one question: money's, one
    // export (standInCause) beside the acceptance that refuses them; the stand-in only asks it.
    const refusals = files.filter((file) =>
      /\bFOR_MONEY\b|\bfunction (?:standInCause|failingServiceCause)\b/.test(codeOf(file)),
    );
    expect(refusals).toEqual([`${QUOTA}money.ts`]);
    expect(codeOf(`${QUOTA}money.ts`)).not.toMatch(
      /\bexport const FOR_MONEY\b|\bexport function failingServiceCause\b/,
    );
    expect(codeOf('src/core/sourcing/stand-in.ts')).toMatch(/\bstandInCause\(/);
    expect(codeOf('src/core/sourcing/stand-in.ts')).not.toMatch(/\binstanceof\b|\breason\.code\b|paid-call\.ts/);
    expect(codeOf('src/core/order/pipeline.ts')).not.toMatch(/\bif \(instead === undefined\) throw\b|forRefusal/);
  });

  it('writes what a failure says of the month as its own step, apart from what the caller is told', () => {
    expect(codeOf(`${QUOTA}paid-call.ts`)).not.toMatch(/throw\s+await\b/);
  });

  it('finds each money decision where docs/architecture.md’s Money list says, one question to a file', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const list = doc.slice(
      doc.indexOf('- **Which file answers which money question.**'),
      doc.indexOf('- **Free before paid.**'),
    );
    const named = [...list.matchAll(/^ {2}\d\. (src\/\S+),/gm)].map((m) => m[1]);
    expect(named).toEqual([`${QUOTA}money.ts`, `${QUOTA}accounting.ts`, `${QUOTA}paid-call.ts`]);
    const declaring = (pattern: RegExp) => files.filter((file) => pattern.test(codeOf(file)));
    // Acceptance: the quote ceiling, the free-request rate taken, the stand-in's refusals: money.ts.
    expect(declaring(/\bfunction quoteAllowance\b|\bFOR_MONEY\b|#freeRate\.take\(/)).toEqual([`${QUOTA}money.ts`]);
    // Acceptance decides the budgets too: the comparison, the cooldown, the server's share: money.ts.
    expect(declaring(/\bbudgetPassed: BudgetRule\b|\bfunction (?:cooldownRefusal|effectiveBudgets)\b/)).toEqual([
      `${QUOTA}money.ts`,
    ]);
    // The books: the hold, a kept write: accounting.ts (the store sums, the ledger writes).
    expect(declaring(/#holdCharacters\(|#ledger\.keep\(/)).toEqual([`${QUOTA}accounting.ts`]);
    // The payment: what a call cost: paid-call.ts; who pays a part counted free at acceptance is acceptance's.
    expect(declaring(/\bfunction chargeOf\b/)).toEqual([`${QUOTA}paid-call.ts`]);
    expect(declaring(/\bfunction payerOf\b/)).toEqual([`${QUOTA}money.ts`]);
    // The payment sends a call again (resend: it never left, attempts left, its backoff, one deadline): the client
    // makes one attempt per send and returns what it saw (client-returns.test.ts).
    expect(declaring(/\bfunction resend\b|(?<!function )\bretryDelayMs\(/)).toEqual([`${QUOTA}paid-call.ts`]);
    // The month's record (month.ts) decides nothing: it keeps the mark and the figures, stored, read, written and
    // cleared as it is told. Whether the month refuses an order (the mark standing: its reset date, the key or plan;
    // too few left) is acceptance's (money.ts); what a failed answer says of the month (only the service's proven 429
    // marks it, its figures clear it) is the payment's (paid-call.ts).
    expect(codeOf(`${QUOTA}month.ts`)).not.toMatch(
      /\bRefusal\b|accountRefusalProven|QuotaExceededError|nextMonthStart|monthOf|resetAt <=|\.remaining\b|\.limit >|!== account|\.plan !==/,
    );
    expect(declaring(/\bfunction (?:monthRefusal|standingMark)\b/)).toEqual([`${QUOTA}money.ts`]);
    expect(declaring(/\bfunction (?:heard|toldOfMonth|usedUp|figuresSaid)\b/)).toEqual([`${QUOTA}paid-call.ts`]);
    // A failure past a 2xx counts as charged by the payment's word, the rule it reads the answer with; the client's
    // Call only marks what breaks it off as that reader said (test/structure/client-returns.test.ts).
    expect(codeOf(`${QUOTA}paid-call.ts`)).toMatch(/\.read\(\(error\) => error\.chargedAs\(charge\)\)/);
  });

  it('reads acceptance’s checks in order in money.ts; the books only run them (issue 96’s outside reader)', () => {
    // The order: nothing spent while a refused write is kept, the cooldown, the budgets' hold, the month last; each a
    // step the books take when asked (in the guild's order, by the store's deadline, a hold given back if refused).
    const money = codeOf(`${QUOTA}money.ts`);
    const checks = /\nasync function spendingChecks\([\s\S]*?\n\}\n/.exec(money)?.[0] ?? '';
    const steps = ['spends-unrecorded', 'cooldownRefusal(', '.hold(', 'budgetRefusal(', 'probeFor('];
    const at = steps.map((step) => checks.indexOf(step));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    const books = codeOf(`${QUOTA}accounting.ts`);
    const authorize = /\n {2}async #authorize\([\s\S]*?\n {2}\}\n/.exec(books)?.[0];
    expect(authorize).toMatch(/#rules\.checks\(/);
    expect(authorize).not.toMatch(
      /\bneeded > 0\b|#rules\.(?:cooldown|held|refusal|probeFor)\b|spends-unrecorded|#refuse\(/,
    );
    expect(books).not.toMatch(/\b(?:cooldown|held|refusal)\(limits|#rules\.(?:cooldown|held|refusal)\b/);
    // The late payer's second acceptance is money's: the payment only awaits it.
    const payment = codeOf(`${QUOTA}paid-call.ts`);
    expect(payment).toMatch(/await payerOf\(/);
    expect(payment).not.toMatch(/\.authorize\(|\.late\b|memberCooldown/);
    // The month's record keeps the probe as told: whether acceptance keeps it or only tries it is money's (probeFor).
    expect(codeOf(`${QUOTA}month.ts`)).not.toMatch(/\bkept\b|takeProbe\([^)]/);
    expect(money).toMatch(/\.releaseProbe\(/);
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
