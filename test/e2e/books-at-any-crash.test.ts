// A paid part is on the books from before its first byte leaves, whatever instant the process then dies: SayBot runs
// as `npm start` runs it, in a child process on an SQLite file, is killed (SIGKILL) at one point of a paid /say, and
// started again on the same file. What /usage shows and what the budgets count then are what the sandbox billed (a
// request still unanswered when it died counts as spent: never fewer characters than billed, at most its own more),
// each part written once, none left "confirmed" or "in flight", no hold of the dead process still counting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAN_LIMITS } from '@saybot/voice-sandbox';
import { openSqliteStore } from '../../src/app/store.ts';
import type { Fault } from '@saybot/voice-sandbox/faults.ts';
import { APP_ID } from '../support/harness.ts';
import { useLocalServices } from '../support/local-services.ts';
import { runChild, type ChildRun } from '../support/run-child.ts';
import { ALICE, LONDON } from '../support/world.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEXT = 'Every character the service charged stays on the books, whenever the host dies.';
/** The server's monthly budget: set, so that every paid request holds its characters in the store. */
const GUILD_BUDGET = 100_000;

const local = useLocalServices();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-books-'));
  local.sandbox.resetCounters();
  local.sandbox.clearFaults();
});
afterEach(() => {
  local.sandbox.clearFaults();
  local.sandbox.resumePaused();
  rmSync(dir, { recursive: true, force: true });
});

const databaseFile = () => path.join(dir, 'saybot.sqlite');

/** SayBot started as `npm start` starts it, on this test's database file; resolves once it is ready. */
async function startBot(): Promise<{ kill(signal: NodeJS.Signals): void; exited: Promise<ChildRun> }> {
  let signal: ((name: NodeJS.Signals) => void) | undefined;
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const exited = runChild(process.execPath, ['src/bin/start.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      DOTENV_CONFIG_PATH: '/nonexistent',
      DATABASE_URL: `sqlite:${databaseFile()}`,
      CACHE_DIR: path.join(dir, 'cache'),
      DISCORD_TOKEN: local.token,
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_BASE_URL: local.discord.restUrl,
      VOICE_API_BASE_URL: local.sandbox.url,
      VOICE_API_KEY: local.sandbox.testKey,
      BUDGET_GUILD_MONTHLY_CHARS: String(GUILD_BUDGET),
      BUDGET_MEMBER_DAILY_CHARS: '0',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
      BUDGET_BOT_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_FREE_PER_MINUTE: '0',
    },
    killAfterMs: 60_000,
    onStdout: (stdout, send) => {
      signal = send;
      if (/SayBot is ready/.test(stdout)) ready();
    },
  });
  await Promise.race([
    isReady,
    exited.then((run) => {
      throw new Error(`SayBot exited before it was ready: ${run.stderr || run.stdout}`);
    }),
  ]);
  return { kill: (name) => signal?.(name), exited };
}

interface SpendRow {
  characters: number;
  cached: number;
  undelivered: number;
  unconfirmed: number;
  owner: string | null;
}

/** The spends the bot wrote, read from its file. */
function spendRows(): SpendRow[] {
  const db = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    return db
      .prepare('SELECT characters, cached, undelivered, unconfirmed, owner FROM spends ORDER BY id')
      .all()
      .map((row) => ({ ...row }) as unknown as SpendRow);
  } finally {
    db.close();
  }
}

/** Characters the bot's books hold as spent and confirmed (the service's 2xx) (its file as it is now; 0 before any). */
function confirmedOnTheBooks(): number {
  const db = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    const row = db
      .prepare('SELECT coalesce(sum(characters), 0) AS n FROM spends WHERE cached = 0 AND unconfirmed = 0')
      .get();
    return Number(row?.['n'] ?? 0);
  } catch {
    return 0; // not migrated yet
  } finally {
    db.close();
  }
}

