// Deletion on request end to end: the bot on the local Discord, then the bot's own SQLite file
// read table by table from its catalogue, so a table no deletion rule covers shows up here.
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/app/store.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { rowsHolding, scanSqlite } from '../support/db-scan.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, runCommand } from '../support/harness.ts';
import { SEED_MONTH, seedMemberTracesInFile } from '../support/privacy-seed.ts';
import { ALICE, BOB, LONDON_ADMIN, OTHER_ROOM as OTHER, OUTSIDE, oneRoomGuild } from '../support/world.ts';

/** Servers whose members spend through /say before their server's data is deleted (the operator's budgets below). */
const SPENT = '200000000000000561';
const MONTH_SPENT = '200000000000000562';
const MANAGER = '300000000000000560';
const X11 = '300000000000000561';
const SPENDERS = ['300000000000000562', '300000000000000563', '300000000000000564', '300000000000000565'] as const;
const manager = { id: MANAGER, username: 'manager', permissions: PermissionFlagsBits.ManageGuild };

const guilds = [
  ...defaultGuilds(),
  oneRoomGuild(SPENT, 'Spent', { text: '210000000000000561', voice: '220000000000000561' }, [
    manager,
    { id: X11, username: 'x11' },
  ]),
  oneRoomGuild(MONTH_SPENT, 'Month spent', { text: '210000000000000562', voice: '220000000000000562' }, [
    manager,
    ...SPENDERS.map((id, i) => ({ id, username: `spender${i}` })),
  ]),
];
const [seoul, london] = guilds as [(typeof guilds)[0], (typeof guilds)[0]];
london.members.push({
  id: LONDON_ADMIN,
  username: 'alex',
  locale: 'en-US',
  permissions: PermissionFlagsBits.ManageGuild,
});

// The operator's budgets (a server's deletion takes its own /budget settings with it, not these).
const h = useFileHarness({
  guilds,
  env: {
    BUDGET_MEMBER_COOLDOWN_SECONDS: '300',
    BUDGET_MEMBER_DAILY_CHARS: '300',
    BUDGET_GUILD_MONTHLY_CHARS: '1000',
  },
});

/** Leaves traces in every table through the Store, on a second connection to the bot's own file. */
const seed = (guildId: string, userId: string, tag: string) =>
  seedMemberTracesInFile(h.databasePath, guildId, userId, tag);
async function totals(guildId?: string) {
  const store = openSqliteStore(h.databasePath);
  try {
    return await store.spends.monthTotals(SEED_MONTH, guildId);
  } finally {
    await store.close();
  }
}
const ephemeral = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const holdsBoth = (a: string, b: string) =>
  rowsHolding(scanSqlite(h.databasePath), a).filter((r) => Object.values(r.cells).includes(b));

