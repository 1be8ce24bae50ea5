// A paid part is on the books from the moment the service accepted it, whatever instant the process then dies:
// SayBot runs as `npm start` runs it, in a child process on an SQLite file, is killed (SIGKILL) at one point of a
// paid /say, and started again on the same file. What /usage shows and what the budgets count then equal what the
// sandbox billed, each charged part written once, none left "accepted", no hold of the dead process still counting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/app/store.ts';
import type { Fault } from '../../src/sandbox/faults.ts';
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

/** The spends the bot wrote, read from its file. */
function spendRows(): Array<{ characters: number; cached: number; undelivered: number; owner: string | null }> {
  const db = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    return db
      .prepare('SELECT characters, cached, undelivered, owner FROM spends ORDER BY id')
      .all()
      .map((row) => ({ ...row })) as Array<{
      characters: number;
      cached: number;
      undelivered: number;
      owner: string | null;
    }>;
  } finally {
    db.close();
  }
}

/** Characters the bot's books hold as spent (its file read as it is now; 0 before anything was written). */
function spentOnTheBooks(): number {
  const db = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    const row = db.prepare('SELECT coalesce(sum(characters), 0) AS n FROM spends WHERE cached = 0').get();
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
  const reply = await handle.waitFor((r) => /This server: [\d,]+ characters spent/.test(r.content ?? ''), 15_000);
  return Number(/This server: ([\d,]+) characters spent/.exec(reply.content ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
}

function sayAsFile() {
  return local.discord.command({
    guildId: LONDON,
    userId: ALICE,
    name: 'say',
    options: [
      { name: 'text', value: TEXT },
      { name: 'voice', value: 'voice-b-en-f-01' },
      { name: 'output', value: 'file' },
    ],
  });
}

const ttsRequest = () => local.sandbox.requests.find((r) => r.endpoint === 'tts' && r.text === TEXT);

/**
 * Starts SayBot, sends the paid /say with `fault` injected, waits until `killPoint` holds, kills the process with
 * SIGKILL, starts it again on the same file and compares its books with what the sandbox billed.
 */
async function killAt(
  fault: Fault | undefined,
  killPoint: (say: Awaited<ReturnType<typeof sayAsFile>>) => void,
): Promise<void> {
  const first = await startBot();
  if (fault) local.sandbox.injectFault(fault);
  const say = await sayAsFile();
  await vi.waitFor(() => killPoint(say), { timeout: 10_000, interval: 20 });
  first.kill('SIGKILL');
  expect((await first.exited).code).toBeNull();

  const billed = local.sandbox.charactersBilled();
  const second = await startBot();
  try {
    expect(await spentShownByUsage()).toBe(billed);
    expect(await countedByTheBudget()).toBe(billed);
    const paid = spendRows().filter((row) => row.cached === 0);
    // Written once, and settled: nothing is left "accepted" by a process that is gone.
    expect(paid).toHaveLength(billed > 0 ? 1 : 0);
    expect(paid.filter((row) => row.owner !== null)).toEqual([]);
  } finally {
    second.kill('SIGTERM');
    await second.exited;
  }
}

describe('SayBot killed (SIGKILL) during a paid /say, then started again', () => {
  it('before the service accepted it: nothing billed, nothing on the books, no hold left counting', async () => {
    await killAt({ kind: 'slow-headers', headersDelayMs: 120_000, endpoint: 'tts' }, () => {
      expect(ttsRequest()).toBeDefined();
    });
    expect(local.sandbox.charactersBilled()).toBe(0);
  }, 90_000);

  it('right after the service accepted it, before any of its body: on the books once, counted by the budget', async () => {
    await killAt({ kind: 'stall-after', bytes: 0, endpoint: 'tts' }, () => {
      expect(ttsRequest()?.charactersBilled).toBeGreaterThan(0);
      expect(spentOnTheBooks()).toBe(ttsRequest()?.charactersBilled);
    });
    expect(local.sandbox.charactersBilled()).toBe(TEXT.length);
    expect(spendRows()).toEqual([expect.objectContaining({ undelivered: 1, owner: null })]);
  }, 90_000);

  it('in the middle of its body: on the books once, and marked undelivered after the restart', async () => {
    await killAt({ kind: 'pause-after', bytes: 8_000, endpoint: 'tts' }, () => {
      expect(ttsRequest()?.outcome).toBe('paused');
      expect(spentOnTheBooks()).toBe(ttsRequest()?.charactersBilled);
    });
    expect(local.sandbox.charactersBilled()).toBe(TEXT.length);
    expect(spendRows()).toEqual([expect.objectContaining({ undelivered: 1, owner: null })]);
  }, 90_000);

  it('after its body and its file: on the books once', async () => {
    await killAt(undefined, (say) => {
      expect(ttsRequest()?.outcome).toBe('complete');
      expect(say.responses.some((r) => r.files.length > 0)).toBe(true);
    });
    expect(local.sandbox.charactersBilled()).toBe(TEXT.length);
  }, 90_000);
});