/** What the server's monthly budget counts now (spends plus every live hold), as the store's own check sees it. */
async function countedByTheBudget(): Promise<number> {
  const store = openSqliteStore(databaseFile());
  try {
    const probe = await store.budgets.hold({
      guildId: LONDON,
      userId: ALICE,
      characters: GUILD_BUDGET + 1,
      limits: { guildMonthlyChars: GUILD_BUDGET },
      ttlMs: 1,
    });
    if (probe.status !== 'refused') throw new Error('the probe of the budget was held');
    return probe.used;
  } finally {
    await store.close();
  }
}

/** What /usage shows as this server's characters spent. */
async function spentShownByUsage(): Promise<number> {
  const handle = await local.discord.command({ guildId: LONDON, userId: ALICE, name: 'usage', locale: 'en-US' });
  // Just after a restart, its chart drawn as long work: on a host kept busy by two other processes, past 15 s.
  const reply = await handle.waitFor((r) => /This server: [\d,]+ characters spent/.test(r.content ?? ''), 45_000);
  return Number(/This server: ([\d,]+) characters spent/.exec(reply.content ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
}

function sayAsFile(text = TEXT) {
  return local.discord.command({
    guildId: LONDON,
    userId: ALICE,
    name: 'say',
    options: [
      { name: 'text', value: text },
      { name: 'voice', value: 'voice-b-en-f-01' },
      { name: 'output', value: 'file' },
    ],
  });
}

const ttsRequest = () => local.sandbox.requests.find((r) => r.endpoint === 'tts' && r.text === TEXT);

/** What the books say after the restart, beside what the sandbox billed. */
interface AfterRestart {
  billed: number;
  usage: number;
  budget: number;
  /** The paid spends' rows. */
  paid: ReturnType<typeof spendRows>;
  /** The line the restart logged on settling what the killed run left, if it logged one. */
  settledLine: Record<string, unknown> | undefined;
}

/**
 * Starts SayBot, sends the paid /say with `fault` injected, waits until `killPoint` holds, kills the process with
 * SIGKILL, starts it again on the same file and reads its books.
 */
async function killAt(
  fault: Fault | undefined,
  killPoint: (say: Awaited<ReturnType<typeof sayAsFile>>) => void,
): Promise<AfterRestart> {
  const first = await startBot();
  if (fault) local.sandbox.injectFault(fault);
  const say = await sayAsFile();
  await vi.waitFor(() => killPoint(say), { timeout: 10_000, interval: 20 });
  first.kill('SIGKILL');
  expect((await first.exited).code).toBeNull();

  const billed = local.sandbox.charactersBilled();
  const second = await startBot();
  let after: Omit<AfterRestart, 'settledLine'>;
  try {
    after = {
      billed,
      usage: await spentShownByUsage(),
      budget: await countedByTheBudget(),
      paid: spendRows().filter((row) => row.cached === 0),
    };
  } finally {
    second.kill('SIGTERM');
  }
  const { stdout } = await second.exited;
  const settledLine = stdout
    .split('\n')
    .filter((line) => line.includes('"books-settled-after-crash"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)[0];
  // Written once, and settled: nothing is left "confirmed" or "in flight" by a process that is gone.
  expect(after.paid.length).toBeLessThanOrEqual(1);
  expect(after.paid.filter((row) => row.owner !== null)).toEqual([]);
  return { ...after, settledLine };
}

describe('SayBot killed (SIGKILL) during a paid /say, then started again', () => {
  it('before the service answered it: counted as spent (it may have charged), the restart says so', async () => {
    const after = await killAt({ kind: 'slow-headers', headersDelayMs: 120_000, endpoint: 'tts' }, () => {
      expect(ttsRequest()).toBeDefined();
    });
    // The sandbox had not charged yet (and will not, its client gone); a service might have: never fewer, at most
    // this request's characters more.
    expect(after.billed).toBe(0);
    expect(after.usage).toBe(TEXT.length);
    expect(after.budget).toBe(TEXT.length);
    expect(after.paid).toEqual([expect.objectContaining({ undelivered: 1, unconfirmed: 1 })]);
    expect(after.settledLine).toMatchObject({ inFlight: 1, confirmed: 0, inFlightCharacters: TEXT.length });
  }, 90_000);

  it('after the service charged it, before its 2xx reached SayBot: spent, as billed', async () => {
    const after = await killAt({ kind: 'hold-after-charge', endpoint: 'tts' }, () => {
      expect(ttsRequest()?.outcome).toBe('held');
    });
    expect(after.billed).toBe(TEXT.length);
    expect(after.usage).toBe(after.billed);
    expect(after.budget).toBe(after.billed);
    expect(after.paid).toEqual([expect.objectContaining({ undelivered: 1, unconfirmed: 1 })]);
    expect(after.settledLine).toMatchObject({ inFlight: 1, confirmed: 0 });
  }, 90_000);

  it('right after the service answered 2xx, before any of its body: on the books once, counted by the budget', async () => {
    const after = await killAt({ kind: 'stall-after', bytes: 0, endpoint: 'tts' }, () => {
      expect(ttsRequest()?.charactersBilled).toBeGreaterThan(0);
      expect(confirmedOnTheBooks()).toBe(ttsRequest()?.charactersBilled);
    });
    expect(after.billed).toBe(TEXT.length);
    expect([after.usage, after.budget]).toEqual([after.billed, after.billed]);
    expect(after.paid).toEqual([expect.objectContaining({ undelivered: 1, unconfirmed: 0 })]);
    expect(after.settledLine).toMatchObject({ inFlight: 0, confirmed: 1 });
  }, 90_000);

  it('in the middle of its body: on the books once, and marked undelivered after the restart', async () => {
    const after = await killAt({ kind: 'pause-after', bytes: 8_000, endpoint: 'tts' }, () => {
      expect(ttsRequest()?.outcome).toBe('paused');
      expect(confirmedOnTheBooks()).toBe(ttsRequest()?.charactersBilled);
    });
    expect(after.billed).toBe(TEXT.length);
    expect([after.usage, after.budget]).toEqual([after.billed, after.billed]);
    expect(after.paid).toEqual([expect.objectContaining({ undelivered: 1, unconfirmed: 0 })]);
  }, 90_000);

  it('after its body and its file: on the books once', async () => {
    const after = await killAt(undefined, (say) => {
      expect(ttsRequest()?.outcome).toBe('complete');
      expect(say.responses.some((r) => r.files.length > 0)).toBe(true);
    });
    expect(after.billed).toBe(TEXT.length);
    expect([after.usage, after.budget]).toEqual([after.billed, after.billed]);
    expect(after.paid).toEqual([expect.objectContaining({ unconfirmed: 0 })]);
    expect(after.settledLine).toBeUndefined();
  }, 90_000);
});

// bb14 GAP 2: the probe of whether the month is back is the process's own hold, so the restart frees it at
// once: the next member's request goes out (and sees a top-up) instead of being told another one is checking.
describe('SayBot killed (SIGKILL) while its request finds out whether the month is back, then started again', () => {
  it('its probe is freed by the restart: the next request goes out and sees the top-up', async () => {
    local.sandbox.setKeyUsed(local.sandbox.testKey, PLAN_LIMITS.creator);
    const first = await startBot();
    const refused = await sayAsFile('Refused: the month is used up by the service.');
    await refused.waitFor((r) => /used up/.test(r.content ?? ''), 30_000);
    local.sandbox.injectFault({ kind: 'slow-headers', headersDelayMs: 120_000, endpoint: 'tts' });
    await sayAsFile();
    await vi.waitFor(() => expect(ttsRequest()).toBeDefined(), { timeout: 10_000, interval: 20 });
    first.kill('SIGKILL');
    expect((await first.exited).code).toBeNull();
    local.sandbox.setKeyUsed(local.sandbox.testKey, 0);

    const second = await startBot();
    try {
      const back = await sayAsFile('Back: the owner bought more characters.');
      const reply = await back.waitFor((r) => r.files.length > 0 || /sent nothing/.test(r.content ?? ''), 30_000);
      expect(reply.content ?? '').not.toMatch(/checking right now/);
      expect(reply.files).toHaveLength(1);
    } finally {
      second.kill('SIGTERM');
      await second.exited;
    }
  }, 90_000);
});