describe('/privacy', () => {
  it("show lists a member's records privately; delete leaves no row of that server holding their ID but the managers' ignore, spends anonymised and adding up", async () => {
    await seed(seoul.id, OUTSIDE, `o${Date.now()}`);
    await seed(seoul.id, OTHER, `x${Date.now()}`);
    await seed(london.id, OUTSIDE, `l${Date.now()}`);
    const before = { seoul: await totals(seoul.id), all: await totals() };

    const shown = await runCommand(h, {
      guildId: seoul.id,
      userId: OUTSIDE,
      name: 'privacy',
      subcommand: 'show',
      locale: 'en-US',
    });
    expect(ephemeral(shown.handle.responses.at(-1)?.flags)).toBe(true);
    expect(shown.content).toContain('What SayBot keeps about you in this server');
    expect(shown.content).toMatch(/Spend records \(characters per request\): \d/);
    expect(shown.content).toContain('Voices you cloned: 1');

    const deleted = await runCommand(h, {
      guildId: seoul.id,
      userId: OUTSIDE,
      name: 'privacy',
      subcommand: 'delete',
      locale: 'en-US',
    });
    expect(deleted.content).toMatch(/Deleted what SayBot kept about you in this server: \d+ records removed/);
    expect(deleted.content).toMatch(/Voices you cloned, deleted with their audio purged from the cache: v-o\d+/);
    expect(ephemeral(deleted.handle.responses.at(-1)?.flags)).toBe(true);

    // The one row left is the managers' record that auto-read does not read them (the seed's ignore).
    expect(holdsBoth(OUTSIDE, seoul.id).map((r) => r.table)).toEqual(['auto_read_ignored']);
    expect(holdsBoth(OUTSIDE, london.id).length).toBeGreaterThan(0); // another server is not this one
    expect(holdsBoth(OTHER, seoul.id).length).toBeGreaterThan(0);
    expect(await totals(seoul.id)).toEqual(before.seoul);
    expect(await totals()).toEqual(before.all);

    const again = await runCommand(h, {
      guildId: seoul.id,
      userId: OUTSIDE,
      name: 'privacy',
      subcommand: 'show',
      locale: 'en-US',
    });
    expect(again.content).toBe(
      [
        t('en-US', 'privacy.kept.header'),
        `- ${t('en-US', 'privacy.kept.auto_read_ignored')}: 1`,
        t('en-US', 'privacy.show.footer'),
      ].join('\n'),
    );
  });

  it("server needs Manage Server and a confirmation code from the same manager; then no row holds the server's ID", async () => {
    await seed(london.id, ALICE, `a${Date.now()}`);
    await seed(london.id, BOB, `b${Date.now()}`);
    await seed(seoul.id, OTHER, `s${Date.now()}`);
    const all = await totals();

    const plain = await runCommand(h, {
      guildId: london.id,
      userId: BOB,
      name: 'privacy',
      subcommand: 'server',
      locale: 'en-US',
    });
    expect(plain.content).toMatch(/Manage Server/);

    const first = await runCommand(h, {
      guildId: london.id,
      userId: LONDON_ADMIN,
      name: 'privacy',
      subcommand: 'server',
      locale: 'en-US',
    });
    expect(ephemeral(first.handle.responses.at(-1)?.flags)).toBe(true);
    const code = /confirm:([A-Z0-9]{6})/.exec(first.content)?.[1];
    expect(code).toBeDefined();
    expect(rowsHolding(scanSqlite(h.databasePath), london.id).length).toBeGreaterThan(0); // nothing yet

    const wrong = await runCommand(h, {
      guildId: london.id,
      userId: LONDON_ADMIN,
      name: 'privacy',
      subcommand: 'server',
      options: { confirm: 'ZZZZZZ' },
      locale: 'en-US',
    });
    expect(wrong.content).toContain('That confirmation code is wrong or has expired');
    // A wrong guess does not use the code up; another manager's code is not this one's.
    expect(rowsHolding(scanSqlite(h.databasePath), london.id).length).toBeGreaterThan(0);

    const confirmed = await runCommand(h, {
      guildId: london.id,
      userId: LONDON_ADMIN,
      name: 'privacy',
      subcommand: 'server',
      options: { confirm: code ?? '' },
      locale: 'en-US',
    });
    expect(confirmed.content).toMatch(
      /All of SayBot's data for this server is deleted: \d+ records removed, \d+ spend records anonymised, [2-9] cloned voices deleted/,
    );

    const scan = scanSqlite(h.databasePath);
    expect(rowsHolding(scan, london.id)).toEqual([]);
    expect(rowsHolding(scan, BOB)).toEqual([]);
    expect(rowsHolding(scan, seoul.id).length).toBeGreaterThan(0);
    expect(await totals()).toEqual(all);

    const reused = await runCommand(h, {
      guildId: london.id,
      userId: LONDON_ADMIN,
      name: 'privacy',
      subcommand: 'server',
      options: { confirm: code ?? '' },
      locale: 'en-US',
    });
    expect(reused.content).toContain('That confirmation code is wrong or has expired');
  });

  /** A text of exactly `characters` characters (its own words: no cache hit). */
  const textOf = (characters: number, tag: string) => `${tag} `.repeat(characters).slice(0, characters - 1) + '.';
  const say = (guildId: string, userId: string, text: string) =>
    runCommand(h, {
      guildId,
      userId,
      name: 'say',
      options: { text, voice: 'voice-b-en-f-01', output: 'file' },
      locale: 'en-US',
    });
  /** /privacy server, then its confirmation, by the server's manager. */
  async function deleteServer(guildId: string) {
    const first = await runCommand(h, { guildId, userId: MANAGER, name: 'privacy', subcommand: 'server' });
    const code = /confirm:([A-Z0-9]{6})/.exec(first.content)?.[1] ?? '';
    const confirmed = await runCommand(h, {
      guildId,
      userId: MANAGER,
      name: 'privacy',
      subcommand: 'server',
      options: { confirm: code },
      locale: 'en-US',
    });
    expect(confirmed.content).toMatch(/^All of SayBot's data for this server is deleted/);
  }

  it("server keeps each member's cooldown and day: a member who spent just before is not paid again at once", async () => {
    expect((await say(SPENT, X11, textOf(250, 'eleven'))).content).toMatch(/^Here is/);
    await deleteServer(SPENT);
    const requests = h.sandbox.requests.length;
    const again = await say(SPENT, X11, textOf(58, 'again'));
    expect(again.content).toMatch(
      /^Please wait \d+ s: in this server a member may spend characters once every 300 s\./,
    );
    expect(h.sandbox.requests.length).toBe(requests);
    const usage = await runCommand(h, { guildId: SPENT, userId: X11, name: 'usage', locale: 'en-US' });
    expect(usage.content).toContain('You today: 250 characters; daily budget 300, 50 left');
  });

  it("server keeps its month: /usage shows what the monthly budget counts, the deleted members' characters included", async () => {
    const [a, b, c, late] = SPENDERS;
    for (const [userId, characters] of [
      [a, 300],
      [b, 300],
      [c, 270],
    ] as const)
      expect((await say(MONTH_SPENT, userId, textOf(characters, `s${characters}${userId.slice(-1)}`))).content).toMatch(
        /^Here is/,
      );
    await deleteServer(MONTH_SPENT);
    expect((await say(MONTH_SPENT, late, textOf(63, 'late'))).content).toMatch(/^Here is/);
    const refused = await say(MONTH_SPENT, MANAGER, textOf(106, 'over'));
    expect(refused.content).toMatch(
      /^This server's monthly budget is 1,?000 characters: 933 are used and this needs 106\./,
    );
    const usage = await runCommand(h, { guildId: MONTH_SPENT, userId: late, name: 'usage', locale: 'en-US' });
    expect(usage.content).toContain(
      'This server: 933 characters spent, 0 saved by the cache; monthly budget 1,000, 67 left.',
    );
  });
});
