// When SayBot is removed from a server (GUILD_DELETE as Discord sends it), the server's data is deleted once the
// grace period has passed; added back within it, nothing is. The bot's clock is injected and moved on; the sweep
// that deletes runs at start-up, so a restart both triggers it and proves the removal time was persisted.
import { describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/app/store.ts';
import { rowsHolding, scanSqlite } from '../support/db-scan.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds } from '../support/harness.ts';
import { SEED_MONTH, seedMemberTracesInFile } from '../support/privacy-seed.ts';
import { ALICE, BOB, MINJI } from '../support/world.ts';

const guilds = defaultGuilds();
const [seoul, london] = guilds as [(typeof guilds)[0], (typeof guilds)[0]];
const DAY = 86_400_000;

let offset = 0;
const h = useFileHarness({
  guilds,
  env: { FORGET_REMOVED_GUILD_AFTER_DAYS: '30' },
  now: () => new Date(Date.now() + offset),
});

const seed = (guildId: string, userId: string, tag: string) =>
  seedMemberTracesInFile(h.databasePath, guildId, userId, tag);
async function monthTotal() {
  const store = openSqliteStore(h.databasePath);
  try {
    return await store.spends.monthTotals(SEED_MONTH);
  } finally {
    await store.close();
  }
}
const logLines = (message: string, guildId: string) =>
  h
    .logs()
    .split('\n')
    .filter((line) => line.includes(message) && line.includes(guildId));
const removalRow = (guildId: string) =>
  scanSqlite(h.databasePath).rows.find((r) => r.table === 'removed_guilds' && r.cells['guild_id'] === guildId);

describe('a server SayBot was removed from', () => {
  it('has its data deleted once the grace period has passed, across a restart, with one log line', async () => {
    await seed(london.id, ALICE, `a${Date.now()}`);
    await seed(london.id, BOB, `b${Date.now()}`);
    await seed(seoul.id, MINJI, `m${Date.now()}`);
    const all = await monthTotal();

    h.discord.removeBot(london.id);
    await vi.waitFor(() => expect(removalRow(london.id)).toBeDefined(), { timeout: 10_000 });
    expect(logLines('SayBot was removed from a server', london.id)).toHaveLength(1);

    // Within the grace period, a restart's sweep leaves it alone.
    offset += 29 * DAY;
    await h.restart();
    expect(rowsHolding(scanSqlite(h.databasePath), london.id).length).toBeGreaterThan(1);

    offset += 2 * DAY;
    await h.restart(); // its start-up sweep is done when it returns
    expect(logLines('grace period after SayBot', london.id)).toHaveLength(1);
    const scan = scanSqlite(h.databasePath);
    expect(rowsHolding(scan, london.id)).toEqual([]);
    expect(rowsHolding(scan, BOB)).toEqual([]);
    expect(rowsHolding(scan, seoul.id).length).toBeGreaterThan(0);
    expect(await monthTotal()).toEqual(all);

    h.discord.addBotBack(london.id); // as the other tests found it
  });

  it('keeps its data when SayBot is added back within the grace period', async () => {
    await seed(seoul.id, MINJI, `k${Date.now()}`);
    const before = rowsHolding(scanSqlite(h.databasePath), seoul.id).length;

    h.discord.removeBot(seoul.id);
    await vi.waitFor(() => expect(removalRow(seoul.id)).toBeDefined(), { timeout: 10_000 });
    offset += 10 * DAY;
    h.discord.addBotBack(seoul.id);
    await vi.waitFor(() => expect(removalRow(seoul.id)).toBeUndefined(), { timeout: 10_000 });

    offset += 60 * DAY;
    await h.restart();
    expect(rowsHolding(scanSqlite(h.databasePath), seoul.id).length).toBe(before);
    expect(logLines('grace period after SayBot', seoul.id)).toEqual([]);
  });

  it('is not an outage: GUILD_DELETE with unavailable records nothing', async () => {
    const outage = h.discord.guildOutage(seoul.id);
    await vi.waitFor(() => expect(h.bot.client.guilds.cache.get(seoul.id)?.available).toBe(false), { timeout: 10_000 });
    outage.end();
    await vi.waitFor(() => expect(h.bot.client.guilds.cache.get(seoul.id)?.available).toBe(true), { timeout: 10_000 });
    expect(removalRow(seoul.id)).toBeUndefined();
    expect(h.logs()).not.toMatch(new RegExp(`SayBot was removed from a server[^\\n]*${seoul.id}`));
  });

  it('keeps the data of a server added back while SayBot was down (the sweep finds it present)', async () => {
    await seed(seoul.id, MINJI, `d${Date.now()}`);
    const before = rowsHolding(scanSqlite(h.databasePath), seoul.id).length;
    const store = openSqliteStore(h.databasePath);
    await store.removedGuilds.mark(seoul.id, new Date(Date.now() + offset - 90 * DAY));
    await store.close();
    await h.restart();
    expect(removalRow(seoul.id)).toBeUndefined();
    expect(rowsHolding(scanSqlite(h.databasePath), seoul.id).length).toBe(before);
  });
});
