// Figure 7 of npm run bench: what a budget hold costs at 500k spend rows this month, the
// store's hold (running per-guild and per-member totals, only the limits in force) beside the old path (the
// three sums over the month's spends inside the write transaction, reproduced here as it was at 115f1e9).
// SQLite always; PostgreSQL too when the embedded server can run here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { openPgStore, openSqliteStore } from '../src/app/store.ts';
import type { Store } from '../src/core/store/types.ts';
import { postgresBackend, postgresUnavailable } from '../fixtures/store-backends.ts';

export interface BudgetHoldPlan {
  /** Spend rows this month, spread over `guilds` guilds and `members` members. */
  spends: number;
  guilds: number;
  members: number;
  /** Holds timed per path. */
  holds: number;
}

export const budgetHoldPlan = (mode: 'quick' | 'full'): BudgetHoldPlan => ({
  spends: 500_000,
  guilds: 200,
  members: 20_000,
  holds: mode === 'quick' ? 100 : 400,
});

interface Timing {
  medianMs: number;
  p95Ms: number;
}
interface BackendResult {
  backend: 'sqlite' | 'postgres';
  before: Timing;
  after: Timing;
}

const AT = new Date();
const MONTH = AT.toISOString().slice(0, 7);
const DAY = AT.toISOString().slice(0, 10);
const LIMITS = { guildMonthlyChars: 1e12, memberDailyChars: 1e12 };
const guildOf = (i: number) => `2000000000000${String(i).padStart(5, '0')}`;
const memberOf = (i: number) => `3000000000000${String(i).padStart(5, '0')}`;

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { medianMs: at(0.5), p95Ms: at(0.95) };
}

async function timed(n: number, work: (i: number) => Promise<void> | void): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await work(i);
    samples.push(performance.now() - start);
  }
  return timing(samples);
}

/** The running totals rebuilt from the rows, as migration 8 does (the rows were written outside store.spends.record). */
const REBUILD_TOTALS = `
  DELETE FROM spend_totals_guild_month; DELETE FROM spend_totals_member_day;
  INSERT INTO spend_totals_guild_month (guild_id, month, characters)
    SELECT guild_id, month, sum(characters) FROM spends WHERE cached = 0 GROUP BY guild_id, month;
  INSERT INTO spend_totals_member_day (guild_id, user_id, day, characters)
    SELECT guild_id, user_id, day, sum(characters) FROM spends WHERE cached = 0 GROUP BY guild_id, user_id, day;`;

