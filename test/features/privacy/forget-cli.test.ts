// `npm run forget` as the operator runs it: a child process on an SQLite file, configured by the environment.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/app/store.ts';
import { rowsHolding, scanSqlite } from '../../support/db-scan.ts';
import { SEED_MONTH, seedMemberTraces } from '../../support/privacy-seed.ts';
import { runChild, type ChildRun } from '../../support/run-child.ts';
import { parseForgetArgs } from '../../../src/features/privacy/index-forget.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'saybot-forget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const G1 = '200000000000000001';
const G2 = '200000000000000002';
const A = '300000000000000002';
const B = '300000000000000003';
// Built at run time so no token-shaped literal sits in the repository.
const token = ['TEST', 'bot', 'token-value-do-not-use'].join('.');

let file = '';
let count = 0;
beforeEach(async () => {
  file = path.join(dir, `store-${++count}.sqlite`);
  const store = openSqliteStore(file);
  await seedMemberTraces(store, G1, A, 'a');
  await seedMemberTraces(store, G1, B, 'b');
  await seedMemberTraces(store, G2, A, 'a2');
  await store.close();
});

function forget(args: string[]): Promise<ChildRun> {
  // cwd outside the repository so that no .env of the developer's is read.
  return runChild(process.execPath, [path.join(ROOT, 'src/bin/forget.ts'), ...args], {
    cwd: dir,
    env: {
      PATH: process.env['PATH'] ?? '',
      DISCORD_TOKEN: token,
      DISCORD_CLIENT_ID: '123456789012345678',
      DATABASE_URL: `sqlite:${file}`,
      CACHE_DIR: path.join(dir, 'cache'),
    },
  });
}

const totals = async () => {
  const store = openSqliteStore(file);
  try {
    return { all: await store.spends.monthTotals(SEED_MONTH), g1: await store.spends.monthTotals(SEED_MONTH, G1) };
  } finally {
    await store.close();
  }
};

describe('npm run forget', () => {
  it('--user --guild forgets a member in one server: no row of it holds their ID, the totals unchanged', async () => {
    const before = await totals();
    const run = await forget(['--user', A, '--guild', G1]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`Forgot member ${A} in server ${G1}.*rows deleted.*1 cloned voices deleted \\(v-a\\)`),
    );
    expect(run.stdout + run.stderr).not.toContain(token);
    const scan = scanSqlite(file);
    expect(rowsHolding(scan, A).filter((r) => Object.values(r.cells).includes(G1))).toEqual([]);
    expect(rowsHolding(scan, A).length).toBeGreaterThan(0); // still in G2
    expect(await totals()).toEqual(before);
  });

  it('--user alone forgets a member in every server', async () => {
    const run = await forget(['--user', A]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('in every server');
    expect(rowsHolding(scanSqlite(file), A)).toEqual([]);
    expect(rowsHolding(scanSqlite(file), B).length).toBeGreaterThan(0);
  });

  it('--guild forgets a whole server: no row holds its ID or its only members, the month still adds up', async () => {
    const before = await totals();
    const run = await forget(['--guild', G1]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Forgot server ${G1}`);
    const scan = scanSqlite(file);
    expect(rowsHolding(scan, G1)).toEqual([]);
    expect(rowsHolding(scan, B)).toEqual([]);
    expect((await totals()).all).toEqual(before.all);
  });

  it("--guild keeps what its budgets count: each member's day and last spend (the cooldown), the server's month", async () => {
    const at = new Date();
    const month = at.toISOString().slice(0, 7);
    const seeded = openSqliteStore(file);
    try {
      await seeded.spends.record({
        at,
        guildId: G1,
        userId: B,
        command: 'say',
        endpoint: 'tts',
        characters: 250,
        cached: false,
      });
    } finally {
      await seeded.close();
    }
    const run = await forget(['--guild', G1]);
    expect(run.code).toBe(0);
    expect(rowsHolding(scanSqlite(file), B)).toEqual([]);
    const store = openSqliteStore(file);
    try {
      expect(await store.spends.lastSpendAt(G1, B)).toEqual(at);
      expect(await store.spends.memberDaySpent(G1, B)).toBe(250);
      expect(await store.spends.monthTotals(month, G1)).toEqual({ spent: 250, saved: 0 });
    } finally {
      await store.close();
    }
  });

  // One child process shows what bad arguments do (exit 2, the usage, nothing changed); which arguments are bad is
  // the parser's, asked in process below (each child costs a Node start and a TypeScript load).
  it('exits 2 with the usage on bad arguments, changing nothing', async () => {
    const before = scanSqlite(file).rows.length;
    const run = await forget(['--guild', G1, '--everyone']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: npm run forget');
    expect(run.stdout).toBe('');
    expect(scanSqlite(file).rows.length).toBe(before);
  });

  it.each([[[]], [['--user']], [['--user', 'bob']], [['--guild', G1, '--everyone']], [['stray']]])(
    'refuses the bad arguments %j before anything is opened',
    (args) => {
      expect(parseForgetArgs(args)).toEqual({ problem: expect.any(String) });
    },
  );

  it.each([
    [['--user', A], { userId: A }],
    [['--user', A, '--guild', G1], { userId: A, guildId: G1 }],
    [['--guild', G1], { guildId: G1 }],
  ])('takes the good arguments %j', (args, target) => {
    expect(parseForgetArgs(args)).toMatchObject(target);
  });
});