async function sqliteFigures(p: BudgetHoldPlan): Promise<BackendResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'saybot-bench-holds-'));
  const file = path.join(dir, 'holds.sqlite');
  try {
    await openSqliteStore(file).close();
    const db = new DatabaseSync(file);
    db.exec('BEGIN');
    const insert =
      db.prepare(`INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached)
                               VALUES (?, ?, ?, ?, ?, 'say', 'tts', ?, ?)`);
    for (let i = 0; i < p.spends; i++) {
      const day = `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')}`;
      insert.run(
        AT.getTime(),
        MONTH,
        day,
        guildOf(i % p.guilds),
        memberOf(i % p.members),
        20 + (i % 200),
        i % 5 === 0 ? 1 : 0,
      );
    }
    db.exec('COMMIT');
    db.exec(REBUILD_TOTALS);
    db.exec('PRAGMA synchronous = FULL');
    // The old path, statement for statement: delete expired holds, three sums (member day, guild month, bot
    // month) over spends and holds, insert the hold; in BEGIN IMMEDIATE.
    const sum = (table: string, where: string) =>
      db.prepare(
        `SELECT coalesce(sum(characters), 0) AS n FROM ${table} WHERE ${table === 'spends' ? 'cached = 0 AND ' : ''}${where}`,
      );
    const old = {
      expire: db.prepare('DELETE FROM budget_holds WHERE expires_at <= ?'),
      sums: [
        [
          sum('spends', 'guild_id = ? AND user_id = ? AND day = ?'),
          sum('budget_holds', 'guild_id = ? AND user_id = ? AND day = ?'),
          'member',
        ],
        [sum('spends', 'guild_id = ? AND month = ?'), sum('budget_holds', 'guild_id = ? AND month = ?'), 'guild'],
        [sum('spends', 'month = ?'), sum('budget_holds', 'month = ?'), 'bot'],
      ] as const,
      insert: db.prepare(
        'INSERT INTO budget_holds (token, guild_id, user_id, month, day, characters, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      release: db.prepare('DELETE FROM budget_holds WHERE token = ?'),
    };
    const tokens: string[] = [];
    const before = await timed(p.holds, (i) => {
      const guild = guildOf(i % p.guilds);
      const member = memberOf(i % p.members);
      db.exec('BEGIN IMMEDIATE');
      old.expire.run(AT.getTime());
      for (const [spends, holds, kind] of old.sums) {
        const params = kind === 'member' ? [guild, member, DAY] : kind === 'guild' ? [guild, MONTH] : [MONTH];
        spends.get(...params);
        holds.get(...params);
      }
      const token = randomUUID();
      old.insert.run(token, guild, member, MONTH, DAY, 100, AT.getTime() + 60_000);
      db.exec('COMMIT');
      tokens.push(token);
    });
    for (const token of tokens) old.release.run(token);
    db.close();
    const store = openSqliteStore(file);
    try {
      return { backend: 'sqlite', before, after: await storeHolds(store, p) };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The store's own hold, as Accounting asks for it (the guild's month and the member's day), released untimed. */
async function storeHolds(store: Store, p: BudgetHoldPlan): Promise<Timing> {
  const tokens: string[] = [];
  const after = await timed(p.holds, async (i) => {
    const held = await store.budgets.hold({
      guildId: guildOf(i % p.guilds),
      userId: memberOf(i % p.members),
      characters: 100,
      limits: LIMITS,
      ttlMs: 60_000,
      at: AT,
    });
    if (held.status === 'held') tokens.push(held.token);
  });
  for (const token of tokens) await store.budgets.release(token);
  return after;
}

async function postgresFigures(p: BudgetHoldPlan): Promise<BackendResult> {
  const backend = postgresBackend();
  try {
    await (await backend.open()).close();
    const client = new pg.Client({ connectionString: backend.url() });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO spends (at, month, day, guild_id, user_id, command, endpoint, characters, cached)
         SELECT $1, $2, $2 || '-' || lpad((1 + i % 28)::text, 2, '0'), '2000000000000' || lpad((i % $4)::text, 5, '0'),
                '3000000000000' || lpad((i % $5)::text, 5, '0'), 'say', 'tts', 20 + i % 200, CASE WHEN i % 5 = 0 THEN 1 ELSE 0 END
         FROM generate_series(0, $3 - 1) AS i`,
        [AT.getTime(), MONTH, p.spends, p.guilds, p.members],
      );
      await client.query(REBUILD_TOTALS);
      await client.query('ANALYZE');
      const tokens: string[] = [];
      const before = await timed(p.holds, async (i) => {
        const guild = guildOf(i % p.guilds);
        const member = memberOf(i % p.members);
        await client.query('BEGIN');
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended('budget-holds', 0))");
        await client.query('DELETE FROM budget_holds WHERE expires_at <= $1', [AT.getTime()]);
        await client.query(
          `SELECT
             (SELECT coalesce(sum(characters), 0) FROM spends WHERE cached = 0 AND guild_id = $1 AND user_id = $2 AND day = $4)
           + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE guild_id = $1 AND user_id = $2 AND day = $4) AS member_day,
             (SELECT coalesce(sum(characters), 0) FROM spends WHERE cached = 0 AND guild_id = $1 AND month = $3)
           + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE guild_id = $1 AND month = $3) AS guild_month,
             (SELECT coalesce(sum(characters), 0) FROM spends WHERE cached = 0 AND month = $3)
           + (SELECT coalesce(sum(characters), 0) FROM budget_holds WHERE month = $3) AS bot_month`,
          [guild, member, MONTH, DAY],
        );
        const token = randomUUID();
        await client.query(
          'INSERT INTO budget_holds (token, guild_id, user_id, month, day, characters, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [token, guild, member, MONTH, DAY, 100, AT.getTime() + 60_000],
        );
        await client.query('COMMIT');
        tokens.push(token);
      });
      await client.query('DELETE FROM budget_holds WHERE token = ANY($1::text[])', [tokens]);
      const store = await openPgStore(backend.url());
      try {
        return { backend: 'postgres', before, after: await storeHolds(store, p) };
      } finally {
        await store.close();
      }
    } finally {
      await client.end();
    }
  } finally {
    await backend.stop();
  }
}

export async function measureBudgetHold(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const p = budgetHoldPlan(mode);
  const rows: BackendResult[] = [];
  log(`budget holds: SQLite, ${p.spends.toLocaleString('en')} spend rows`);
  rows.push(await sqliteFigures(p));
  const skipped = postgresUnavailable();
  if (skipped === undefined) {
    log(`budget holds: PostgreSQL, ${p.spends.toLocaleString('en')} spend rows`);
    rows.push(await postgresFigures(p));
  } else {
    log(`budget holds: PostgreSQL skipped (${skipped})`);
  }
  const ms = (t: Timing) => `${t.medianMs.toFixed(2)} ms (p95 ${t.p95Ms.toFixed(2)})`;
  return [
    '## 7. Budget hold at 500k spend rows',
    '',
    `${p.spends.toLocaleString('en')} spend rows this month over ${p.guilds} guilds and ${p.members.toLocaleString('en')} members; ${p.holds} holds per path, one at a time, each for one guild's month and one member's day.`,
    "Before: the hold as it was (three sums over the month's spends, bot-wide included, in the write transaction; PostgreSQL under one lock for every guild). After: `store.budgets.hold` (running totals, only the limits in force, per-guild lock).",
    '',
    '| Store | Before: hold | After: hold | Faster |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.backend} | ${ms(r.before)} | ${ms(r.after)} | ${(r.before.medianMs / Math.max(r.after.medianMs, 1e-3)).toFixed(0)}x |`,
    ),
  ].join('\n');
}
